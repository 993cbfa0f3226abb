"""``hookline "PROMPT"``: the terminal app starts with the prompt already sent."""

from __future__ import annotations

from pathlib import Path

from .helpers import app

FLAG_HOOK = """
from pathlib import Path


def register(pi):
    pi.register_flag("preset", type="string", default="fast", description="a preset name")

    @pi.on("input")
    def said(event, ctx):
        with Path(__file__).with_name("inputs.txt").open("a") as out:
            out.write(f"{event.text} preset={pi.get_flag('preset')}\\n")
"""


def test_a_positional_prompt_is_sent_when_the_app_starts(tmp_path: Path) -> None:
    turns = ["first answer from the script", "second answer from the script"]
    with app(tmp_path, turns, FLAG_HOOK, "fix the tests", "--preset", "slow") as pane:
        pane.wait_all(["fix the tests", "first answer from the script"])
        pane.type("and then")
        pane.keys("Enter")
        pane.wait_for("second answer from the script")
        pane.keys("C-d")
        assert pane.wait_exit() == 0
    inputs = (tmp_path / "inputs.txt").read_text().splitlines()
    assert inputs == ["fix the tests preset=slow", "and then preset=slow"]
