"""Going on without an invalid settings file: only what restricts of it still applies."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hookline.settings import load_settings

from .helpers import WriteJson

INVALID = {
    "permissions": {
        "defaultMode": "paranoid",
        "deny": ["Bash(rm *)"],
        "ask": ["Bash(git push *)"],
        "allow": ["Bash(echo *)"],
    },
    "hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "true"}]}]},
    "env": {"A": "1"},
}


def test_an_invalid_file_is_an_error_that_may_be_set_aside(
    project: Path, managed_paths: list[Path], write_json: WriteJson
) -> None:
    path = write_json(project / ".claude" / "settings.json", INVALID)
    loaded = load_settings(project, managed_paths=managed_paths)
    (file,) = [f for f in loaded.files if f.path == path]
    assert loaded.errors and file.settings is None
    assert file.may_set_aside and loaded.stops == []
    assert file.problems == [
        "permissions.defaultMode: unknown mode 'paranoid' (modes: default, acceptEdits, plan, "
        "bypassPermissions, dontAsk) (it restricts the agent, so it must be valid)"
    ]


def test_set_aside_it_keeps_its_deny_and_ask_rules_only(
    project: Path, managed_paths: list[Path], write_json: WriteJson
) -> None:
    path = write_json(project / ".claude" / "settings.json", INVALID)
    loaded = load_settings(project, managed_paths=managed_paths, set_aside={path})
    assert loaded.errors == []
    (file,) = [f for f in loaded.files if f.path == path]
    assert file.set_aside and file.problems
    permissions = loaded.merged.permissions
    assert permissions is not None
    assert permissions.deny == ["Bash(rm *)"] and permissions.ask == ["Bash(git push *)"]
    assert not permissions.allow and permissions.default_mode is None
    assert loaded.command_hooks() == [] and loaded.merged.env is None
    assert any("going on without this file" in w for w in loaded.warnings)


def test_a_valid_file_named_to_set_aside_is_used_whole(
    project: Path, managed_paths: list[Path], write_json: WriteJson
) -> None:
    path = write_json(project / ".claude" / "settings.json", {"permissions": {"allow": ["Read"]}})
    loaded = load_settings(project, managed_paths=managed_paths, set_aside={path})
    (file,) = [f for f in loaded.files if f.path == path]
    assert not file.set_aside
    assert loaded.merged.permissions is not None and loaded.merged.permissions.allow == ["Read"]


def test_a_file_that_is_not_json_or_is_managed_cannot_be_set_aside(
    project: Path, managed_paths: list[Path], write_json: WriteJson
) -> None:
    broken = write_json(project / ".claude" / "settings.json", '{"permissions": ')
    managed = write_json(managed_paths[0], INVALID)
    loaded = load_settings(project, managed_paths=managed_paths, set_aside={broken, managed})
    assert [f.path for f in loaded.stops] == [broken, managed]
    assert len(loaded.errors) == 2


@pytest.mark.parametrize(
    "permissions",
    [
        {"deny": ["Bash(rm *)", 42]},
        {"deny": "Bash(rm *)"},
        {"deny": {"0": "Bash(rm *)"}},
        {"deny": [["Bash(rm *)"]]},
        {"ask": ["Bash(git push *)", None]},
        {"deny": ["Bash(rm *)"], "ask": "Bash(git push *)"},
        {"disableBypassPermissionsMode": "disabled"},
        ["Bash(rm *)"],
    ],
)
def test_a_file_whose_rules_are_what_is_invalid_cannot_be_set_aside(
    project: Path, managed_paths: list[Path], write_json: WriteJson, permissions: Any
) -> None:
    # going on without it would drop every rule of the invalid key, the valid ones too
    path = write_json(project / ".claude" / "settings.json", {"permissions": permissions})
    loaded = load_settings(project, managed_paths=managed_paths, set_aside={path})
    assert [f.path for f in loaded.stops] == [path] and loaded.errors


def test_set_aside_its_hooks_and_allow_rules_do_not_load(
    project: Path, managed_paths: list[Path], write_json: WriteJson
) -> None:
    invalid = {
        "permissions": {"deny": ["Bash(rm *)"], "allow": ["Bash(*)"], "defaultMode": "Plan"},
        "hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "touch x"}]}]},
        "env": {"BASH_ENV": "x"},
        "apiKeyHelper": "touch x",
        "statusLine": {"type": "command", "command": "touch x"},
        "sandbox": {"enabled": False},
    }
    path = write_json(project / ".claude" / "settings.json", invalid)
    loaded = load_settings(project, managed_paths=managed_paths, set_aside={path})
    merged = loaded.merged
    assert merged.permissions is not None and merged.permissions.deny == ["Bash(rm *)"]
    assert not merged.permissions.allow and loaded.command_hooks() == []
    assert merged.env is None and merged.sandbox is None
    assert merged.model_dump(exclude_unset=True).keys() == {"permissions"}
