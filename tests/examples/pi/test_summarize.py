"""pi's summarize example (``examples/pi/summarize.py``) in the terminal app: ``/summarize``
shows GPT-5.2's summary (a loopback OpenAI server here) in a dialog. (The request's
details are checked in tests/agent/test_pi_llm_examples.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.examples.harness import PI_EXAMPLES
from tests.fakes import FakeOpenAIServer
from tests.modes.tui.helpers import app
from tests.modes.tui.pane import needs_tmux

pytestmark = needs_tmux

PORT = str(PI_EXAMPLES / "summarize.py")


def test_the_summary_shows_in_a_dialog(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("openai")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")  # the app inherits it
    with FakeOpenAIServer() as server:
        server.add_text("# Summary\nWe listed the files.")
        with app(
            tmp_path, ["Listing done."], None, "--hook", PORT, "--base-url", server.base_url
        ) as pane:
            pane.ready()
            pane.type("what files are here?")
            pane.keys("Enter")
            pane.wait_for(lambda s: "Listing done." in s and "2 msgs" in s)
            pane.type("/summarize")
            pane.keys("Enter")
            pane.wait_for(lambda s: "Conversation Summary" in s and "We listed the files." in s)
            pane.keys("Enter")  # Close
            screen = pane.wait_for(lambda s: "Conversation Summary" not in s and "msgs" in s)
            assert "Listing done." in screen
        assert server.recorded[0].body["model"] == "gpt-5.2"
