"""pi's handoff example (``examples/pi/handoff.py``) in the terminal app: the model's handoff
prompt opens in an editor, and once accepted waits in a new session's input box. (The
agent-level checks, the model's request and the child session's parent, are in
tests/agent/test_pi_llm_examples.py.)"""

from __future__ import annotations

from pathlib import Path

from tests.examples.harness import example_path
from tests.modes.tui.helpers import app
from tests.modes.tui.pane import needs_tmux

from .port_runs import input_box

pytestmark = needs_tmux

PORT = str(example_path("handoff"))

PROMPT = "## Context\nWe built the parser.\n\n## Task\nDo the same for teams."


def test_the_prompt_opens_in_an_editor_then_waits_in_a_new_session(tmp_path: Path) -> None:
    turns = [
        "The parser is done.",
        {"text": PROMPT, "expect_system_contains": "context transfer assistant"},
    ]
    with app(tmp_path, turns, None, "--hook", PORT) as pane:
        pane.ready()
        pane.type("build the parser")
        pane.keys("Enter")
        pane.wait_for(lambda s: "The parser is done." in s and "2 msgs" in s)
        pane.type("/handoff teams too")
        pane.keys("Enter")
        pane.wait_for(lambda s: "Edit handoff prompt" in s and "Do the same for teams." in s)
        pane.keys("Enter")  # accept the model's prompt
        screen = pane.wait_for(lambda s: "Handoff ready. Submit when ready." in s and "0 msgs" in s)
        pane.wait_for(lambda s: "Do the same for teams." in input_box(s))
        assert "Edit handoff prompt" not in screen  # the dialog closed
