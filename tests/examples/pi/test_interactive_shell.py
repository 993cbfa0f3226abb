"""pi's interactive-shell example (``examples/pi/interactive_shell.py``): in the terminal app
an interactive ``!`` command gets the terminal (it reads what is typed) and the app comes
back; elsewhere it is refused, and other commands run as usual."""

from __future__ import annotations

from pathlib import Path

import pytest

from hookline.authoring.harness import HookHarness
from tests.modes.tui.helpers import app
from tests.modes.tui.pane import needs_tmux

from ..harness import PI_EXAMPLES

EXAMPLE = PI_EXAMPLES / "interactive_shell.py"


@needs_tmux
def test_the_command_gets_the_terminal_and_the_app_comes_back(tmp_path: Path) -> None:
    with app(tmp_path, [], None, "--hook", str(EXAMPLE)) as pane:
        pane.ready()
        pane.type("!i printf 'name? '; read name; echo \"hello $name\" > out.txt")
        pane.keys("Enter")
        pane.wait_for(lambda s: "name?" in s and "msgs · ctx" not in s)  # the app stepped aside
        pane.type("bob")
        pane.keys("Enter")
        pane.wait_for("(interactive command completed successfully)")
        pane.ready()
        assert (tmp_path / "project" / "out.txt").read_text() == "hello bob\n"
        pane.type("!i exit 3")
        pane.keys("Enter")
        pane.wait_for("(interactive command exited with code 3)")


@pytest.mark.parametrize(
    ("command", "interactive"),
    [
        ("vim notes.txt", True),
        ("git rebase -i HEAD~3", True),
        ("cat log | less", True),
        ("git status", False),
        ("echo vim", False),
    ],
)
async def test_which_commands_are_interactive(
    tmp_path: Path, command: str, interactive: bool
) -> None:
    harness = HookHarness(tmp_path, has_ui=True).load(EXAMPLE)
    emitted = await harness.emit("user_bash", command=command, cwd=str(tmp_path))
    result = emitted.result
    if interactive:  # refused: the harness is not the terminal app
        assert result is not None and result.result is not None
        assert result.result.output == "(interactive commands require TUI)"
        assert result.result.exit_code == 1
    else:
        assert result is None or result.result is None


async def test_the_environment_adds_and_excludes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("INTERACTIVE_COMMANDS", "mytui")
    monkeypatch.setenv("INTERACTIVE_EXCLUDE", "vim")
    harness = HookHarness(tmp_path).load(EXAMPLE)
    for command, refused in (("mytui --x", True), ("vim a", False)):
        emitted = await harness.emit("user_bash", command=command, cwd=str(tmp_path))
        assert (emitted.result is not None and emitted.result.result is not None) is refused
