"""Rules written while the agent runs: in force at once, on disk, and never half-made."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hookline.agent.gate import PermissionGate
from hookline.core.runner import HookRunner
from hookline.settings.local_settings import LocalSettingsError
from hookline.settings.permission_rules import PermissionRuleError


def _gate(cwd: Path) -> PermissionGate:
    return PermissionGate(HookRunner(), cwd=str(cwd))


def test_a_remembered_rule_allows_the_next_call_and_is_written(tmp_path: Path) -> None:
    gate = _gate(tmp_path)
    call = {"command": "npm run build"}
    assert gate.check("bash", call).decision == "ask"
    path = gate.remember("Bash(npm run *)")
    assert gate.check("bash", call).decision == "allow"
    assert gate.check("bash", {"command": "npm publish"}).decision == "ask"
    assert json.loads(path.read_text()) == {"permissions": {"allow": ["Bash(npm run *)"]}}
    rule = gate.check("bash", call).rule
    assert rule is not None and rule.origin.file == str(path) and rule.origin.scope == "local"


def test_forget_takes_the_rule_out_of_force_and_off_disk(tmp_path: Path) -> None:
    gate = _gate(tmp_path)
    path = gate.remember("Edit(src/**)")
    assert gate.check("write", {"path": "src/a.py", "content": ""}).decision == "allow"
    assert gate.forget("Edit(src/**)")
    assert gate.check("write", {"path": "src/a.py", "content": ""}).decision == "ask"
    assert json.loads(path.read_text()) == {"permissions": {"allow": []}}
    assert not gate.forget("Edit(src/**)")


def test_a_bad_rule_is_neither_written_nor_in_force(tmp_path: Path) -> None:
    gate = _gate(tmp_path)
    with pytest.raises(PermissionRuleError):
        gate.remember("Bash(unclosed")
    assert not (tmp_path / ".claude").exists()
    assert gate.rules.allow == []


def test_a_file_that_cannot_be_written_leaves_no_rule_in_force(tmp_path: Path) -> None:
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "settings.local.json").write_text("{broken")
    gate = _gate(tmp_path)
    with pytest.raises(LocalSettingsError):
        gate.remember("Bash(ls)")
    assert gate.rules.allow == []
