"""``message_*`` and provider events through a real agent; the provider events also with the
real OpenAI and Anthropic SDKs against the loopback fake servers."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hookline import (
    AfterProviderResponseEvent,
    BeforeProviderRequestEvent,
    MessageEndEvent,
    MessageStartEvent,
    MessageUpdateEvent,
)
from hookline.core.messages import content_text
from tests.fakes import FakeAnthropicServer, FakeOpenAIServer

from .conftest import MakeAgent
from .helpers import covers


@covers("message_start", "message_update", "message_end")
async def test_message_events_stream_the_text_and_end_may_rewrite_it(
    make_agent: MakeAgent,
) -> None:
    rewrite_a = """\
SEEN = []

def register(pi):
    @pi.on("message_end")
    def end(event, ctx):
        text = "".join(b["text"] for b in event.message["content"] if b["type"] == "text")
        SEEN.append(text)
        return {"text": text.replace("secret-123", "[hidden]")}
"""
    rewrite_b = """\
SEEN = []

def register(pi):
    @pi.on("message_end")
    def end(event, ctx):
        text = "".join(b["text"] for b in event.message["content"] if b["type"] == "text")
        SEEN.append(text)
        return text + " (checked)"
"""
    h = await make_agent(
        [{"text": "the key is secret-123 as you asked for it", "thinking": "hmm"}],
        hooks={"a": rewrite_a, "b": rewrite_b},
    )
    added = await h.agent.prompt("key?")
    start = h.event(MessageStartEvent)
    assert start.message["role"] == "assistant" and start.message["content"] == []
    updates = h.events(MessageUpdateEvent)
    texts = [u for u in updates if u.delta_type == "text"]
    assert len(texts) >= 4  # text_start, two or more deltas, text_end
    assert "".join(u.delta for u in texts) == "the key is secret-123 as you asked for it"
    assert (
        content_text(updates[-1].message["content"]) == "the key is secret-123 as you asked for it"
    )
    # the thinking streamed first, as its own block
    assert "".join(u.delta for u in updates if u.delta_type == "thinking") == "hmm"
    kinds = [u.assistant_message_event["type"] for u in updates]
    assert kinds[:3] == ["thinking_start", "thinking_delta", "thinking_end"]
    assert kinds[3] == "text_start" and kinds[-1] == "text_end"
    end = h.event(MessageEndEvent)
    assert end.message["role"] == "assistant"
    # Chained: b saw a's rewrite; the persisted message is the final text, thinking kept.
    assert h.hook("b").SEEN == ["the key is [hidden] as you asked for it"]
    final = added[-1]
    assert final["content"][0] == {"type": "thinking", "thinking": "hmm"}
    assert content_text(final["content"]) == "the key is [hidden] as you asked for it (checked)"
    assert "secret-123" not in str(h.entries())


PAYLOAD_HOOKS = {
    "first": """\
def register(pi):
    @pi.on("before_provider_request")
    def cool(event, ctx):
        if event.provider == "anthropic":
            return {**event.payload, "stop_sequences": ["END"]}
        return {**event.payload, "temperature": 0.25}
""",
    "second": """\
SEEN = []
RESPONSES = []

def register(pi):
    @pi.on("before_provider_request")
    def cap(event, ctx):
        SEEN.append((event.provider, event.payload.get("temperature")))
        SEEN.append(event.payload.get("stop_sequences"))
        payload = dict(event.payload)
        payload["max_tokens"] = 77
        return payload

    @pi.on("after_provider_response")
    def after(event, ctx):
        RESPONSES.append((event.provider, event.status, event.request_id))
""",
}


@pytest.fixture
def openai_fake() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as server:
        yield server


@pytest.fixture
def anthropic_fake() -> Iterator[FakeAnthropicServer]:
    with FakeAnthropicServer() as server:
        yield server


@covers("before_provider_request", "after_provider_response")
async def test_provider_events_with_the_openai_sdk(
    make_agent: MakeAgent, openai_fake: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    openai_fake.add_text("hello from the wire")
    h = await make_agent(
        [], hooks=PAYLOAD_HOOKS, model="openai:gpt-test", base_url=openai_fake.base_url
    )
    added = await h.agent.prompt("hi")
    assert content_text(added[-1]["content"]) == "hello from the wire"
    (body,) = openai_fake.requests
    assert body["temperature"] == 0.25 and body["max_tokens"] == 77  # both handlers, chained
    assert h.hook("second").SEEN == [("openai", 0.25), None]
    assert h.hook("second").RESPONSES == [("openai", 200, "req_fake_1")]
    before = h.event(BeforeProviderRequestEvent)
    assert before.payload["model"] == "gpt-test"
    after = h.event(AfterProviderResponseEvent)
    assert after.headers["content-type"] == "text/event-stream"


async def test_provider_events_with_the_anthropic_sdk(
    make_agent: MakeAgent, anthropic_fake: FakeAnthropicServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
    anthropic_fake.add_text("hello from claude")
    h = await make_agent(
        [], hooks=PAYLOAD_HOOKS, model="anthropic:claude-test", base_url=anthropic_fake.base_url
    )
    h.runner.context.set_thinking_level("low")
    added = await h.agent.prompt("hi")
    assert content_text(added[-1]["content"]) == "hello from claude"
    (body,) = anthropic_fake.requests
    assert body["stop_sequences"] == ["END"] and body["max_tokens"] == 77
    assert h.hook("second").SEEN == [("anthropic", None), ["END"]]
    assert body["thinking"] == {"type": "enabled", "budget_tokens": 2048}
    assert h.hook("second").RESPONSES == [("anthropic", 200, "req_fake_1")]


async def test_thinking_level_maps_to_openai_reasoning_effort(
    make_agent: MakeAgent, openai_fake: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    openai_fake.add_text("one")
    openai_fake.add_text("two")
    h = await make_agent([], model="openai:gpt-test", base_url=openai_fake.base_url)
    await h.agent.prompt("a")
    h.runner.context.set_thinking_level("xhigh")
    await h.agent.prompt("b")
    first, second = openai_fake.requests
    assert "reasoning_effort" not in first
    assert second["reasoning_effort"] == "high"


async def test_a_failing_payload_handler_is_reported_and_the_payload_kept(
    make_agent: MakeAgent,
) -> None:
    hook = """\
def register(pi):
    @pi.on("before_provider_request")
    def broken(event, ctx):
        raise RuntimeError("no payload for you")
"""
    h = await make_agent(["fine"], hooks={"broken": hook})
    added = await h.agent.prompt("hi")
    assert content_text(added[-1]["content"]) == "fine"
    (error,) = h.errors
    assert error.event == "before_provider_request" and "no payload for you" in error.error
