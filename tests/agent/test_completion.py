"""``complete()`` from a hook: the agent's provider code, its request hooks, abort, errors."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from hookline import complete, complete_simple
from hookline.agent.model_catalog import ModelCatalog
from hookline.agent.model_registry import ModelRegistry
from hookline.agent.provider import ProviderError
from hookline.core.messages import content_text, user_message
from tests.fakes import FakeAnthropicServer, FakeOpenAIServer, FakeReply

from .conftest import MakeAgent
from .helpers import ScriptedUI


@pytest.fixture(autouse=True)
def no_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for key in ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "OPENAI_API_KEY"):
        monkeypatch.delenv(key, raising=False)


@pytest.fixture
def anthropic_server() -> Iterator[FakeAnthropicServer]:
    with FakeAnthropicServer() as server:
        yield server


def served(base_url: str) -> ModelRegistry:
    return ModelRegistry(ModelCatalog(os.environ, base_url=base_url))


async def test_anthropic_over_the_loopback(
    anthropic_server: FakeAnthropicServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-env")
    anthropic_server.add_text("A short summary.")
    models = served(anthropic_server.base_url)
    haiku = models.find("anthropic", "claude-haiku-4-5")
    assert haiku is not None
    reply = await complete(
        haiku, [user_message("summarize")], registry=models, system_prompt="Be brief."
    )
    assert reply["role"] == "assistant" and reply["stop_reason"] == "stop"
    assert content_text(reply["content"]) == "A short summary."
    assert reply["usage"]["input_tokens"] == 12 and "timestamp" in reply
    sent = anthropic_server.recorded[0]
    assert sent.headers["x-api-key"] == "sk-env"
    assert sent.body["model"] == "claude-haiku-4-5" and sent.body["system"] == "Be brief."
    await models.aclose()


async def test_an_api_key_given_replaces_the_environments(
    anthropic_server: FakeAnthropicServer,
) -> None:
    anthropic_server.add_text("ok")
    models = served(anthropic_server.base_url)
    reply = await complete_simple(
        "anthropic:claude-sonnet-4-5",
        [user_message("hi")],
        registry=models,
        api_key="sk-given",
        reasoning="low",
    )
    assert content_text(reply["content"]) == "ok"
    body = anthropic_server.recorded[0].body
    assert anthropic_server.recorded[0].headers["x-api-key"] == "sk-given"
    assert body["thinking"] == {"type": "enabled", "budget_tokens": 2048}
    await models.aclose()


async def test_a_missing_key_raises_before_anything_is_sent(
    anthropic_server: FakeAnthropicServer,
) -> None:
    with pytest.raises(ProviderError, match="set the ANTHROPIC_API_KEY environment variable"):
        await complete(
            "anthropic:claude-haiku-4-5",
            [user_message("hi")],
            registry=served(anthropic_server.base_url),
        )
    assert anthropic_server.recorded == []


async def test_a_failed_call_is_an_error_message(
    anthropic_server: FakeAnthropicServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "bad")
    anthropic_server.add_error(401, "invalid x-api-key")
    models = served(anthropic_server.base_url)
    reply = await complete("anthropic:claude-haiku-4-5", [user_message("hi")], registry=models)
    assert reply["stop_reason"] == "error"
    assert "invalid x-api-key" in reply["error"] and "check ANTHROPIC_API_KEY" in reply["error"]
    await models.aclose()


async def test_abort_mid_stream_returns_what_had_streamed(
    anthropic_server: FakeAnthropicServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "k")
    anthropic_server.add(FakeReply(text="a b c d e f g h i j k l", event_delay=0.05, chunk_chars=2))
    signal = asyncio.Event()
    seen: list[str] = []

    def on_text(delta: str) -> None:
        seen.append(delta)
        signal.set()  # abort once the first text is in

    models = served(anthropic_server.base_url)
    reply = await complete(
        "anthropic:claude-haiku-4-5",
        [user_message("go")],
        registry=models,
        signal=signal,
        on_text=on_text,
    )
    assert reply["stop_reason"] == "aborted"
    assert seen and content_text(reply["content"]) == "".join(seen)
    assert content_text(reply["content"]) != "a b c d e f g h i j k l"
    await models.aclose()


async def test_openai_over_the_loopback(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("openai")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-oai")
    with FakeOpenAIServer() as server:
        server.add_text("From GPT.")
        models = served(server.base_url)
        reply = await complete("openai:gpt-5.2", [user_message("hi")], registry=models)
        await models.aclose()
    assert content_text(reply["content"]) == "From GPT." and reply["stop_reason"] == "stop"
    assert server.recorded[0].headers["authorization"] == "Bearer sk-oai"
    assert server.recorded[0].body["model"] == "gpt-5.2"


PAYLOADS = """
SEEN = []


def register(pi):
    @pi.on("before_provider_request")
    def rewrite(event, ctx):
        SEEN.append((event.provider, event.payload))
        return {**event.payload, "system": "rewritten by a hook"}
"""


async def test_the_sessions_scripted_model_offline_with_its_request_hooks(
    make_agent: MakeAgent,
) -> None:
    h = await make_agent(
        ["the agent's turn", {"text": "the hook's answer", "expect_system_contains": "rewritten"}],
        hooks={"payloads": PAYLOADS},
    )
    await h.agent.prompt("hello")
    ctx = h.runner.context
    assert ctx.model_info is not None
    reply = await complete(
        ctx.model_info,
        [user_message("summarize")],
        registry=ctx.model_registry,
        system_prompt="You summarize.",
    )
    assert content_text(reply["content"]) == "the hook's answer", reply.get("error")
    assert h.provider.remaining == 0  # the session's own script went on
    provider, payload = h.hook("payloads").SEEN[-1]
    assert provider == "scripted" and payload["system"] == "You summarize."


async def test_the_hooks_rewrite_reaches_the_wire(
    make_agent: MakeAgent, anthropic_server: FakeAnthropicServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "k")
    anthropic_server.add_text("done")
    h = await make_agent(hooks={"payloads": PAYLOADS}, base_url=anthropic_server.base_url)
    ctx = h.runner.context
    reply = await complete(
        "anthropic:claude-haiku-4-5", [user_message("hi")], registry=ctx.model_registry
    )
    assert content_text(reply["content"]) == "done"
    assert anthropic_server.recorded[0].body["system"] == "rewritten by a hook"
    assert h.hook("payloads").SEEN[0][0] == "anthropic"


async def test_a_registry_that_is_not_the_agents_is_refused() -> None:
    class Fake:
        pass

    with pytest.raises(TypeError, match=r"takes ctx\.model_registry"):
        await complete("scripted:x", [], registry=Fake())  # type: ignore[arg-type]


def docs_example() -> str:
    page = (Path(__file__).resolve().parents[2] / "docs" / "writing-hooks.md").read_text()
    section = page.split("## Calling a model from a hook", 1)[1]
    return section.split("```python\n", 1)[1].split("```", 1)[0]


async def test_the_docs_example_works_as_written(make_agent: MakeAgent) -> None:
    ui = ScriptedUI()
    h = await make_agent(
        ["We fixed the bug.", {"text": "Bug fixed.", "expect_user_contains": "[User]: fix it"}],
        hooks={"tldr": docs_example()},
        ui=ui,
    )
    await h.agent.prompt("fix it")
    assert await h.runner.run_command("tldr") is True
    assert ui.notifications[-1] == ("info", "Bug fixed.")
