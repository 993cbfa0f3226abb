"""Merge rules across real settings files, and how broken files are reported (never raised)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hookline.settings import (
    Settings,
    SettingsError,
    load_settings,
)

from .helpers import WriteJson
from .helpers import sources as _sources

# --- merge rules ----------------------------------------------------------------------


def test_objects_deep_merge_lists_union_scalars_override(
    isolated_home: Path, project: Path, write_json: WriteJson
) -> None:
    src = _sources(isolated_home, project)
    write_json(
        src["claude_user"],
        {
            "permissions": {"allow": ["Bash(ls)", "Read"], "defaultMode": "plan"},
            "env": {"A": "1", "B": "1"},
            "model": "user-model",
            "custom": {"nested": {"keep": 1, "over": 1}, "tags": [1, {"x": 1}]},
        },
    )
    write_json(
        src["claude_project"],
        {
            "permissions": {"allow": ["Read", "Edit"], "deny": ["Bash(rm)"]},
            "env": {"B": "2"},
            "custom": {"nested": {"over": 2}, "tags": [{"x": 1}, True, 2]},
        },
    )
    merged = load_settings(project, managed_paths=[]).merged
    assert merged.permissions is not None
    assert merged.permissions.allow == ["Bash(ls)", "Read", "Edit"]  # union, first order
    assert merged.permissions.deny == ["Bash(rm)"]
    assert merged.permissions.default_mode == "plan"  # untouched keys survive
    assert merged.env == {"A": "1", "B": "2"}
    assert merged.model == "user-model"
    # 1 and true are different JSON values: both kept.
    assert merged.extra_keys() == {
        "custom": {"nested": {"keep": 1, "over": 2}, "tags": [1, {"x": 1}, True, 2]}
    }


def test_later_value_of_another_type_replaces(
    isolated_home: Path, project: Path, write_json: WriteJson
) -> None:
    src = _sources(isolated_home, project)
    write_json(src["claude_user"], {"x": {"a": 1}, "y": [1], "z": 1})
    write_json(src["local"], {"x": [1], "y": "s", "z": None})
    merged = load_settings(project, managed_paths=[]).merged
    assert merged.extra_keys() == {"x": [1], "y": "s", "z": None}


def test_snake_case_and_camel_case_keys_merge_as_one(
    isolated_home: Path, project: Path, write_json: WriteJson
) -> None:
    src = _sources(isolated_home, project)
    write_json(src["claude_user"], {"hookTimeout": 1000})
    write_json(src["claude_project"], {"hook_timeout": 2000})
    loaded = load_settings(project, managed_paths=[])
    assert loaded.merged.hook_timeout == 2000
    assert loaded.merged.extra_keys() == {}


def test_merged_hooks_stays_none_whatever_the_shapes(
    isolated_home: Path, project: Path, write_json: WriteJson
) -> None:
    src = _sources(isolated_home, project)
    command_hooks = {"Stop": [{"hooks": [{"type": "command", "command": "echo hi"}]}]}
    write_json(src["claude_user"], {"hooks": command_hooks})
    write_json(src["hookline_project"], {"hooks": ["hooks/guard.py"]})
    loaded = load_settings(project, managed_paths=[])
    assert loaded.errors == []
    assert loaded.merged.hooks is None
    [(file, hooks)] = loaded.command_hooks()
    assert file.path == src["claude_user"]
    assert hooks["Stop"][0].hooks[0].command == "echo hi"  # type: ignore[union-attr]
    assert [(p, f.path) for p, _, f in loaded.hook_paths()] == [
        ("hooks/guard.py", src["hookline_project"])
    ]


# --- broken files ---------------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "   \n\t\n"])
def test_empty_file_is_an_empty_object(project: Path, write_json: WriteJson, text: str) -> None:
    path = write_json(project / ".claude" / "settings.json", text)
    loaded = load_settings(project, managed_paths=[])
    file = next(f for f in loaded.files if f.path == path)
    assert file.exists and file.raw == {} and file.settings == Settings()
    assert file.error is None and loaded.errors == []


def test_invalid_json_is_an_error_with_file_line_and_column(
    isolated_home: Path, project: Path, write_json: WriteJson
) -> None:
    """A file that cannot be parsed is an error, not "absent": its deny rules are unknown."""
    path = write_json(project / ".claude" / "settings.json", '{\n  "model": "a",\n  "x": }\n')
    write_json(isolated_home / ".claude" / "settings.json", {"model": "user"})
    loaded = load_settings(project, managed_paths=[])
    [error] = loaded.errors
    assert error == f"{path}:3:8: invalid JSON: Expecting value"
    file = next(f for f in loaded.files if f.path == path)
    assert (file.exists, file.raw, file.settings, file.error) == (True, None, None, error)
    with pytest.raises(SettingsError, match=r":3:8: invalid JSON"):
        loaded.check()


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("[]", "an array"),
        ('"x"', "a string"),
        ("3", "a number"),
        ("true", "a boolean"),
        ("null", "null"),
    ],
)
def test_non_object_json_is_an_error(
    project: Path, write_json: WriteJson, text: str, kind: str
) -> None:
    path = write_json(project / ".hookline" / "settings.json", text)
    loaded = load_settings(project, managed_paths=[])
    assert loaded.errors == [f"{path}: settings must be a JSON object, not {kind}"]


def test_a_bad_hook_entry_is_skipped_and_the_rest_of_the_file_applies(
    isolated_home: Path, project: Path, write_json: WriteJson
) -> None:
    bad = {
        "model": "project",
        "permissions": {"deny": ["Bash(curl *)"]},
        "hooks": {
            "PreToolUse": [
                {"matcher": "Bash", "hooks": [{"type": "command", "command": "x", "timeout": 0}]},
                {"matcher": "Edit", "hooks": [{"type": "command", "command": "ok"}]},
            ]
        },
    }
    path = write_json(project / ".claude" / "settings.json", bad)
    loaded = load_settings(project, managed_paths=[])
    assert loaded.errors == []
    assert loaded.warnings == [
        f"{path}: hooks.PreToolUse[0].hooks[0].timeout: expected a number greater than 0, "
        "got int 0; hook skipped"
    ]
    assert loaded.merged.model == "project"
    assert loaded.merged.permissions is not None
    assert loaded.merged.permissions.deny == ["Bash(curl *)"]
    [(_file, hooks)] = loaded.command_hooks()
    assert [[h.command for h in g.hooks] for g in hooks["PreToolUse"]] == [[], ["ok"]]


@pytest.mark.parametrize("key", ["allowedHttpHookUrls", "httpHookAllowedEnvVars"])
def test_a_wrong_typed_http_hook_limit_stops_start_up(
    project: Path, write_json: WriteJson, key: str
) -> None:
    """The http hook limits only restrict: what they would forbid must be known."""
    path = write_json(project / ".claude" / "settings.json", {key: "http://x/*"})
    loaded = load_settings(project, managed_paths=[])
    (error,) = loaded.errors
    assert error.startswith(f"{path}: {key}: expected a list, got str 'http://x/*'")


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({"hookTimeout": -1}, "hookTimeout: expected a number greater than 0, got int -1; ignored"),
        ({"hooks": 5}, "hooks: must be a list of hook module paths"),
        ({"hooks": ["a.py", 3]}, "hooks[1]: not a module path (a non-empty string); skipped"),
        ({"hooks": {"AfterCompact": []}}, "hooks.AfterCompact: unknown event 'AfterCompact'"),
        (
            {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": ""}]}]}},
            "hooks.Stop[0].hooks[0].command: expected at least 1 character, got str ''",
        ),
        (
            {"hooks": {"Stop": [{"hooks": [{"type": "prompt", "promt": "x"}]}]}},
            "hooks.Stop[0].hooks[0].promt: unknown key 'promt' in a prompt hook (did you mean "
            "'prompt'?); hook skipped",
        ),
        (
            {"hooks": {"Stop": [{"hooks": [{"type": "websocket", "url": "ws://x"}]}]}},
            "hooks.Stop[0].hooks[0].type: unknown hook type 'websocket' (hook types: agent, "
            "command, http, mcp_tool, prompt); hook skipped",
        ),
        (
            {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x", "retry": 3}]}]}},
            "hooks.Stop[0].hooks[0].retry: unknown key 'retry' in a command hook (keys: ",
        ),
        (
            {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x", "shell": "y"}]}]}},
            "hooks.Stop[0].hooks[0].shell: expected 'bash', 'sh' or 'powershell', got str 'y'; "
            "hook skipped",
        ),
        (
            {"hooks": {"Stop": [{"hooks": [{"type": "command", "args": ["x"]}]}]}},
            "hooks.Stop[0].hooks[0].command: required, but missing; hook skipped",
        ),
        (
            {"hooks": {"Stop": [{"hooks": [{"type": "http", "url": "ws://x"}]}]}},
            "hooks.Stop[0].hooks[0].url: expected text matching ",
        ),
        (
            {
                "hooks": {
                    "PreToolUse": [{"hooks": [{"type": "command", "command": "x", "if": "Bash("}]}]
                }
            },
            "hooks.PreToolUse[0].hooks[0].if: not a permission rule 'Bash('",
        ),
        (
            {"hooks": {"Stop": [{"matcher": "x", "if": "y", "hooks": []}]}},
            "hooks.Stop[0].if: unknown key 'if' in a matcher group (keys: hooks, matcher); "
            "matcher group skipped",
        ),
        ({"permissions": {"allow": "Read"}}, "permissions.allow: must be a list of strings"),
        ({"env": {"A": 1}}, "env.A: expected a string, got int 1; ignored"),
    ],
)
def test_entries_hookline_does_not_understand_are_warnings_naming_the_key_path(
    project: Path, write_json: WriteJson, data: dict[str, object], expected: str
) -> None:
    data = {**data, "permissions": {**data.get("permissions", {}), "deny": ["Read(.env)"]}}  # type: ignore[dict-item]
    path = write_json(project / ".claude" / "settings.local.json", data)
    loaded = load_settings(project, managed_paths=[])
    assert loaded.errors == []
    [warning] = loaded.warnings
    assert warning.startswith(f"{path}: {expected}"), warning
    assert loaded.merged.permissions is not None
    assert loaded.merged.permissions.deny == ["Read(.env)"]  # the rest of the file applies


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({"permissions": "deny all"}, "permissions: must be an object"),
        ({"permissions": {"deny": "x"}}, "permissions.deny: must be a list of strings"),
        ({"permissions": {"ask": [1]}}, "permissions.ask: must be a list of strings"),
        ({"permissions": {"defaultMode": "strict"}}, "permissions.defaultMode: unknown mode"),
        (
            {"permissions": {"defaultMode": "acceptEdit"}},
            "permissions.defaultMode: unknown mode 'acceptEdit' (did you mean 'acceptEdits'?)",
        ),
        (
            {"permissions": {"disableBypassPermissionsMode": True}},
            'permissions.disableBypassPermissionsMode: the only value is "disable"',
        ),
        ({"requiredHooks": "guard.py"}, "requiredHooks: expected a list, got str 'guard.py'"),
        (
            {"allowManagedHooksOnly": "maybe"},
            "allowManagedHooksOnly: expected true or false, got str 'maybe'",
        ),
    ],
)
def test_a_wrong_typed_restrictive_key_is_an_error(
    project: Path, write_json: WriteJson, data: dict[str, object], expected: str
) -> None:
    """What the key would forbid cannot be known, so the file cannot be used."""
    path = write_json(project / ".claude" / "settings.json", data)
    loaded = load_settings(project, managed_paths=[])
    [error] = loaded.errors
    assert error.startswith(f"{path}: {expected}"), error
    assert "it restricts the agent" in error
    with pytest.raises(SettingsError):
        loaded.check()


def test_unreadable_and_undecodable_files_are_errors(project: Path, write_json: WriteJson) -> None:
    (project / ".claude" / "settings.json").mkdir(parents=True)
    local = project / ".claude" / "settings.local.json"
    local.write_bytes(b'{"model": "\xff"}')
    errors = load_settings(project, managed_paths=[]).errors
    assert len(errors) == 2
    assert "not a regular file (a directory)" in errors[0]
    assert "not UTF-8" in errors[1]


def test_utf8_bom_is_accepted(project: Path) -> None:
    path = project / ".claude" / "settings.json"
    path.parent.mkdir()
    path.write_bytes(b'\xef\xbb\xbf{"model": "bom"}')
    assert load_settings(project, managed_paths=[]).merged.model == "bom"


def test_deeply_nested_json_is_an_error_not_a_crash(project: Path, write_json: WriteJson) -> None:
    path = write_json(project / ".claude" / "settings.json", '{"a":' + "[" * 300 + "]" * 300 + "}")
    [error] = load_settings(project, managed_paths=[]).errors
    assert error == f"{path}:1:69: JSON nested deeper than 64 levels; not read"
