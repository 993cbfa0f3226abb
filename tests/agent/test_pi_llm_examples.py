"""pi's examples that call a model from a hook (examples/pi/): custom-compaction, summarize,
handoff, end to end through the real agent and its model (scripted, or a loopback server)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hookline.core.messages import content_text
from tests.fakes import FakeOpenAIServer

from .conftest import MakeAgent
from .helpers import ScriptedUI

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "pi"


def example(name: str) -> dict[str, str]:
    return {name: (EXAMPLES / f"{name}.py").read_text()}


class EditorUI(ScriptedUI):
    """Answers dialogs and the editor (with the prefill, amended), keeps the editor text."""

    def __init__(self) -> None:
        super().__init__(select="Close")
        self.notes: list[tuple[str, str]] = []
        self.editor_text = ""
        self.working: list[str | None] = []

    def notify(self, message: str, type: Any = "info") -> None:
        self.notes.append((type, message))

    async def editor(self, title: str, prefill: str | None = None, **_: Any) -> str | None:
        self.asked.append((title, prefill))
        return f"{prefill}\n(reviewed)"

    def set_editor_text(self, text: str) -> None:
        self.editor_text = text

    def set_working_message(self, text: str | None) -> None:
        self.working.append(text)


# -- custom-compaction ------------------------------------------------------------------

SUMMARY = "## Goals\nShip the parser.\n## Next steps\nWrite the tests."
BIG = "please read this: " + "lorem ipsum " * 8000


async def test_custom_compaction_writes_the_models_summary(make_agent: MakeAgent) -> None:
    ui = EditorUI()
    h = await make_agent(
        [
            "Parser plan noted.",
            "Read it.",
            {
                "text": SUMMARY,
                "expect_user_contains": "[User]: ship the parser",
            },
        ],
        hooks=example("custom_compaction"),
        ui=ui,
    )
    await h.agent.prompt("ship the parser")
    await h.agent.prompt(BIG)
    assert await h.agent.compact() is True

    entry = h.entries()[-1]
    assert entry["type"] == "compaction" and entry["summary"] == SUMMARY
    assert entry["from_hook"] is True
    request = h.provider.requests[-1]
    assert "You are a conversation summarizer" in content_text(request.messages[0]["content"])
    assert "[Assistant]: Parser plan noted." in content_text(request.messages[0]["content"])
    assert ("info", "Custom compaction extension triggered") in ui.notes
    assert any(m.startswith("Custom compaction: summarizing 2 messages") for _, m in ui.notes)


async def test_custom_compaction_falls_back_when_the_call_fails(make_agent: MakeAgent) -> None:
    ui = EditorUI()
    h = await make_agent(
        ["a", "b", {"text": "x", "expect_user_contains": "not in the request"}],
        hooks=example("custom_compaction"),
        ui=ui,
    )
    await h.agent.prompt("small")
    await h.agent.prompt(BIG)
    assert await h.agent.compact() is True
    entry = h.entries()[-1]
    assert entry["type"] == "compaction" and entry["from_hook"] is False  # the default one
    assert any(t == "error" and m.startswith("Compaction failed:") for t, m in ui.notes)


# -- summarize --------------------------------------------------------------------------


@pytest.fixture
def openai_server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAIServer]:
    pytest.importorskip("openai")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    with FakeOpenAIServer() as server:
        yield server


async def test_summarize_shows_gpt_5_2s_summary(
    make_agent: MakeAgent, openai_server: FakeOpenAIServer
) -> None:
    openai_server.add_text("# Summary\nWe listed the files.")
    ui = EditorUI()
    h = await make_agent(
        [{"text": "Listing.", "tool_calls": [{"name": "ls", "arguments": {"path": "."}}]}, "Done."],
        hooks=example("summarize"),
        ui=ui,
        base_url=openai_server.base_url,
    )
    await h.agent.prompt("what files are here?")
    assert await h.runner.run_command("summarize") is True

    body = openai_server.recorded[0].body
    assert body["model"] == "gpt-5.2" and body["reasoning_effort"] == "high"
    prompt = body["messages"][-1]["content"]
    prompt = prompt if isinstance(prompt, str) else prompt[0]["text"]
    assert prompt.startswith("Summarize this conversation so I can resume it later.")
    assert "User: what files are here?" in prompt
    assert 'Tool ls was called with args {"path": "."}' in prompt
    assert ui.asked[-1] == ("Conversation Summary\n\n# Summary\nWe listed the files.", ["Close"])


async def test_summarize_without_a_key_says_so(
    make_agent: MakeAgent, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    ui = EditorUI()
    h = await make_agent(["hi"], hooks=example("summarize"), ui=ui)
    await h.agent.prompt("hello")
    await h.runner.run_command("summarize")
    assert any(t == "warning" and "OPENAI_API_KEY" in m for t, m in ui.notes)
    assert ui.asked == []


# -- handoff ----------------------------------------------------------------------------

PROMPT = "## Context\nWe built the parser.\n\n## Task\nDo the same for teams."


async def test_handoff_opens_a_child_session_with_the_generated_prompt(
    make_agent: MakeAgent,
) -> None:
    ui = EditorUI()
    h = await make_agent(
        [
            "The parser is done.",
            {
                "text": PROMPT,
                "expect_system_contains": "context transfer assistant",
                "expect_user_contains": "## User's Goal for New Thread\n\nteams too",
            },
        ],
        hooks=example("handoff"),
        ui=ui,
    )
    await h.agent.prompt("build the parser")
    old = h.agent.session.get_session_file()
    assert await h.runner.run_command("handoff", "teams too") is True

    request = h.provider.requests[-1]
    history = content_text(request.messages[0]["content"])
    assert "[User]: build the parser" in history and "[Assistant]: The parser is done." in history
    assert ui.asked[-1] == ("Edit handoff prompt", PROMPT)
    new = h.agent.session.get_session_file()
    assert new is not None and new != old
    assert h.entries(new)[0]["parent_session"] == old
    assert ui.editor_text == PROMPT + "\n(reviewed)"
    assert ("info", "Handoff ready. Submit when ready.") in ui.notes
    assert ui.working == ["Generating handoff prompt...", None]


async def test_handoff_needs_a_goal_and_a_ui(make_agent: MakeAgent) -> None:
    ui = EditorUI()
    h = await make_agent(["hi"], hooks=example("handoff"), ui=ui)
    await h.runner.run_command("handoff", "  ")
    assert ("error", "Usage: /handoff <goal for new thread>") in ui.notes
    assert h.provider.remaining == 1


async def test_custom_compaction_aborted_mid_call_compacts_nothing(make_agent: MakeAgent) -> None:
    ui = EditorUI()
    h = await make_agent(
        ["a", "b", {"text": SUMMARY, "delay_ms": 5000}],
        hooks=example("custom_compaction"),
        ui=ui,
    )
    await h.agent.prompt("small")
    await h.agent.prompt(BIG)
    before = len(h.entries())
    compaction = asyncio.ensure_future(h.agent.compact())
    while len(h.provider.requests) < 3:  # the hook's model call has begun
        await asyncio.sleep(0.01)
    h.agent.abort()
    assert await asyncio.wait_for(compaction, 2) is False
    assert len(h.entries()) == before
    assert not any(t == "warning" for t, _ in ui.notes)  # an abort is not an empty summary
