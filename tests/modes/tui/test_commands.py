"""The session commands in the real app: /model, /compact, /branch, /tree, /fork."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.modes.helpers import write_script

from .helpers import app
from .pane import Pane


def test_model_switches_through_the_picker_and_by_argument(tmp_path: Path) -> None:
    other = write_script(tmp_path / "other.json", ["from the other model"])
    with app(tmp_path, ["from the first model"]) as pane:
        pane.ready()
        pane.type("/model")
        pane.keys("Enter")
        # the current model marked, the embedded one listed, and other…
        pane.wait_all(
            ["Select a model", "script.json [scripted] ✓", "default_script.yaml", "other…"]
        )
        pane.type("oth")  # typing filters the list
        pane.wait_for(lambda s: "other…" in s and "script.json [scripted]" not in s)
        pane.keys("Enter")
        pane.wait_for("Model spec")
        pane.type(other)
        pane.keys("Enter")
        pane.wait_for("ℹ model:", whole=True)
        pane.wait_for("other.json · ")  # the footer shows the new model
        pane.type("hi")
        pane.keys("Enter")
        pane.wait_for("from the other model", whole=True)
        pane.type("/model scripted:/no/such/file.json")
        pane.keys("Enter")
        pane.wait_for("/no/such/file.json: file not found", whole=True)
        pane.wait_for("other.json · ")  # a bad spec changes nothing


def test_model_picker_lists_the_catalog_and_switches_to_an_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a provider's key set, its known models are listed under it; picking one
    switches the footer (the provider is built, no request is made)."""
    pytest.importorskip("openai")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    with app(tmp_path, ["first"]) as pane:
        pane.ready()
        pane.type("/model")
        pane.keys("Enter")
        pane.wait_all(["gpt-5-mini [openai]", "GPT-5 Mini · 400k context"])
        pane.type("gpt5mini")
        pane.wait_for("❯ gpt-5-mini [openai]")
        pane.keys("Enter")
        pane.wait_for("ℹ model: openai:gpt-5-mini", whole=True)
        pane.wait_for("gpt-5-mini · ")  # the footer


def test_compact_branch_and_tree(tmp_path: Path) -> None:
    turns = ["answer one", "answer two", "answer three", "answer four"]
    with app(tmp_path, turns) as pane:
        pane.ready()
        for prompt, answer in (("question one", "answer one"), ("question two", "answer two")):
            pane.type(prompt)
            pane.keys("Enter")
            pane.wait_for(answer)
        pane.wait_for("4 msgs")
        pane.type("/branch")
        pane.keys("Enter")
        pane.wait_all(["Branch from before which message?", "1. you: question one"])
        pane.keys("Down", "Enter")  # before "question two"
        pane.wait_for("branched", whole=True)
        pane.wait_for("2 msgs")
        pane.type("/tree")
        pane.keys("Enter")
        pane.wait_all(["Go to which entry?", "assistant: answer two"])
        pane.keys("Escape")
        pane.wait_for(lambda s: "Go to which entry?" not in s)
        pane.type("/compact keep it short")
        pane.keys("Enter")
        pane.wait_for("compact", whole=True)


def test_fork_copies_the_conversation_into_a_new_session(tmp_path: Path) -> None:
    model = write_script(tmp_path / "script.json", ["forked answer"])
    project = tmp_path / "project"
    project.mkdir()
    with Pane(tmp_path, "--model", model, cwd=project) as pane:
        pane.ready()
        pane.type("before the fork")
        pane.keys("Enter")
        pane.wait_for("forked answer")
        pane.type("/fork")
        pane.keys("Enter")
        screen = pane.wait_for("forked into", whole=True)
        assert ".jsonl" in screen
    sessions = list((Path.home() / ".hookline" / "sessions").rglob("*.jsonl"))
    assert len(sessions) == 2


def test_tree_shows_bookmarks_set_by_a_hook(tmp_path: Path) -> None:
    bookmark = Path(__file__).resolve().parents[3] / "examples" / "pi" / "bookmark.py"
    with app(tmp_path, ["answer one", "answer two"], None, "--hook", str(bookmark)) as pane:
        pane.ready()
        pane.type("question one")
        pane.keys("Enter")
        pane.wait_for("answer one")
        pane.type("/bookmark good state")
        pane.keys("Enter")
        pane.wait_for("Bookmarked as: good state", whole=True)
        pane.type("/tree")
        pane.keys("Enter")
        pane.wait_all(["Go to which entry?", "assistant: answer one  [good state]"])
        pane.keys("Escape")
