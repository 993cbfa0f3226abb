"""pi's modal editor (examples/pi/modal_editor.py):
A vim-like prompt editor in place of the terminal app's.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from hookline.authoring import HookHarness
from tests.modes.tui.pane import needs_tmux

from .port_runs import print_mode, tui


async def test_normal_mode_moves_and_deletes_insert_mode_types(
    example: Callable[..., HookHarness],
) -> None:
    harness = example("modal_editor", answers={})
    await harness.emit("session_start")
    shown = harness.ui.prompt_editor
    assert shown is not None
    shown.type("helo")
    assert shown.text(30).splitlines()[-1].endswith(" INSERT ")
    shown.press("escape")
    assert shown.text(30).splitlines()[-1].endswith(" NORMAL ")
    shown.type("hhzi")  # two left; z types nothing; i inserts
    shown.type("l")
    shown.press("escape")
    shown.type("$hx0x")  # the last character ($ goes past it), then the first
    assert shown.component.get_text() == "ell"
    shown.type("a")  # append after the cursor
    shown.type("!")
    shown.press("enter")
    assert harness.ui.submitted == ["e!ll"]


async def test_escape_in_normal_mode_reaches_the_app(example: Callable[..., HookHarness]) -> None:
    harness = example("modal_editor", answers={})
    await harness.emit("session_start")
    shown = harness.ui.prompt_editor
    assert shown is not None
    stopped: list[bool] = []
    shown.component.on_escape = lambda: stopped.append(True)
    shown.press("escape")
    assert stopped == []  # insert → normal
    shown.press("escape")
    assert stopped == [True]


@needs_tmux
def test_the_modal_editor_is_the_prompt_of_the_terminal_app(tmp_path: Path) -> None:
    with tui(tmp_path, "modal_editor", "--no-session") as pane:
        pane.wait_for("─ INSERT")
        pane.type("hello wrld")
        pane.wait_for("hello wrld")
        pane.keys("Escape")
        pane.wait_for("─ NORMAL")
        pane.type("hhhi")  # normal mode: back three, then insert
        pane.wait_for("─ INSERT")
        pane.type("o")
        pane.wait_for("hello world")
        pane.keys("Escape")
        pane.wait_for("─ NORMAL")
        pane.type("q")  # types nothing in normal mode
        pane.keys("Enter")  # still sends to the model
        pane.wait_all(["hello world", "Done."])
        assert "hello worldq" not in pane.scrollback()
        pane.keys("Up")  # the sent prompt comes back
        pane.wait_for(lambda s: s.count("hello world") >= 2)
        pane.keys("C-c")  # clears, as in the app's editor
        pane.wait_for(lambda s: s.count("hello world") == 1)
        pane.keys("C-d")
        assert pane.wait_exit() == 0


def test_print_mode_says_there_is_no_editor_to_replace(tmp_path: Path) -> None:
    done = print_mode(tmp_path, "modal_editor", "hi")
    assert done.returncode == 0, done.stderr
    assert "[info] a hook's editor (set_editor_component) is only used in the terminal app" in (
        done.stderr
    )
    assert "Done." in done.stdout
