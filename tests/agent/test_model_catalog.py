"""The model catalog: which models are on offer, what each is, which thinking levels it takes."""

from __future__ import annotations

from hookline.agent.model_catalog import SCRIPTED_DEFAULT, ModelCatalog, describe


def _specs(catalog: ModelCatalog, current: str = "scripted:/s.json") -> list[str]:
    return [m.spec for m in catalog.available(current)]


def test_known_models_carry_their_facts() -> None:
    opus = describe("opus")  # Claude Code's alias
    assert (opus.spec, opus.context_window, opus.reasoning) == (
        "anthropic:claude-opus-4-5",
        200_000,
        True,
    )
    assert describe("openai:gpt-4.1").thinking_levels() == ("off",)
    assert describe("openai:gpt-5.2").thinking_levels()[-1] == "xhigh"
    assert "xhigh" not in describe("openai:gpt-5").thinking_levels()


def test_unknown_models_are_described_by_their_family() -> None:
    assert describe("openai:qwen3-coder").reasoning is True  # a local server's model
    assert describe("openai:gpt-4o-mini").reasoning is False
    local = describe("openai:qwen3-coder", "http://127.0.0.1:9/v1").to_pi()
    assert (local["baseUrl"], local["api"]) == ("http://127.0.0.1:9/v1", "openai-completions")
    script = describe("scripted:/tmp/turns.yaml")
    assert (script.id, script.name) == ("/tmp/turns.yaml", "turns.yaml")


def test_a_provider_needs_its_key_and_its_sdk() -> None:
    installed = ModelCatalog({"ANTHROPIC_API_KEY": "k"}, installed=lambda module: True)
    specs = _specs(installed)
    assert specs[:2] == ["scripted:/s.json", SCRIPTED_DEFAULT]
    assert "anthropic:claude-haiku-4-5" in specs
    assert not [s for s in specs if s.startswith("openai:")]
    missing_sdk = ModelCatalog({"OPENAI_API_KEY": "k"}, installed=lambda module: False)
    assert _specs(missing_sdk) == ["scripted:/s.json", SCRIPTED_DEFAULT]
    no_sdk_needed = ModelCatalog({"ANTHROPIC_API_KEY": "k"}, installed=lambda module: False)
    assert "anthropic:claude-haiku-4-5" in _specs(no_sdk_needed)  # spoken to over httpx2


def test_a_base_url_makes_openai_usable_without_a_key() -> None:
    catalog = ModelCatalog({}, "openai:local-coder", "http://127.0.0.1:9/v1", lambda m: True)
    specs = _specs(catalog)
    assert specs[1] == "openai:local-coder"  # the settings' model, after the current one
    assert "openai:gpt-5" in specs
    assert catalog.entry("openai:gpt-5").to_pi()["baseUrl"] == "http://127.0.0.1:9/v1"


def test_bad_or_unusable_names_are_left_out_and_nothing_repeats() -> None:
    env = {"HOOKLINE_MODEL": "nonsense", "OPENAI_API_KEY": ""}
    catalog = ModelCatalog(env, "openai:gpt-5", installed=lambda m: True)
    assert _specs(catalog) == ["scripted:/s.json", SCRIPTED_DEFAULT]
    # the model in use is listed even when it could not be built again
    assert _specs(catalog, "openai:gpt-5") == ["openai:gpt-5", SCRIPTED_DEFAULT]
    assert _specs(catalog, SCRIPTED_DEFAULT) == [SCRIPTED_DEFAULT]
