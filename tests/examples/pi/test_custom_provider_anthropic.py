"""pi's custom-provider-anthropic example in Python (``examples/pi/custom_provider_anthropic``):
its own stream function answers real ``hookline -p`` runs from a loopback Messages API, with
an API key, and with a login whose calls speak as Claude Code does."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hookline import LoginCallbacks
from hookline.agent.auth_store import AuthStore
from hookline.agent.model_catalog import ModelCatalog
from hookline.agent.model_registry import ModelRegistry
from hookline.agent.providers.registered import ProviderTable
from hookline.authoring import HookHarness
from tests.examples.harness import example_path
from tests.fakes.llm_servers import FakeAnthropicServer
from tests.fakes.routes import RouteServer, Seen
from tests.modes.helpers import json_lines, run_cli

HOOK = str(example_path("custom_provider_anthropic"))
MODEL = "custom-anthropic:claude-sonnet-4-5"


@pytest.fixture
def api(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeAnthropicServer]:
    with FakeAnthropicServer() as server:
        monkeypatch.setenv("CUSTOM_ANTHROPIC_BASE_URL", server.url)
        yield server


@pytest.fixture
def tokens(monkeypatch: pytest.MonkeyPatch) -> Iterator[RouteServer]:
    with RouteServer() as server:

        def token(seen: Seen) -> tuple[int, Any]:
            n = len(server.seen)
            return 200, {
                "access_token": f"sk-ant-oat-{n}",
                "refresh_token": f"refresh-{n}",
                "expires_in": 3600,
            }

        server.route("POST", "/v1/oauth/token", token)
        monkeypatch.setenv("CUSTOM_ANTHROPIC_TOKEN_URL", f"{server.url}/v1/oauth/token")
        yield server


def _run(project: Path, *extra: str, env: dict[str, str] | None = None) -> Any:
    return run_cli("-p", "hi", "--no-session", "--hook", HOOK, "--model", MODEL, *extra,
                   cwd=project, env=env)  # fmt: skip


def test_with_an_api_key_the_answer_streams(api: FakeAnthropicServer, project: Path) -> None:
    api.add_text("Hello, custom")
    done = _run(project, "--mode", "json",
                env={**os.environ, "CUSTOM_ANTHROPIC_API_KEY": "sk-ant-api-1"})  # fmt: skip
    assert done.returncode == 0, done.stderr
    deltas = [
        line["event"]["delta"]
        for line in json_lines(done.stdout)
        if line.get("type") == "assistant_message_event" and line["event"]["type"] == "text_delta"
    ]
    assert "".join(deltas) == "Hello, custom" and len(deltas) > 1
    sent = api.recorded[0]
    assert sent.headers["x-api-key"] == "sk-ant-api-1"
    assert sent.headers["anthropic-beta"].startswith("fine-grained-tool-streaming")
    assert sent.body["model"] == "claude-sonnet-4-5" and sent.body["stream"] is True
    assert sent.body["system"][0]["cache_control"] == {"type": "ephemeral"}
    assert {t["name"] for t in sent.body["tools"]} >= {"read", "bash"}
    assert sent.body["messages"][-1]["content"][-1]["cache_control"] == {"type": "ephemeral"}


async def test_a_login_speaks_as_claude_code_and_maps_the_tools_back(
    api: FakeAnthropicServer, tokens: RouteServer, project: Path
) -> None:
    harness = HookHarness(project).load(HOOK)
    table = ProviderTable()
    table.load(harness.runner.hooks)
    registry = ModelRegistry(ModelCatalog(os.environ, registered=table))
    urls: list[str] = []

    async def paste(message: str) -> str:
        return "the-code#the-state"

    await registry.login(
        "custom-anthropic", LoginCallbacks(lambda u, _: urls.append(u), on_prompt=paste)
    )
    assert "code_challenge_method=S256" in urls[0]
    exchange = tokens.seen[0].json
    assert exchange["code"] == "the-code" and exchange["state"] == "the-state"
    assert exchange["code_verifier"] and exchange["grant_type"] == "authorization_code"

    (project / "notes.txt").write_text("the notes\n")
    api.add_tool_call("Read", {"path": "notes.txt"})  # Claude Code's name for read
    api.add_text("I read them")
    done = _run(project)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "I read them"
    first, second = api.recorded
    assert first.headers["authorization"] == "Bearer sk-ant-oat-1"
    assert "x-api-key" not in first.headers
    assert first.headers["anthropic-beta"].startswith("claude-code-20250219,oauth-2025-04-20")
    assert first.body["system"][0]["text"].startswith("You are Claude Code")
    assert {t["name"] for t in first.body["tools"]} >= {"Read", "Bash"}
    result = second.body["messages"][-1]["content"][0]
    assert result["type"] == "tool_result" and "the notes" in str(result["content"])
    assert second.body["messages"][-2]["content"][0]["name"] == "Read"


def test_an_expired_login_is_refreshed(
    api: FakeAnthropicServer, tokens: RouteServer, project: Path
) -> None:
    stale = {"type": "oauth", "refresh": "refresh-0", "access": "sk-ant-oat-old", "expires": 0}
    AuthStore().set("custom-anthropic", stale)
    api.add_text("fresh")
    done = _run(project)
    assert done.returncode == 0, done.stderr
    refresh = tokens.seen[0].json
    assert refresh["grant_type"] == "refresh_token" and refresh["refresh_token"] == "refresh-0"
    assert api.recorded[0].headers["authorization"] == "Bearer sk-ant-oat-1"
    stored = AuthStore().get("custom-anthropic")
    assert stored is not None and stored["refresh"] == "refresh-1"
    assert stored["expires"] > time.time() * 1000
