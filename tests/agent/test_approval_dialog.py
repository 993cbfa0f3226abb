"""The approval dialog: yes; yes, and don't ask again (the narrowest rule); no, and tell."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hookline.agent.gate import PermissionGate
from hookline.agent.rule_suggestions import rules_to_remember
from hookline.core.pipeline import Authorization
from hookline.core.results import ToolCallResult
from hookline.core.runner import HookRunner
from hookline.settings.permission_rules import PermissionRules

from .helpers import ScriptedUI

NPM = {"command": "npm run build"}


def _gate(cwd: Path, ui: ScriptedUI | None = None, **rules: list[str]) -> PermissionGate:
    runner = HookRunner()
    if ui is not None:
        runner.set_ui(ui, True)
    return PermissionGate(runner, cwd=str(cwd), rules=PermissionRules.from_lists(**rules))


async def _ask(gate: PermissionGate, tool: str, input: dict[str, Any]) -> Authorization:
    return await gate.authorize(tool, "c1", input, None)


def _local(cwd: Path) -> Any:
    return json.loads((cwd / ".claude" / "settings.local.json").read_text())


async def test_yes_runs_the_call_once_and_writes_nothing(tmp_path: Path) -> None:
    ui = ScriptedUI(select="Yes")
    gate = _gate(tmp_path, ui)
    assert (await _ask(gate, "bash", NPM)).denial is None
    ((title, options),) = ui.asked
    assert title == "Allow tool call?\nBash needs approval: bash npm run build"
    assert options == [
        "Yes",
        "Yes, and don't ask again for Bash(npm run build)",
        "No, and tell the agent what to do differently",
    ]
    assert not (tmp_path / ".claude").exists()
    assert gate.check("bash", NPM).decision == "ask"


async def test_dont_ask_again_writes_the_rule_says_which_and_where(tmp_path: Path) -> None:
    ui = ScriptedUI(select="Yes, and don't ask again")
    gate = _gate(tmp_path, ui)
    assert (await _ask(gate, "bash", NPM)).denial is None
    assert _local(tmp_path) == {"permissions": {"allow": ["Bash(npm run build)"]}}
    assert ui.notifications == [
        (
            "info",
            "Allowed from now on: Bash(npm run build) (written to .claude/settings.local.json)",
        )
    ]
    assert gate.check("bash", NPM).decision == "allow"  # in force from the next call
    assert gate.check("bash", {"command": "npm run deploy"}).decision == "ask"


async def test_a_rule_that_cannot_be_saved_still_runs_the_call_once(tmp_path: Path) -> None:
    local = tmp_path / ".claude" / "settings.local.json"
    local.parent.mkdir()
    local.write_text("{ not json")
    ui = ScriptedUI(select="Yes, and don't ask again")
    gate = _gate(tmp_path, ui)
    assert (await _ask(gate, "bash", NPM)).denial is None
    ((kind, message),) = ui.notifications
    assert kind == "warning" and message.startswith("Not saved: Bash(npm run build) (")
    assert message.endswith("; allowed this once") and "was not changed" in message
    assert local.read_text() == "{ not json"
    assert gate.check("bash", NPM).decision == "ask"  # nothing put in force either


async def test_no_and_tell_sends_the_text_in_claude_codes_words(tmp_path: Path) -> None:
    ui = ScriptedUI(select="No, and tell", input="  use make instead  ")
    auth = await _ask(_gate(tmp_path, ui), "bash", NPM)
    assert auth.denial is not None and auth.denial.source == "user"
    assert auth.denial.reason == (
        "The user doesn't want to proceed with this tool use. The tool use was rejected "
        "(eg. if it was a file edit, the new_string was NOT written to the file). "
        "To tell you how to proceed, the user said:\nuse make instead"
    )
    assert ui.asked[-1] == ("Tell the agent what to do differently", None)


@pytest.mark.parametrize("ui", [ScriptedUI(), ScriptedUI(select="No, and tell", input=None)])
async def test_esc_is_a_plain_no(tmp_path: Path, ui: ScriptedUI) -> None:
    auth = await _ask(_gate(tmp_path, ui), "bash", NPM)
    assert auth.denial is not None and auth.denial.reason == "Permission denied by the user"
    assert not (tmp_path / ".claude").exists()


async def test_with_no_ui_nothing_is_asked_and_the_hint_names_a_rule(tmp_path: Path) -> None:
    auth = await _ask(_gate(tmp_path), "bash", NPM)
    assert auth.denial is not None and auth.denial.source == "no_ui"
    assert auth.denial.hint is not None and "permissions.allow" in auth.denial.hint


async def test_dont_ask_again_is_not_offered_when_no_rule_would_silence_the_prompt(
    tmp_path: Path,
) -> None:
    ui = ScriptedUI(select="Yes")
    gate = _gate(tmp_path, ui, ask=["Bash(npm run *)"])
    await _ask(gate, "bash", NPM)  # an ask rule beats any allow rule
    await gate.authorize("mcp__gh__issue", "c2", {}, ToolCallResult(permission="ask"))
    await _ask(gate, "bash", {"command": "$CMD"})
    for _, options in ui.asked:
        assert options == ["Yes", "No, and tell the agent what to do differently"]


@pytest.mark.parametrize(
    ("tool", "input", "rules"),
    [
        ("bash", NPM, ["Bash(npm run build)"]),
        ("bash", {"command": "npm run build -- --watch"}, ["Bash(npm run build *)"]),
        ("bash", {"command": "git push origin main"}, ["Bash(git push *)"]),
        ("bash", {"command": "git status"}, []),  # read-only: it runs unasked already
        ("bash", {"command": "ls | grep x && touch y"}, ["Bash(touch y)"]),
        ("bash", {"command": "npm test | grep x && touch y"}, ["Bash(npm test)", "Bash(touch y)"]),
        ("bash", {"command": "python -c 'x'"}, []),  # inline code: not read, not offered
        ("bash", {"command": "$CMD"}, []),  # known only when it runs
        ("bash", {"command": "echo ok > $OUT"}, []),
        ("bash", {"command": "sudo rm x"}, []),
        ("bash", {"command": "uv run python x.py"}, ["Bash(uv run python x.py)"]),
        ("bash", {"command": "rm *.pyc"}, ["Bash(rm \\*.pyc)"]),
        ("write", {"path": "src/a/b.py", "content": ""}, ["Edit(src/a/**)"]),
        ("edit", {"path": "NOTES.md", "old_text": "a", "new_text": "b"}, ["Edit(./NOTES.md)"]),
        ("mcp__gh__create_issue", {"title": "x"}, ["mcp__gh__create_issue"]),
    ],
)
def test_the_rule_offered_for_typical_calls(
    tmp_path: Path, tool: str, input: dict[str, Any], rules: list[str]
) -> None:
    gate = _gate(tmp_path)
    assert rules_to_remember(gate, tool, input) == rules
    for rule in rules:
        gate.rules.add("allow", rule, file="x", scope="local", root=str(tmp_path))
    if rules:
        assert gate.check(tool, input).decision == "allow"


def test_only_the_commands_no_rule_allows_get_one(tmp_path: Path) -> None:
    gate = _gate(tmp_path, allow=["Bash(ls)"])
    line = {"command": "ls && touch y"}
    assert rules_to_remember(gate, "bash", line) == ["Bash(touch y)"]


def test_a_file_outside_the_project_gets_a_rule_for_itself(tmp_path: Path) -> None:
    project = tmp_path / "p"
    project.mkdir()
    outside = tmp_path / "notes.txt"
    rules = rules_to_remember(_gate(project), "write", {"path": str(outside), "content": ""})
    assert rules == [f"Edit(/{outside})"]
