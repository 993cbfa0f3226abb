"""deploy/hookline-serve.service: ``systemd-analyze verify`` where it exists, and parsed."""

from __future__ import annotations

import configparser
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.deploy.helpers import DEPLOY, option, require_asgi_serve, serve_argv, unknown_flags

UNIT = DEPLOY / "hookline-serve.service"


def _unit() -> configparser.RawConfigParser:
    """The unit as sections of keys; a key given twice (SystemCallFilter=) keeps its last."""
    parser = configparser.RawConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive
    parser.read_string(UNIT.read_text().replace("\\\n", " "))
    return parser


def test_verified_by_systemd(tmp_path: Path) -> None:
    """No unknown key or section, a valid value everywhere; the program is this checkout's
    ``hookline`` (verify refuses an ExecStart that does not exist)."""
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed: the unit is only parsed")
    program = Path(sys.executable).with_name("hookline")
    if not program.is_file():
        pytest.skip(f"no hookline script beside {sys.executable}")
    text = UNIT.read_text()
    assert text.count("/opt/hookline/bin/hookline") == 1
    unit = tmp_path / UNIT.name
    unit.write_text(text.replace("/opt/hookline/bin/hookline", str(program)))
    done = subprocess.run(
        ["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, timeout=120
    )
    ours = [line for line in done.stderr.splitlines() if UNIT.name in line]
    assert done.returncode == 0 and ours == [], done.stderr


def test_sections_and_hardening() -> None:
    unit = _unit()
    assert unit.sections() == ["Unit", "Service", "Install"]
    service = unit["Service"]
    for key, value in {
        "DynamicUser": "yes",
        "NoNewPrivileges": "yes",
        "ProtectSystem": "strict",
        "ProtectHome": "yes",
        "PrivateTmp": "yes",
        "CapabilityBoundingSet": "",
        "Restart": "on-failure",
    }.items():
        assert service.get(key) == value, key
    assert service["ExecReload"].split()[-2:] == ["-HUP", "$MAINPID"]
    assert unit["Install"]["WantedBy"] == "multi-user.target"


def test_token_comes_from_a_root_only_file_not_the_command_line() -> None:
    service = _unit()["Service"]
    assert service["EnvironmentFile"].startswith("/etc/hookline/")
    argv = serve_argv(service["ExecStart"])
    assert option(argv, "--token") is None
    assert "HOOKLINE_SERVE_TOKEN" not in service.get("Environment", "")


def test_listens_on_loopback_with_workers_and_a_shared_store() -> None:
    argv = serve_argv(_unit()["Service"]["ExecStart"])
    assert (option(argv, "--http") or "").startswith("127.0.0.1:")
    assert (option(argv, "--workers") or "").isdigit()
    assert (option(argv, "--store") or "").startswith("redis://")


def test_exec_start_flags_are_real_serve_flags() -> None:
    require_asgi_serve()
    assert unknown_flags(serve_argv(_unit()["Service"]["ExecStart"])) == []
