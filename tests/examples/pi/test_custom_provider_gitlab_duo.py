"""pi's custom-provider-gitlab-duo example in Python (``examples/pi/custom_provider_gitlab_duo``):
a loopback GitLab trades the token for direct access, a loopback gateway answers the
Anthropic and OpenAI proxies in real ``hookline -p`` runs, and the login is GitLab's OAuth."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest

from hookline import LoginCallbacks
from hookline.agent.auth_store import AuthStore
from hookline.agent.model_catalog import ModelCatalog
from hookline.agent.model_registry import ModelRegistry
from hookline.agent.providers.registered import ProviderTable
from hookline.authoring import HookHarness
from tests.examples.harness import example_path
from tests.fakes.llm_servers import FakeAnthropicServer, FakeOpenAIServer
from tests.fakes.routes import RouteServer, Seen
from tests.modes.helpers import json_lines, run_cli

HOOK = str(example_path("custom_provider_gitlab_duo"))


class AnthropicProxy(FakeAnthropicServer):
    path: ClassVar[str] = "/ai/v1/proxy/anthropic/v1/messages"


class OpenAIProxy(FakeOpenAIServer):
    path: ClassVar[str] = "/ai/v1/proxy/openai/v1/chat/completions"


def _direct_access(seen: Seen) -> tuple[int, Any]:
    if seen.headers["authorization"] == "Bearer glpat-denied":
        return 403, {"message": "Duo is not enabled"}
    return 200, {"token": "duo-direct", "headers": {"x-gitlab-instance-id": "inst-1"}}


@pytest.fixture
def gitlab(monkeypatch: pytest.MonkeyPatch) -> Iterator[RouteServer]:
    with RouteServer() as server:

        def token(seen: Seen) -> tuple[int, Any]:
            n = sum(1 for s in server.seen if s.path == "/oauth/token")
            return 200, {"access_token": f"gl-access-{n}", "refresh_token": f"gl-refresh-{n}",
                         "expires_in": 7200, "created_at": int(time.time())}  # fmt: skip

        server.route("POST", "/api/v4/ai/third_party_agents/direct_access", _direct_access)
        server.route("POST", "/oauth/token", token)
        monkeypatch.setenv("GITLAB_URL", server.url)
        yield server


def _run(model: str, project: Path, gateway: str, token: str = "glpat-1") -> Any:
    env = {**os.environ, "GITLAB_TOKEN": token, "GITLAB_AI_GATEWAY_URL": gateway}
    return run_cli("-p", "hi", "--no-session", "--mode", "json", "--hook", HOOK,
                   "--model", f"gitlab-duo:{model}", cwd=project, env=env)  # fmt: skip


def test_a_claude_model_answers_through_the_anthropic_proxy(
    gitlab: RouteServer, project: Path
) -> None:
    with AnthropicProxy() as gateway:
        gateway.add_text("Hello from Duo")
        done = _run("claude-sonnet-4-5-20250929", project, gateway.url)
    assert done.returncode == 0, done.stderr
    deltas = [
        line["event"]["delta"]
        for line in json_lines(done.stdout)
        if line.get("type") == "assistant_message_event" and line["event"]["type"] == "text_delta"
    ]
    assert "".join(deltas) == "Hello from Duo" and len(deltas) > 1
    assert gitlab.seen[0].headers["authorization"] == "Bearer glpat-1"
    assert gitlab.seen[0].json == {"feature_flags": {"DuoAgentPlatformNext": True}}
    sent = gateway.recorded[0]
    assert sent.headers["authorization"] == "Bearer duo-direct"
    assert sent.headers["x-gitlab-instance-id"] == "inst-1"
    assert sent.body["model"] == "claude-sonnet-4-5-20250929"


def test_a_gpt_model_answers_through_the_openai_proxy(gitlab: RouteServer, project: Path) -> None:
    pytest.importorskip("openai")
    with OpenAIProxy() as gateway:
        gateway.add_text("GPT here")
        done = _run("gpt-5-mini-2025-08-07", project, gateway.url)
    assert done.returncode == 0, done.stderr
    assert gateway.recorded[0].headers["authorization"] == "Bearer duo-direct"
    assert gateway.recorded[0].body["model"] == "gpt-5-mini-2025-08-07"


def test_denied_access_is_the_run_s_error(gitlab: RouteServer, project: Path) -> None:
    with AnthropicProxy() as gateway:
        done = _run("claude-haiku-4-5-20251001", project, gateway.url, token="glpat-denied")
    assert "GitLab Duo access denied" in done.stdout + done.stderr
    assert gateway.recorded == []


async def test_the_login_pastes_the_callback_and_a_refresh_follows(
    gitlab: RouteServer, project: Path
) -> None:
    harness = HookHarness(project).load(HOOK)
    table = ProviderTable()
    table.load(harness.runner.hooks)
    registry = ModelRegistry(ModelCatalog(os.environ, registered=table))
    urls: list[str] = []

    async def paste(message: str) -> str:
        assert message == "Paste the callback URL:"
        return "http://127.0.0.1:8080/callback?code=the-code&state=s"

    callbacks = LoginCallbacks(on_auth=lambda url, _: urls.append(url), on_prompt=paste)
    await registry.login("gitlab-duo", callbacks)
    assert urls[0].startswith(f"{gitlab.url}/oauth/authorize?") and "code_challenge=" in urls[0]
    exchange = gitlab.seen[0].form
    assert exchange["code"] == "the-code" and exchange["code_verifier"]
    stored = AuthStore().get("gitlab-duo")
    assert stored is not None and stored["access"] == "gl-access-1"

    AuthStore().set("gitlab-duo", {**stored, "expires": 0})
    with AnthropicProxy() as gateway:
        gateway.add_text("after refresh")
        done = _run("claude-opus-4-5-20251101", project, gateway.url)
    assert done.returncode == 0, done.stderr
    assert gitlab.seen[1].form["grant_type"] == "refresh_token"
    assert gitlab.seen[1].form["refresh_token"] == "gl-refresh-1"
    assert gitlab.seen[2].headers["authorization"] == "Bearer gl-access-2"  # the fresh login
