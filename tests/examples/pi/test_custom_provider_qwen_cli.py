"""pi's custom-provider-qwen-cli example in Python (``examples/pi/custom_provider_qwen_cli.py``):
the device-code login against a loopback OAuth server, then real ``hookline -p`` runs on
the endpoint the login named, the login refreshed once it expired."""

from __future__ import annotations

import json
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
from tests.fakes.llm_servers import FakeOpenAIServer
from tests.fakes.routes import RouteServer, Seen
from tests.modes.helpers import run_cli

pytest.importorskip("openai")
HOOK = str(example_path("custom_provider_qwen_cli"))


@pytest.fixture
def model_api() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as server:
        yield server


@pytest.fixture
def oauth(model_api: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch) -> Iterator[RouteServer]:
    polls: list[str] = []

    def token(seen: Seen) -> tuple[int, Any]:
        if seen.form["grant_type"] == "refresh_token":
            return 200, {"access_token": "refreshed", "expires_in": 3600, "token_type": "Bearer"}
        polls.append(seen.form["device_code"])
        if len(polls) == 1:  # the user has not approved yet
            return 400, {"error": "authorization_pending"}
        return 200, {
            "access_token": "qwen-access",
            "refresh_token": "qwen-refresh",
            "expires_in": 3600,
            "token_type": "Bearer",
            "resource_url": model_api.url,
        }

    with RouteServer() as server:
        server.route("POST", "/api/v1/oauth2/device/code", lambda seen: (200, {
            "device_code": "dev-1", "user_code": "ABCD-1234", "interval": 0.1,
            "verification_uri": f"{server.url}/device", "expires_in": 60}))  # fmt: skip
        server.route("POST", "/api/v1/oauth2/token", token)
        monkeypatch.setenv("QWEN_OAUTH_URL", server.url)
        yield server


async def _login(project: Path) -> list[tuple[str, str | None]]:
    harness = HookHarness(project).load(HOOK)
    table = ProviderTable()
    table.load(harness.runner.hooks)
    registry = ModelRegistry(ModelCatalog(os.environ, registered=table))
    shown: list[tuple[str, str | None]] = []
    await registry.login("qwen-cli", LoginCallbacks(on_auth=lambda u, i: shown.append((u, i))))
    return shown


async def test_the_device_login_is_stored_and_a_run_uses_its_endpoint(
    oauth: RouteServer, model_api: FakeOpenAIServer, project: Path
) -> None:
    shown = await _login(project)
    assert shown == [(f"{oauth.url}/device", "Enter code: ABCD-1234")]
    device = oauth.seen[0].form
    assert device["code_challenge_method"] == "S256" and device["scope"].endswith("completion")
    assert oauth.seen[2].form["code_verifier"]  # the second poll got the token
    stored = AuthStore().get("qwen-cli")
    assert stored is not None and stored["access"] == "qwen-access"
    assert stored["enterpriseUrl"] == model_api.url

    model_api.add_text("Hello from Qwen")
    done = run_cli("-p", "hi", "--no-session", "--hook", HOOK, "--model",
                   "qwen-cli:qwen3-coder-plus", cwd=project)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "Hello from Qwen"
    sent = model_api.recorded[0]
    assert sent.path == "/v1/chat/completions"  # the login's endpoint, /v1 added
    assert sent.headers["authorization"] == "Bearer qwen-access"
    assert sent.body["model"] == "qwen3-coder-plus"


async def test_an_expired_login_is_refreshed_before_the_call(
    oauth: RouteServer, model_api: FakeOpenAIServer, project: Path
) -> None:
    await _login(project)
    store = AuthStore()
    stored = dict(store.get("qwen-cli") or {})
    store.set("qwen-cli", {**stored, "expires": time.time() * 1000 - 1})
    model_api.add_text("ok")
    done = run_cli("-p", "hi", "--no-session", "--hook", HOOK, "--model",
                   "qwen-cli:qwen3-coder-flash", cwd=project)  # fmt: skip
    assert done.returncode == 0, done.stderr
    refresh = oauth.seen[-1].form
    assert refresh["grant_type"] == "refresh_token" and refresh["refresh_token"] == "qwen-refresh"
    assert model_api.recorded[0].headers["authorization"] == "Bearer refreshed"
    after = json.loads((Path(os.environ["HOOKLINE_HOME"]) / "auth.json").read_text())["qwen-cli"]
    assert after["access"] == "refreshed" and after["refresh"] == "qwen-refresh"
    assert after["enterpriseUrl"] == model_api.url


def test_with_an_api_key_the_default_endpoint_is_used(
    model_api: FakeOpenAIServer, project: Path
) -> None:
    model_api.add_text("keyed")
    env = {**os.environ, "QWEN_CLI_API_KEY": "sk-qwen", "QWEN_BASE_URL": model_api.base_url}
    done = run_cli("-p", "hi", "--no-session", "--hook", HOOK, "--model",
                   "qwen-cli:qwen3-coder-plus", cwd=project, env=env)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert model_api.recorded[0].headers["authorization"] == "Bearer sk-qwen"
