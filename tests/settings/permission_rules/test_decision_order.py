"""deny > ask > allow, and what each mode adds; deny and ask rules hold in every mode."""

from __future__ import annotations

from pathlib import Path

import pytest

from hookline.core.vocabulary import PERMISSION_MODES

from .helpers import decide

READ = ("read", {"path": "notes.txt"})


@pytest.mark.parametrize("mode", PERMISSION_MODES)
def test_deny_beats_ask_beats_allow_in_every_mode(tmp_path: Path, mode: str) -> None:
    tool, args = READ
    everything = decide(mode, tool, args, tmp_path, allow=["Read"], ask=["Read"], deny=["Read"])
    assert everything.decision == "deny"
    assert everything.rule is not None and everything.rule.behavior == "deny"
    ask_and_allow = decide(mode, tool, args, tmp_path, allow=["Read"], ask=["Read(notes.txt)"])
    assert ask_and_allow.decision == ("deny" if mode == "dontAsk" else "ask")
    assert ask_and_allow.rule is not None and ask_and_allow.rule.text == "Read(notes.txt)"


def test_an_ask_rule_still_asks_in_bypass_mode(tmp_path: Path) -> None:
    check = decide("bypassPermissions", "write", {"path": "a"}, tmp_path, ask=["Edit"])
    assert check.decision == "ask"
    assert check.reason == "rule Edit (permissions.ask[0]) asks"


def test_dont_ask_denies_what_would_ask(tmp_path: Path) -> None:
    check = decide("dontAsk", "write", {"path": "a"}, tmp_path)
    assert check.decision == "deny" and "dontAsk" in check.reason
    assert decide("dontAsk", "write", {"path": "a"}, tmp_path, allow=["Edit"]).decision == "allow"


def test_plan_mode_runs_only_read_only_tools(tmp_path: Path) -> None:
    assert decide("plan", "write", {"path": "a"}, tmp_path, allow=["Edit"]).decision == "deny"
    assert decide("plan", "read", {"path": "a"}, tmp_path).decision == "allow"


def test_the_task_list_is_never_asked_about_but_can_be_denied(tmp_path: Path) -> None:
    todos = {"todos": []}
    for mode in PERMISSION_MODES:
        assert decide(mode, "todo_write", todos, tmp_path).decision == "allow"
    assert decide("default", "todo_write", todos, tmp_path, deny=["todo_write"]).decision == "deny"


def test_read_only_tools_run_unasked_and_edits_ask_by_default(tmp_path: Path) -> None:
    assert decide("default", "grep", {"pattern": "x"}, tmp_path).decision == "allow"
    check = decide("default", "edit", {"path": "a"}, tmp_path)
    assert (check.decision, check.reason) == ("ask", "Edit needs approval")


def test_a_bare_read_rule_covers_every_tool_that_reads(tmp_path: Path) -> None:
    for tool, args in [
        ("read", {"path": "a"}),
        ("grep", {"pattern": "x"}),
        ("find", {"pattern": "*"}),
        ("ls", {}),
    ]:
        assert decide("bypassPermissions", tool, args, tmp_path, deny=["Read"]).decision == "deny"
    assert decide(
        "bypassPermissions", "bash", {"command": "ls"}, tmp_path, deny=["Read"]
    ).decision == ("allow")


def test_a_bare_edit_rule_covers_every_tool_that_writes(tmp_path: Path) -> None:
    for tool, args in [
        ("write", {"path": "a"}),
        ("edit", {"path": "a"}),
        ("bash", {"command": "echo hi > a"}),
        ("bash", {"command": "echo hi > $F"}),
    ]:
        assert decide("bypassPermissions", tool, args, tmp_path, deny=["Edit"]).decision == "deny"
    assert decide(
        "bypassPermissions", "bash", {"command": "echo hi"}, tmp_path, deny=["Edit"]
    ).decision == ("allow")
