"""An invalid settings file in the terminal app: shown before the trust question, with
"continue without this file" (its deny rules still apply) or "exit"."""

from __future__ import annotations

import json
from pathlib import Path

from tests.modes.helpers import write_script

from .helpers import bash
from .pane import Pane

#: Valid deny and allow rules beside a ``defaultMode`` hookline does not know (it
#: restricts, so the file is invalid), and a hook that must not run.
BROKEN = {
    "permissions": {
        "defaultMode": "paranoid",
        "deny": ["Bash(touch *)"],
        "allow": ["Bash(mkdir *)"],
    },
    "hooks": {
        "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "touch hooked"}]}],
    },
}


def _project(tmp_path: Path, settings: str) -> Path:
    project = tmp_path / "project"
    (project / ".claude").mkdir(parents=True)
    (project / ".claude" / "settings.json").write_text(settings)
    return project


def test_the_error_comes_before_trust_and_continuing_keeps_the_deny_rules(
    tmp_path: Path,
) -> None:
    project = _project(tmp_path, json.dumps(BROKEN))
    model = write_script(
        tmp_path / "script.json",
        [bash("touch made"), "touch was refused", bash("mkdir made"), "ok"],
    )
    with Pane(tmp_path, "--model", model, "--no-session", cwd=project) as pane:
        screen = pane.wait_all(["Settings error in .claude/settings.json", "Continue without"])
        assert "permissions.defaultMode: unknown mode 'paranoid'" in screen
        assert "Exit and fix it" in screen and "Trust the project" not in screen
        pane.keys("c")
        pane.wait_for("Trust the project")
        pane.keys("y")  # trusted: only the file's being set aside drops its hooks and allows
        pane.ready()
        pane.type("make a file")
        pane.keys("Enter")
        pane.wait_flat(["⊘ bash touch made", "Bash(touch *)", "touch was refused"])
        assert not (project / "made").exists()
        pane.type("make a folder")
        pane.keys("Enter")
        pane.wait_for("mkdir made")  # not allowed by the set-aside file: asked
        pane.wait_for("Allow tool call?")
        assert not (project / "made").exists()
        assert not (project / "hooked").exists()  # its UserPromptSubmit hook never ran


def test_exit_stops_with_the_errors(tmp_path: Path) -> None:
    project = _project(tmp_path, json.dumps(BROKEN))
    with Pane(tmp_path, "--no-session", cwd=project) as pane:
        pane.wait_for("Continue without this file")
        pane.keys("Enter")  # the first choice: exit
        assert pane.wait_exit() == 2
        assert "Trust the project" not in pane.scrollback()
        assert "permissions.defaultMode" in pane.stderr()


def test_the_error_is_asked_in_the_app_when_no_trust_question_comes(tmp_path: Path) -> None:
    project = _project(tmp_path, json.dumps(BROKEN))
    with Pane(tmp_path, "--no-session", "--trust-project", cwd=project) as pane:
        pane.wait_all(["Settings error in .claude/settings.json", "hookline ·"])
        pane.keys("Escape")  # cancelling is exiting
        assert pane.wait_exit() == 2


def test_a_file_that_is_not_json_stops_before_any_question(tmp_path: Path) -> None:
    project = _project(tmp_path, '{"permissions": {"deny": [')
    with Pane(tmp_path, "--no-session", cwd=project) as pane:
        assert pane.wait_exit() == 2
        screen = pane.scrollback()
        assert "Trust the project" not in screen and "Settings error" not in screen
        assert "settings cannot be used" in pane.stderr()
        assert ".claude/settings.json" in pane.stderr()
