"""The approval dialog in the terminal app: don't ask again, and no with a word to the model."""

from __future__ import annotations

import json
from pathlib import Path

from .helpers import app, bash


def test_dont_ask_again_writes_the_rule_and_the_next_call_is_not_asked(tmp_path: Path) -> None:
    turns = [bash("touch built.txt"), "built once", bash("touch built.txt"), "built twice"]
    with app(tmp_path, turns) as pane:
        project = tmp_path / "project"
        pane.ready()
        pane.type("build it")
        pane.keys("Enter")
        pane.wait_all(
            [
                "Allow tool call?",
                "❯ Yes",
                "Yes, and don't ask again for Bash(touch built.txt)",
                "No, and tell the agent what to do differently",
            ]
        )
        pane.keys("2")
        pane.wait_flat(
            [
                "Allowed from now on: Bash(touch built.txt) "
                "(written to .claude/settings.local.json)",
                "built once",
            ]
        )
        local = json.loads((project / ".claude" / "settings.local.json").read_text())
        assert local == {"permissions": {"allow": ["Bash(touch built.txt)"]}}
        (project / "built.txt").unlink()
        pane.type("again")
        pane.keys("Enter")
        # a dialog would hold the turn: the reply shows only because none was asked
        pane.wait_flat(["built twice"])
    assert (project / "built.txt").exists()


def test_no_and_tell_sends_the_text_to_the_model(tmp_path: Path) -> None:
    said = "To tell you how to proceed, the user said:\nuse make clean"
    turns = [
        bash("rm -rf build"),
        {"text": "switching to make clean", "expect_tool_result_contains": said},
    ]
    with app(tmp_path, turns) as pane:
        (tmp_path / "project" / "build").mkdir(parents=True)
        pane.ready()
        pane.type("clean up")
        pane.keys("Enter")
        pane.wait_all(["Allow tool call?", "rm -rf build", "❯ Yes"])
        pane.keys("3")
        pane.wait_for("Tell the agent what to do differently")
        pane.type("use make clean")
        pane.keys("Enter")
        pane.wait_flat(["switching to make clean"])
    assert (tmp_path / "project" / "build").is_dir()
