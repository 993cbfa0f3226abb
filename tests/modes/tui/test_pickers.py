"""The model picker's rows, ``@``'s path listing and completions, and the fuzzy rule
they share (no terminal needed)."""

from __future__ import annotations

from pathlib import Path

import pytest
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document

from hookline.agent.model_catalog import SCRIPTED_DEFAULT, ModelCatalog
from hookline.modes.tui.files import FileCompleter, FileIndex, at_query, project_paths
from hookline.modes.tui.fuzzy import rank, score
from hookline.modes.tui.model_picker import OTHER, model_choices
from hookline.tools._ripgrep import find_ripgrep


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


def _tree(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / "src" / "deep").mkdir(parents=True)
    (root / "src" / "home.py").write_text("")
    (root / "src" / "deep" / "hooks.py").write_text("")
    (root / "build.log").write_text("")
    (root / ".gitignore").write_text("*.log\n")
    return root


@pytest.mark.parametrize("ripgrep", [True, False], ids=["ripgrep", "python-walk"])
def test_at_lists_paths_gitignore_respected_with_or_without_ripgrep(
    tmp_path: Path, ripgrep: bool
) -> None:
    if ripgrep and find_ripgrep() is None:
        pytest.skip("no rg here")
    root = _tree(tmp_path)
    index = FileIndex(str(root), project_paths(ripgrep=ripgrep))
    assert index.paths() == [".gitignore", "src/", "src/deep/", "src/deep/hooks.py", "src/home.py"]


def test_the_listing_is_capped_kept_per_prompt_and_completed_by_query(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    calls: list[int] = []

    def lister(root: str, limit: int) -> list[str]:
        calls.append(limit)
        return project_paths(ripgrep=False)(root, limit)

    index = FileIndex(str(root), lister, limit=3)
    assert len(index.paths()) == 3 and len(index.paths()) == 3
    assert calls == [3]  # listed once for the prompt
    index.forget()
    index.paths()
    assert calls == [3, 3]
    full = FileIndex(str(root), project_paths(ripgrep=False))
    completer = FileCompleter(lambda: full)
    found = list(completer.get_completions(Document("see @src/ho"), CompleteEvent()))
    assert [(c.text, c.start_position) for c in found][:2] == [
        ("@src/home.py ", -7),
        ("@src/deep/hooks.py ", -7),
    ]
    folder = next(iter(completer.get_completions(Document("@sr"), CompleteEvent())))
    assert folder.text == "@src/"  # a folder: the path goes on, no space
    assert not list(completer.get_completions(Document("mail@src"), CompleteEvent()))
    assert at_query("a @b c") is None and at_query("a @b/c") == "b/c"
