"""pi's rainbow editor (examples/pi/rainbow_editor.py):
"ultrathink" in the prompt drawn in a moving rainbow.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from pathlib import Path

from hookline.authoring import HookHarness
from hookline.components import strip_ansi
from tests.modes.tui.pane import needs_tmux

from .port_runs import tui

#: The colour escape before each letter of the word, as tmux reports the screen.
_LETTERS = re.compile("".join(rf"\x1b\[38;5;(\d+)m{c}" for c in "ultrathink"))


async def test_ultrathink_is_coloured_and_its_shine_moves_on_a_timer(
    example: Callable[..., HookHarness],
) -> None:
    harness = example("rainbow_editor", answers={})
    await harness.emit("session_start")
    shown = harness.ui.prompt_editor
    assert shown is not None
    shown.type("think ")
    assert "\x1b[38;2" not in shown.render(40)[1]  # no word, no colour, no timer
    shown.type("ULTRATHINK")
    line = shown.render(40)[1]
    assert strip_ansi(line).startswith("think ULTRATHINK")
    assert "\x1b[38;2;255;255;255m" not in line
    assert "\x1b[38;2;248;220;213mU\x1b[38;2;237;210;156mL" in line  # the shine on U, then L
    while shown.render_requests < 3:  # the timer moves the shine
        await asyncio.sleep(0.02)
    assert shown.component.frame >= 3
    assert "\x1b[38;2;233;137;115mU" in shown.render(40)[1]  # U back to coral
    shown.press("enter")
    assert harness.ui.submitted == ["think ULTRATHINK"]
    assert shown.component._timer is None  # nothing to colour: the timer stopped


@needs_tmux
def test_the_terminal_app_draws_the_word_in_changing_colours(tmp_path: Path) -> None:
    seen: set[tuple[str, ...]] = set()

    def coloured(screen: str) -> bool:
        found = _LETTERS.search(screen)
        if found is not None:
            seen.add(found.groups())
        return len(seen) >= 2  # the shine moved: the same letters in other colours

    with tui(tmp_path, "rainbow_editor", "--no-session") as pane:
        pane.ready()
        pane.type("please ultrathink now")
        pane.wait_for(coloured, styled=True)
        assert all(len(set(colours)) >= 5 for colours in seen)  # a rainbow, not one colour
        pane.keys("Enter")
        pane.wait_all(["please ultrathink now", "Done."])
