"""``/sandbox`` in the real app: what ``hookline sandbox check`` shows, a mode picked and
written to ``.claude/settings.local.json``, and the next bash call of the same session
held by it — judged by a file written outside the project."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.modes.helpers import write_script

from .helpers import bash
from .pane import Pane, flat

needs_bwrap = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is missing")


def _project(tmp_path: Path, prompts: int) -> tuple[Path, Path, str]:
    """A project, the file outside it its bash calls write, and a script of ``prompts``
    turns each making that call and then answering ``reply N``."""
    project = tmp_path / "project"
    project.mkdir()
    outside = tmp_path / "outside.txt"
    turns: list[object] = []
    for n in range(prompts):
        turns += [bash(f"echo pwned > {outside}"), f"reply {n}"]
    return project, outside, write_script(tmp_path / "script.json", turns)


def _local(project: Path) -> object:
    return json.loads((project / ".claude" / "settings.local.json").read_text())


def _pick(pane: Pane, downs: int, label: str) -> None:
    pane.type("/sandbox")
    pane.keys("Enter")
    pane.wait_all(["Sandbox mode (now:", "Sandboxed, auto-allow bash", "Off"])
    pane.keys(*(["Down"] * downs), "Enter")
    pane.wait_flat([f"sandbox: {label} from the next bash call"])


@needs_bwrap
def test_the_panel_shows_the_check_and_each_mode_holds_from_the_next_call(
    tmp_path: Path,
) -> None:
    project, outside, model = _project(tmp_path, 3)
    args = ("--model", model, "--no-session", "--trust-project")
    with Pane(tmp_path, *args, cwd=project) as pane:
        pane.ready()
        pane.type("/help")
        pane.keys("Enter")
        pane.wait_flat(["/sandbox the bash sandbox: what it holds, and its mode"])

        pane.type("/sandbox")
        pane.keys("Enter")
        pane.wait_all(
            [
                "machine",
                "bubblewrap: /",
                "status: available",
                "mode",
                "settings files",
                "(none)",
                "writable",
                str(project),
                "a private TMPDIR (per session)",
                "read-only",
                "every other path",
                "hidden",
                "allowed domains",
                "denied domains",
                "Sandbox mode (now: Off)",
                "❯ Sandboxed, auto-allow bash",
                "Sandboxed, regular permissions",
            ]
        )
        pane.keys("Enter")
        pane.wait_flat(["sandbox: Sandboxed, auto-allow bash from the next bash call"])
        assert _local(project) == {"sandbox": {"enabled": True, "autoAllowBashIfSandboxed": True}}

        pane.type("first")  # auto-allowed (no dialog), and the kernel refuses the write
        pane.keys("Enter")
        pane.wait_flat(["Read-only file system", "reply 0"])
        assert not outside.exists()

        _pick(pane, 1, "Sandboxed, regular permissions")
        assert _local(project) == {"sandbox": {"enabled": True, "autoAllowBashIfSandboxed": False}}
        pane.type("second")  # asked now; yes: it runs, sandboxed
        pane.keys("Enter")
        pane.wait_all(["› second", "Allow tool call?"])  # the dialog wraps the long path
        pane.keys("1")
        pane.wait_for(
            lambda s: flat(s).count("Command exited with code 1") == 2 and "reply 1" in s,
            whole=True,
        )
        assert not outside.exists()

        _pick(pane, 2, "Off")
        assert _local(project) == {"sandbox": {"enabled": False, "autoAllowBashIfSandboxed": False}}
        pane.type("third")  # asked; yes: it runs unsandboxed and the file is written
        pane.keys("Enter")
        pane.wait_all(["› third", "Allow tool call?"])  # a dialog leaves no trace once answered
        pane.keys("1")
        pane.wait_for("reply 2", whole=True)
    assert outside.read_text() == "pwned\n"


@needs_bwrap
def test_a_sandbox_another_file_requires_is_not_offered_off(tmp_path: Path) -> None:
    project, outside, model = _project(tmp_path, 1)
    forced = tmp_path / "forced.json"
    forced.write_text(json.dumps({"sandbox": {"enabled": True, "failIfUnavailable": True}}))
    args = ("--model", model, "--no-session", "--trust-project", "--settings", str(forced))
    with Pane(tmp_path, *args, cwd=project) as pane:
        pane.ready()
        # As the test above: a command answered first, so /sandbox runs in a loaded app
        # (typed during loading it has shown its panel without the mode dialog, under load).
        pane.type("/help")
        pane.keys("Enter")
        pane.wait_flat(["/sandbox the bash sandbox: what it holds, and its mode"])
        pane.type("/sandbox")
        pane.keys("Enter")
        screen = _wait_dialog(
            pane,
            [
                "Sandbox mode (now: Sandboxed, auto-allow bash)",
                "It cannot be switched off here:",
                "sandbox.enabled requires it.",
                "Sandboxed, regular permissions",
                # the panel's last row: it is printed above the app off the loop and may
                # land after the dialog; the keys below wait until it has
                "accepted, not enforced",
            ],
        )
        assert "❯ Off" not in screen and "  Off " not in screen
        pane.keys("Escape")
        pane.wait_for(lambda s: "Sandbox mode" not in s)
        pane.type("go")
        pane.keys("Enter")
        pane.wait_flat(["Read-only file system", "reply 0"])
    assert not outside.exists()
    assert not (project / ".claude" / "settings.local.json").exists()


def _wait_dialog(pane: Pane, texts: list[str]) -> str:
    """``wait_flat`` for a dialog whose title wraps at words: its ``│`` border begins
    the title's next rows."""

    def unboxed(screen: str) -> str:
        return flat(screen.replace("\n│ ", "\n"))

    return unboxed(pane.wait_for(lambda s: all(t in unboxed(s) for t in texts), whole=True))


def test_without_bubblewrap_the_panel_only_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOOKLINE_BWRAP", "/nonexistent/bwrap")
    project, _, model = _project(tmp_path, 1)
    with Pane(tmp_path, "--model", model, "--no-session", cwd=project) as pane:
        pane.ready()
        pane.type("/sandbox")
        pane.keys("Enter")
        screen = _wait_dialog(
            pane,
            [
                "Sandbox: dependencies",
                "bubblewrap: not found",
                "The sandbox cannot run here: bubblewrap (bwrap) not installed at "
                "/nonexistent/bwrap; install it: apt-get install bubblewrap",
                "❯ Close",
            ],
        )
        assert "Sandboxed, auto-allow bash" not in screen and "Sandbox mode" not in screen
        pane.keys("Enter")
        pane.wait_for(lambda s: "❯ Close" not in s)
    assert not (project / ".claude").exists()
