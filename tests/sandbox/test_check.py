"""``hookline sandbox check``: the machine and the resolved configuration, exit 0 / 1."""

from __future__ import annotations

import os
from pathlib import Path

from tests.modes.helpers import run_cli
from tests.sandbox.helpers import needs_bwrap, write_settings


@needs_bwrap
def test_check_prints_the_machine_and_the_configuration(tmp_path: Path) -> None:
    write_settings(
        tmp_path,
        {
            "sandbox": {"enabled": True, "network": {"allowedDomains": ["pypi.org"]}},
            "permissions": {"deny": ["Edit(.env)", "Read(./secrets/**)"]},
        },
    )
    assert run_cli("trust", str(tmp_path)).returncode == 0
    done = run_cli("sandbox", "check", "--cwd", str(tmp_path))
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "bubblewrap: /" in out and "bubblewrap 0." in out
    assert "user namespaces: work" in out
    assert "Landlock:" in out and "seccomp:" in out
    assert "status: available" in out
    assert "sandboxed, auto-allow" in out
    assert str(tmp_path / ".claude" / "settings.json") in out
    assert f"  {tmp_path}\n" in out  # writable
    assert "Edit(.env)" in out and str(tmp_path / "secrets") in out
    assert "pypi.org" in out


def test_check_exits_1_when_bubblewrap_is_missing(tmp_path: Path) -> None:
    done = run_cli(
        "sandbox", "check", "--cwd", str(tmp_path),
        env={**os.environ, "HOOKLINE_BWRAP": "/nonexistent/bwrap"},
    )  # fmt: skip
    assert done.returncode == 1
    assert "bubblewrap (bwrap) not installed" in done.stdout
    assert "mode:\n  off" in done.stdout


def test_check_has_help() -> None:
    done = run_cli("sandbox", "check", "--help")
    assert done.returncode == 0
    assert "Exit 0 when" in done.stdout and "--cwd DIR" in done.stdout


def test_check_says_what_happens_when_the_sandbox_is_wanted_but_missing(tmp_path: Path) -> None:
    write_settings(tmp_path, {"sandbox": {"enabled": True, "failIfUnavailable": True}})
    done = run_cli(
        "sandbox", "check", "--cwd", str(tmp_path),
        env={**os.environ, "HOOKLINE_BWRAP": "/nonexistent/bwrap"},
    )  # fmt: skip
    assert done.returncode == 1
    assert "failIfUnavailable: the agent will not start here" in done.stdout
