"""create_provider specs, their errors, and the lazy SDK imports."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from hookline.agent.provider import ProviderError
from hookline.agent.providers import (
    AnthropicProvider,
    OpenAIProvider,
    ProviderSpecError,
    ScriptedProvider,
    ScriptError,
    create_provider,
)


def test_scripted_path_is_relative_to_cwd(tmp_path: Path) -> None:
    (tmp_path / "s.yaml").write_text("turns: [hi]\n")
    provider = create_provider("scripted:s.yaml", cwd=tmp_path)
    assert isinstance(provider, ScriptedProvider)
    assert provider.model_id == f"scripted:{tmp_path / 's.yaml'}"
    absolute = create_provider(f"scripted:{tmp_path / 's.yaml'}", cwd="/nonexistent")
    assert isinstance(absolute, ScriptedProvider)


def test_scripted_bad_file_raises_script_error(tmp_path: Path) -> None:
    with pytest.raises(ScriptError, match="file not found"):
        create_provider("scripted:missing.yaml", cwd=tmp_path)


def test_anthropic_and_openai(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "k")
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    anthropic = create_provider("anthropic:claude-x")
    assert isinstance(anthropic, AnthropicProvider) and anthropic.model_id == "anthropic:claude-x"
    openai = create_provider("openai:gpt-x")
    assert isinstance(openai, OpenAIProvider) and openai.model_id == "openai:gpt-x"


def test_openai_with_base_url_needs_no_key() -> None:
    provider = create_provider("openai:llama", base_url="http://127.0.0.1:1/v1")
    assert provider.model_id == "openai:llama"


def test_missing_keys_are_provider_errors() -> None:
    with pytest.raises(ProviderError, match="ANTHROPIC_API_KEY"):
        create_provider("anthropic:claude-x")
    with pytest.raises(ProviderError, match="OPENAI_API_KEY"):
        create_provider("openai:gpt-x")


@pytest.mark.parametrize(
    "spec", ["", "claude", "gemini:pro", "anthropic:", "scripted:", "openai:  ", ":x"]
)
def test_bad_specs_list_the_valid_forms(spec: str) -> None:
    with pytest.raises(ProviderSpecError) as err:
        create_provider(spec)
    message = str(err.value)
    assert "\n" not in message
    assert "scripted:FILE, anthropic:NAME, openai:NAME or PROVIDER:NAME" in message
    assert repr(spec) in message


def test_scripted_run_imports_no_sdk(tmp_path: Path) -> None:
    script = tmp_path / "s.yaml"
    script.write_text("turns: [hi]\n")
    code = (
        "import sys, asyncio\n"
        "import hookline.agent.providers.scripted\n"
        "from hookline.agent.providers import create_provider\n"
        "from hookline.agent.provider import ModelRequest\n"
        f"p = create_provider('scripted:{script}')\n"
        "asyncio.run(p.complete(ModelRequest('s', [])))\n"
        "print(sorted(m for m in ('anthropic', 'openai', 'httpx2', 'httpx') if m in sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.strip() == "[]"
