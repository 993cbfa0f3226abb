"""Which model the agent uses: ``--model`` > ``HOOKLINE_MODEL`` > settings > an API key > scripted.

Each test sets or unsets the variables it depends on (the shared fixture removes the
API keys and ``HOOKLINE_MODEL``), builds the agent as the CLI does and checks the
provider it got, and what stderr said.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from hookline.agent.model_choice import normalize_spec
from hookline.agent.setup import DEFAULT_MODEL, AgentOptions, SetupError, build_agent


def _script(path: Path, text: str) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"turns": [text]}))
    return f"scripted:{path}"


def _settings(path: Path, data: dict[str, object]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))


async def _model(project: Path, **options: object) -> tuple[str, str]:
    err = io.StringIO()
    bundle = await build_agent(
        AgentOptions(cwd=str(project), no_session=True, **options), stderr=err
    )  # type: ignore[arg-type]
    return bundle.agent.provider.model_id, err.getvalue()


async def test_settings_model_is_used(project: Path, isolated_home: Path, tmp_path: Path) -> None:
    spec = _script(tmp_path / "settings-script.json", "from settings")
    _settings(isolated_home / ".claude" / "settings.json", {"model": spec})
    model, _ = await _model(project)
    assert model == spec


async def test_env_beats_settings_and_flag_beats_env(
    project: Path, isolated_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _settings(
        isolated_home / ".claude" / "settings.json",
        {"model": _script(tmp_path / "s.json", "settings")},
    )
    env_spec = _script(tmp_path / "e.json", "env")
    monkeypatch.setenv("HOOKLINE_MODEL", env_spec)
    assert (await _model(project))[0] == env_spec
    flag_spec = _script(tmp_path / "f.json", "flag")
    assert (await _model(project, model=flag_spec))[0] == flag_spec


async def test_untrusted_project_cannot_choose_the_model(project: Path, tmp_path: Path) -> None:
    _settings(project / ".claude" / "settings.json", {"model": _script(tmp_path / "p.json", "x")})
    model, err = await _model(project)
    assert model == DEFAULT_MODEL
    assert "model" in err  # listed among what the untrusted project may not set


async def test_trusted_project_settings_model(project: Path, tmp_path: Path) -> None:
    spec = _script(tmp_path / "p.json", "x")
    _settings(project / ".claude" / "settings.json", {"model": spec})
    assert (await _model(project, trust_project=True))[0] == spec


async def test_bare_claude_names_mean_anthropic(
    project: Path, isolated_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
    _settings(isolated_home / ".claude" / "settings.json", {"model": "claude-sonnet-4-5"})
    assert (await _model(project))[0] == "anthropic:claude-sonnet-4-5"
    assert (await _model(project, model="haiku"))[0] == "anthropic:claude-haiku-4-5"
    assert normalize_spec("opus") == "anthropic:claude-opus-4-5"
    assert normalize_spec("openai:gpt-x") == "openai:gpt-x"
    assert normalize_spec("gpt-x") == "gpt-x"  # not Claude's: left for the spec error


async def test_bad_settings_model_names_the_file(project: Path, isolated_home: Path) -> None:
    settings = isolated_home / ".claude" / "settings.json"
    _settings(settings, {"model": "gpt-x"})
    with pytest.raises(SetupError, match=f"model in {settings}: invalid model 'gpt-x'"):
        await _model(project)


async def test_api_key_picks_that_providers_default_and_says_so(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    model, err = await _model(project)
    assert model == "openai:gpt-5"
    assert "OPENAI_API_KEY is set, so using openai:gpt-5" in err
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
    model, err = await _model(project)
    assert model == "anthropic:claude-sonnet-4-5"
    assert "ANTHROPIC_API_KEY is set" in err


async def test_no_key_no_model_is_the_scripted_default(project: Path) -> None:
    model, err = await _model(project)
    assert model == DEFAULT_MODEL
    assert "using" not in err


@pytest.mark.parametrize(("interactive", "in_thread"), [(True, True), (False, False)])
async def test_only_the_terminal_app_imports_the_sdk_in_a_thread(
    project: Path, monkeypatch: pytest.MonkeyPatch, interactive: bool, in_thread: bool
) -> None:
    """The app has keys to read while the SDK loads; a ``-p`` run goes straight to its request."""
    from hookline.agent.providers import anthropic_provider

    asked: list[bool] = []

    class Recording(anthropic_provider.SdkImport):
        def __init__(self, module: str, *, in_thread: bool) -> None:
            asked.append(in_thread)
            super().__init__(module, in_thread=in_thread)

    monkeypatch.setattr(anthropic_provider, "SdkImport", Recording)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test")
    model, _ = await _model(project, model="anthropic:claude-test", interactive=interactive)
    assert model == "anthropic:claude-test"
    assert asked == [in_thread]
