"""pi's timed-confirm example (``examples/pi/timed_confirm.py``) in the terminal app: the
dialogs count down and close themselves, or take the answer given before."""

from __future__ import annotations

from pathlib import Path

from tests.modes.tui.helpers import app
from tests.modes.tui.pane import Pane, needs_tmux

from ..harness import PI_EXAMPLES

EXAMPLE = str(PI_EXAMPLES / "timed_confirm.py")
QUESTION = "This dialog will auto-cancel in 5 seconds. Confirm?"

pytestmark = needs_tmux


def command(pane: Pane, text: str) -> None:
    pane.type(text)
    pane.keys("Enter")


def test_the_dialogs_time_out_counting_down(tmp_path: Path) -> None:
    with app(tmp_path, [], None, "--hook", EXAMPLE) as pane:
        pane.ready()
        command(pane, "/timed")
        pane.wait_for(lambda s: QUESTION in s and "in 5s" in s)
        pane.wait_for("in 2s")  # the countdown runs
        pane.wait_for("Cancelled or timed out")  # the timeout answered "no"
        command(pane, "/timed-signal")
        pane.wait_for("Dialog will auto-cancel in 5 seconds...")
        screen = pane.wait_for(QUESTION)
        assert "auto-answers" not in screen  # no timeout: the hook's signal closes it
        pane.wait_for("Dialog timed out (auto-cancelled)")


def test_an_answer_before_the_timeout_is_taken(tmp_path: Path) -> None:
    with app(tmp_path, [], None, "--hook", EXAMPLE) as pane:
        pane.ready()
        command(pane, "/timed")
        pane.wait_for(QUESTION)
        pane.keys("y")
        pane.wait_for("Confirmed by user!")
        command(pane, "/timed-select")
        pane.wait_for(lambda s: "Pick an option" in s and "in 10s" in s)
        pane.keys("Down")
        pane.keys("Enter")
        pane.wait_for("Selected: Option B")
        command(pane, "/timed-signal")
        pane.wait_for(QUESTION)
        pane.keys("Escape")
        pane.wait_for("Cancelled by user")
