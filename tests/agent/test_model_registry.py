"""``ctx.model_registry``: the catalog's models, their credentials as the providers find them."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hookline.agent.model_catalog import SCRIPTED_DEFAULT, ModelCatalog
from hookline.agent.model_registry import ModelRegistry
from hookline.agent.providers.scripted import ScriptedProvider
from hookline.core.context import HookContext
from hookline.core.host import ModelInfo

from .conftest import MakeAgent

KEYS = ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "OPENAI_API_KEY", "HOOKLINE_MODEL")


@pytest.fixture(autouse=True)
def no_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for key in KEYS:
        monkeypatch.delenv(key, raising=False)


def registry(base_url: str | None = None) -> ModelRegistry:
    return ModelRegistry(ModelCatalog(os.environ, base_url=base_url))


def test_the_key_comes_from_the_providers_environment_variable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-oai")
    models = registry()
    sonnet = models.find("anthropic", "claude-sonnet-4-5")
    assert sonnet is not None and sonnet.name == "Claude Sonnet 4.5"
    assert models.get_api_key(sonnet) == "sk-ant"
    assert models.get_api_key("openai:gpt-5") == "sk-oai"
    assert models.get_api_key_for_provider("openai") == "sk-oai"
    auth = models.get_api_key_and_headers(sonnet)
    assert auth.ok and auth.api_key == "sk-ant" and auth.error is None


def test_a_missing_key_says_which_variable_to_set(monkeypatch: pytest.MonkeyPatch) -> None:
    models = registry()
    auth = models.get_api_key_and_headers("anthropic:claude-haiku-4-5")
    assert not auth.ok and auth.api_key is None
    assert auth.error is not None and "set the ANTHROPIC_API_KEY environment variable" in auth.error
    assert models.get_api_key("anthropic:claude-haiku-4-5") is None
    assert not models.has_configured_auth("openai:gpt-5")
    error = models.get_api_key_and_headers("openai:gpt-5").error
    assert error is not None and "OPENAI_API_KEY" in error


def test_a_bearer_token_is_a_header_not_a_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_AUTH_TOKEN", "tok")
    auth = registry().get_api_key_and_headers("anthropic:claude-opus-4-5")
    assert auth.ok and auth.api_key is None
    assert auth.headers == {"authorization": "Bearer tok"}


def test_a_local_server_needs_no_openai_key(monkeypatch: pytest.MonkeyPatch) -> None:
    models = registry(base_url="http://127.0.0.1:9/v1")
    local = models.resolve("openai:llama3")
    assert local.base_url == "http://127.0.0.1:9/v1"
    assert models.get_api_key_and_headers(local).ok
    assert [m.spec for m in models.get_available() if m.provider == "openai"][:1] == [
        "openai:gpt-5"
    ]


def test_available_lists_only_what_can_be_called(monkeypatch: pytest.MonkeyPatch) -> None:
    models = registry()
    everything = {m.spec for m in models.get_all()}
    available = {m.provider for m in models.get_available()}
    assert "anthropic:claude-sonnet-4-5" in everything and "openai:gpt-5" in everything
    assert available == {"scripted"}  # no key set: only the scripted model
    assert models.find("google", "gemini-2.5-flash") is None
    assert models.has_configured_auth(models.get_available()[0])


async def test_a_hook_reads_the_sessions_registry(make_agent: MakeAgent) -> None:
    h = await make_agent(["hi"])
    models = h.runner.context.model_registry
    info = h.runner.context.model_info
    assert isinstance(info, ModelInfo)
    current = models.find(info.provider, info.id)
    assert current is not None and current.spec == h.provider.model_id
    assert models.get_api_key_and_headers(current).ok  # a scripted model needs no key
    assert isinstance(models, ModelRegistry)
    assert models.provider(info) is h.agent.provider  # the session's model: the agent's own


def test_without_an_agent_the_registry_says_it_needs_one() -> None:
    with pytest.raises(RuntimeError, match="model_registry needs an agent"):
        _ = HookContext(".").model_registry


def test_another_scripted_model_is_built_once_and_kept(tmp_path: Path) -> None:
    script = tmp_path / "s.json"
    script.write_text('{"turns": ["one", "two"]}')
    models = ModelRegistry(ModelCatalog({}), cwd=str(tmp_path))
    first = models.provider("scripted:s.json")
    assert isinstance(first, ScriptedProvider)
    assert models.provider("scripted:s.json") is first


async def test_a_registry_entry_is_a_model_to_switch_to(make_agent: MakeAgent) -> None:
    h = await make_agent(["hi"])
    ctx = h.runner.context
    scripted = ctx.model_registry.find("scripted", SCRIPTED_DEFAULT.partition(":")[2])
    assert scripted is not None
    assert await ctx.set_model(scripted) is True
    assert h.agent.provider.model_id == SCRIPTED_DEFAULT
