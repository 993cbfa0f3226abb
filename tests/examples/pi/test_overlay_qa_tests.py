"""pi's overlay-qa-tests: anchors, margins, stacking, focus and visibility of overlays,
driven in the terminal app under tmux (100×30), under the harness, and in print mode."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from pathlib import Path

from hookline.authoring import HookHarness
from hookline.components import strip_ansi
from tests.modes.tui.pane import Pane, needs_tmux

from .port_runs import OVERLAY_TOP, print_mode, tui


def run(pane: Pane, command: str) -> None:
    pane.ready()
    pane.type(f"/{command}")
    pane.keys("Enter")


def row_of(screen: str, text: str) -> tuple[int, int]:
    """The row and column of ``text``'s first occurrence on the screen."""
    for number, line in enumerate(screen.splitlines()):
        if text in line:
            return number, line.index(text)
    raise AssertionError(f"{text!r} not on screen:\n{screen}")


@needs_tmux
def test_anchors_place_the_box_at_each_corner_and_enter_picks(tmp_path: Path) -> None:
    with tui(tmp_path, "overlay_qa_tests", "--no-session") as pane:
        run(pane, "overlay-anchors")
        screen = pane.wait_for("Current: top-left")
        assert row_of(screen, "╭") == (OVERLAY_TOP, 0)  # no margin: the screen's corner
        pane.keys("Space")
        screen = pane.wait_for("Current: top-center")
        assert row_of(screen, "╭") == (OVERLAY_TOP, 30)  # (100 - 40) / 2
        pane.keys("Right")
        pane.wait_for("Current: top-right")
        pane.keys("Right")
        screen = pane.wait_for("Current: left-center")
        top, left = row_of(screen, "Anchor Test")
        assert left < 20 and 9 <= top <= 12
        pane.keys("Enter")
        pane.wait_for("Selected: left-center", whole=True)


@needs_tmux
def test_three_stacked_overlays_close_front_to_back(tmp_path: Path) -> None:
    with tui(tmp_path, "overlay_qa_tests", "--no-session") as pane:
        run(pane, "overlay-stack")
        screen = pane.wait_for("Layer: front (blue border)")
        front, _ = row_of(screen, "Overlay #3")
        middle = screen.splitlines()[front - 3]  # the front box is drawn over the middle one
        assert "Layer: middle" in middle and middle.rstrip().endswith("│")
        pane.keys("Enter")  # closes the front one: the keys go to the middle
        pane.wait_for(lambda s: "Overlay #3" not in s and "Overlay #2" in s)
        pane.keys("Enter")
        pane.wait_for(lambda s: "Overlay #2" not in s and "Overlay #1" in s)
        pane.keys("Escape")
        pane.wait_for("Closed in order: Overlay 1, Overlay 2, Overlay 3", whole=True)


@needs_tmux
def test_max_height_cuts_the_overlay(tmp_path: Path) -> None:
    with tui(tmp_path, "overlay_qa_tests", "--no-session") as pane:
        run(pane, "overlay-maxheight")
        screen = pane.wait_for("Line 6 of 14")
        assert "Line 7 of 14" not in screen and "╰" not in screen.split("Line 6 of 14")[1]
        top, _ = row_of(screen, "MaxHeight Test")
        assert top == OVERLAY_TOP + 9  # 10 rows centred on 29
        pane.keys("Escape")
        pane.wait_for(lambda s: "MaxHeight Test" not in s)


@needs_tmux
def test_focus_cycles_through_non_capturing_panels(tmp_path: Path) -> None:
    with tui(tmp_path, "overlay_qa_tests", "--no-session") as pane:
        run(pane, "overlay-focus")
        screen = pane.wait_for("Current focus: Controller")
        assert "Gamma" in screen and "● FOCUSED" not in screen
        pane.keys("Tab")
        screen = pane.wait_for("● FOCUSED")
        assert "Alpha" in screen.split("● FOCUSED")[0].splitlines()[-3]  # Alpha, on top
        pane.keys("Tab")  # Beta has the keys now, and passes Tab on too
        pane.wait_for(lambda s: "Beta" in s.split("● FOCUSED")[0].splitlines()[-3])
        pane.keys("Escape")
        pane.wait_for(lambda s: "Focus Demo" not in s and "Gamma" not in s)


@needs_tmux
def test_typing_reaches_the_focused_streaming_panel(tmp_path: Path) -> None:
    with tui(tmp_path, "overlay_qa_tests", "--no-session") as pane:
        run(pane, "overlay-streaming")
        pane.wait_for("Streaming line 2...")
        pane.keys("Tab")
        pane.wait_for("● FOCUSED")
        pane.type("hello")
        screen = pane.wait_for(" > hello")
        assert (
            row_of(screen, "Panel A")[0]
            < row_of(screen, " > hello")[0]
            < row_of(screen, "Panel B")[0]
        )
        pane.keys("Escape")
        pane.wait_for(lambda s: "Panel A" not in s and "Streaming" not in s)


@needs_tmux
def test_a_passive_timer_ticks_beside_the_overlay_that_has_the_keys(tmp_path: Path) -> None:
    with tui(tmp_path, "overlay_qa_tests", "--no-session") as pane:
        run(pane, "overlay-passive")
        screen = pane.wait_for("00:01")
        top, left = row_of(screen, "╭")
        assert top == OVERLAY_TOP + 1 and left == 100 - 2 - 22  # top-right, margins 1 and 2
        pane.type("abc")
        pane.wait_for(" > abc")
        pane.keys("Escape")
        pane.wait_for(lambda s: "Timer" not in s and "Non-Capturing" not in s)


@needs_tmux
def test_toggle_hides_the_overlay_for_a_second(tmp_path: Path) -> None:
    with tui(tmp_path, "overlay_qa_tests", "--no-session") as pane:
        run(pane, "overlay-toggle")
        pane.wait_for("Toggle count: 0")
        pane.type("t")
        pane.wait_for(lambda s: "Toggle Demo" not in s)
        pane.wait_for("Toggle count: 1")  # back after a second, with the keys
        pane.keys("Escape")
        pane.wait_for(lambda s: "Toggle Demo" not in s)


@needs_tmux
def test_the_sidepanel_and_the_edge_test_sit_on_the_right(tmp_path: Path) -> None:
    with tui(tmp_path, "overlay_qa_tests", "--no-session") as pane:
        run(pane, "overlay-sidepanel")
        screen = pane.wait_for("Responsive Sidepanel")
        assert row_of(screen, "╭")[1] == 100 - 1 - 30  # 25% is 25, at least 30
        pane.keys("Down")
        pane.wait_for("→ Messages")
        pane.keys("Escape")
        pane.wait_for(lambda s: "Sidepanel" not in s)
        run(pane, "overlay-edge")
        screen = pane.wait_for("right edge of terminal")
        assert (
            row_of(screen, "╭")[1] == 60 and screen.splitlines()[row_of(screen, "╭")[0]][-1] == "╮"
        )
        pane.keys("Escape")


@needs_tmux
def test_streamed_process_lines_are_cut_to_the_box(tmp_path: Path) -> None:
    with tui(tmp_path, "overlay_qa_tests", "--no-session") as pane:
        run(pane, "overlay-overflow")
        screen = pane.wait_for("▶ read: /home/user/development/pi-mono")
        line = next(s for s in screen.splitlines() if "▶ read:" in s)
        assert line.rstrip().endswith("...│") and len(line.rstrip()) <= 95
        assert "● Running" in screen
        pane.keys("Escape")
        pane.wait_for(lambda s: "Streaming Output" not in s)


async def test_the_animation_redraws_by_itself_frame_after_frame(
    example: Callable[..., HookHarness],
) -> None:
    """Counts, not timing: the timer asks for frames and each shows the next number."""
    harness = example("overlay_qa_tests", answers={})
    task = asyncio.ensure_future(harness.command("overlay-animation"))
    shown = await harness.ui.next_component()
    assert shown.placement == {"anchor": "center", "width": 50, "max_height": 20}
    frames = []
    while len(set(frames)) < 5:  # the frames the timer asked for, each one new
        requests = shown.render_requests
        while shown.render_requests == requests:
            await asyncio.sleep(0.01)
        frames.append(re.search(r"Frame: (\d+)", strip_ansi(shown.text(50))).group(1))
    assert [int(f) for f in frames] == sorted(int(f) for f in frames)
    assert "Animation Demo" in shown.text(50)
    shown.press("escape")
    await task
    requests = shown.render_requests
    await asyncio.sleep(0.1)
    assert shown.render_requests == requests  # the timer stopped


async def test_margins_and_percent_steps_then_close(example: Callable[..., HookHarness]) -> None:
    harness = example("overlay_qa_tests", answers={})
    task = asyncio.ensure_future(harness.command("overlay-margins"))
    placements = []
    for _ in range(5):
        shown = await harness.ui.next_component()
        placements.append(shown.placement)
        shown.press("space")
    (await harness.ui.next_component()).press("escape")  # back at the first: close
    await task
    assert placements[1] == {"anchor": "top-left", "width": 35, "margin": 3}
    assert placements[3] == {"anchor": "center", "width": 35, "offset_x": 10, "offset_y": -3}


def test_print_mode_shows_the_first_overlay_once_as_text(tmp_path: Path) -> None:
    done = print_mode(tmp_path, "overlay_qa_tests", "/overlay-anchors")
    assert done.returncode == 0, done.stderr
    assert "Anchor Test" in done.stderr and "Current: top-left" in done.stderr
    assert "Selected" not in done.stderr  # custom() is None: nothing was picked
