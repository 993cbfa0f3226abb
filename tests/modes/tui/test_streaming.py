"""A long answer streamed by a loopback model server: the live part is a bounded tail,
typing goes on meanwhile, and Esc stops it with what came printed."""

from __future__ import annotations

import re
from pathlib import Path

from hookline.modes.tui.live_area import LIVE_TEXT_LINES
from tests.fakes.llm_servers import FakeOpenAIServer, FakeReply

from .pane import Pane


def test_a_streaming_answer_shows_a_tail_and_typing_goes_on(tmp_path: Path) -> None:
    answer = "\n\n".join(f"para-{i:04d} some *streamed* words" for i in range(3000))
    project = tmp_path / "project"
    project.mkdir()
    with FakeOpenAIServer() as fake:
        # ~3 000 events 10 ms apart: far longer than the test, which stops it with Esc
        fake.add(FakeReply(text=answer, chunk_chars=40, event_delay=0.01))
        args = ("--model", "openai:fake-model", "--base-url", fake.base_url, "--no-session")
        with Pane(tmp_path, *args, cwd=project) as pane:
            pane.ready()
            pane.type("tell me a long story")
            pane.keys("Enter")
            screen = pane.wait_for(lambda s: max(_paragraphs(s), default=0) >= 40)
            shown = _paragraphs(screen)
            # only the tail of the answer is on the screen, rendered (no Markdown stars)
            assert 0 not in shown and "*streamed*" not in screen
            assert 0 < len(shown) <= LIVE_TEXT_LINES, screen
            pane.type("typed meanwhile")
            pane.wait_for("› typed meanwhile")
            assert "para-2999" not in pane.scrollback()  # the answer is still coming
            pane.keys("Escape")
            whole = pane.wait_for("(interrupted)", whole=True)
            # what came is printed whole, from its first paragraph on
            assert "para-0000" in whole and "para-0040" in whole and "para-2999" not in whole
            printed = _paragraphs(whole)
            assert printed == list(range(len(printed)))  # every paragraph, once, in order
            pane.wait_for(lambda s: "› typed meanwhile" in s and "Working" not in s)


def _paragraphs(screen: str) -> list[int]:
    return [int(n) for n in re.findall(r"para-(\d{4})", screen)]
