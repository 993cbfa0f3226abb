"""The model picker's rows and the fuzzy rule the pickers and ``@`` completion share."""

from __future__ import annotations

from hookline.agent.model_catalog import SCRIPTED_DEFAULT, ModelCatalog
from hookline.modes.tui.fuzzy import rank, score
from hookline.modes.tui.model_picker import OTHER, model_choices


def _catalog(**env: str) -> ModelCatalog:
    return ModelCatalog(env, installed=lambda provider: True)


def test_rows_group_by_provider_and_mark_the_current_model() -> None:
    catalog = _catalog(ANTHROPIC_API_KEY="k", OPENAI_API_KEY="k")
    choices = model_choices(catalog, "openai:gpt-5", [])
    providers = [spec.partition(":")[0] for spec in choices.specs if spec]
    assert providers == sorted(providers, key=providers.index)  # each provider once, together
    assert providers[0] == "openai"  # the current one's group first
    assert choices.labels[choices.current] == "gpt-5 [openai] ✓"
    assert choices.labels[-1] == OTHER and choices.specs[-1] is None
    assert "claude-sonnet-4-5 [anthropic]" in choices.labels
    assert choices.descriptions["gpt-4.1 [openai]"] == "GPT-4.1 · 1047k context"


def test_only_usable_providers_are_listed_but_models_used_stay() -> None:
    choices = model_choices(_catalog(), "scripted:/a/s.json", ["scripted:/a/other.json"])
    assert choices.specs == ["scripted:/a/s.json", SCRIPTED_DEFAULT, "scripted:/a/other.json", None]
    assert choices.labels[0] == "s.json [scripted] ✓"


def test_fuzzy_matches_characters_in_order_substrings_first() -> None:
    assert score("g5m", "gpt-5-mini [openai]") is not None
    assert score("xyz", "gpt-5-mini") is None
    names = ["src/other/home.py", "src/hooks/guard.py", "docs/howto.md"]
    assert rank("src/ho", names, str) == ["src/hooks/guard.py", "src/other/home.py"]
    assert rank("", names, str) == names
