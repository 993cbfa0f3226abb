"""Sources: settings files (built by hand like ``LoadedSettings``) and plugin hooks.json."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hookline.claude import ClaudeHooks, load_plugin_hooks, plugin_sources, sources_from_settings
from hookline.settings import HookPolicy, hook_policy, load_settings
from hookline.settings.models import Settings


@dataclass
class FakeFile:
    path: Path
    scope: str
    raw: dict[str, Any] | None
    settings: Settings | None
    error: str | None = None
    exists: bool = True


@dataclass
class FakeLoaded:
    project_dir: Path
    files: list[FakeFile]
    merged: Settings
    errors: list[str]


def _file(path: str, scope: str, data: dict[str, Any]) -> FakeFile:
    return FakeFile(Path(path), scope, data, Settings.model_validate(data))


HOOKS = {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo hi"}]}]}


def test_sources_from_settings_keep_scope_and_origin(tmp_path: Path) -> None:
    files = [
        _file("/home/u/.claude/settings.json", "user", {"hooks": HOOKS}),
        _file("/p/.claude/settings.json", "project", {"hooks": ["mods/a.py"]}),  # module list
        FakeFile(Path("/p/broken.json"), "local", None, None, "bad json"),
        _file("/p/.claude/settings.local.json", "local", {"model": "x"}),
    ]
    loaded = FakeLoaded(tmp_path, files, Settings(), [])
    sources = sources_from_settings(loaded)
    assert [(s.scope, str(s.origin_path)) for s in sources] == [
        ("user", "/home/u/.claude/settings.json")
    ]
    hooks = ClaudeHooks.from_settings(loaded, policy=HookPolicy())  # type: ignore[arg-type]
    (d,) = hooks.engine.select("PreToolUse", "Bash").hooks
    assert d.id == "user:/home/u/.claude/settings.json#PreToolUse[0].hooks[0]"
    assert hooks.engine.project_dir == str(tmp_path.resolve())


def test_from_settings_uses_the_settings_policy_managed_only(tmp_path: Path) -> None:
    """One hook policy: ClaudeHooks reads ``settings.policy.hook_policy`` of the files."""
    managed = tmp_path / "managed.json"
    managed.write_text(json.dumps({"allowManagedHooksOnly": True, "hooks": HOOKS}))
    user = Path.home() / ".claude" / "settings.json"
    user.parent.mkdir(parents=True)
    user.write_text(json.dumps({"hooks": HOOKS}))
    loaded = load_settings(tmp_path, managed_paths=[managed])
    policy = hook_policy(loaded)
    assert policy.managed_only and not policy.disable_all
    hooks = ClaudeHooks.from_settings(loaded)
    sel = hooks.engine.select("PreToolUse", "Bash")
    assert [h.scope for h in sel.hooks] == ["managed"]
    assert sel.deduped == [] and [s.hook.scope for s in sel.skipped] == ["user"]


def test_from_settings_user_disable_all_keeps_managed_hooks(tmp_path: Path) -> None:
    managed = tmp_path / "managed.json"
    managed.write_text(json.dumps({"hooks": HOOKS}))
    user = Path.home() / ".claude" / "settings.json"
    user.parent.mkdir(parents=True)
    user_hooks = {"PreToolUse": [{"hooks": [{"type": "command", "command": "echo user"}]}]}
    user.write_text(json.dumps({"disableAllHooks": True, "hooks": user_hooks}))
    hooks = ClaudeHooks.from_settings(load_settings(tmp_path, managed_paths=[managed]))
    sel = hooks.engine.select("PreToolUse", "Bash")
    assert [h.scope for h in sel.hooks] == ["managed"]
    assert [s.reason for s in sel.skipped] == [
        "hooks are disabled (disableAllHooks); only managed hooks run"
    ]


def test_plugin_hooks_wrapped_and_bare(tmp_path: Path) -> None:
    wrapped = tmp_path / "p1" / "hooks" / "hooks.json"
    bare = tmp_path / "p2" / "hooks" / "hooks.json"
    for path, data in ((wrapped, {"description": "x", "hooks": HOOKS}), (bare, HOOKS)):
        path.parent.mkdir(parents=True)
        path.write_text(json.dumps(data))
    sources, errors = plugin_sources([wrapped, bare, tmp_path / "missing.json"])
    assert errors == []
    assert [s.scope for s in sources] == ["plugin", "plugin"]
    assert sources[0].plugin_root == tmp_path / "p1"
    assert sources[1].hooks["PreToolUse"][0].matcher == "Bash"


def test_plugin_hooks_unreadable_file_is_an_error(tmp_path: Path) -> None:
    bad_json = tmp_path / "a.json"
    bad_json.write_text("{nope")
    source, messages = load_plugin_hooks(bad_json)
    assert source is None
    assert messages == [
        f"cannot read plugin hooks: {bad_json}:1:2: invalid JSON: "
        "Expecting property name enclosed in double quotes"
    ]


def test_plugin_hooks_unknown_entries_are_skipped_the_rest_loads(tmp_path: Path) -> None:
    path = tmp_path / "hooks" / "hooks.json"
    path.parent.mkdir()
    data = {
        "PreToolUze": [],
        "Stop": [{"hooks": [{"type": "command"}, {"type": "command", "command": "echo ok"}]}],
    }
    path.write_text(json.dumps({"hooks": data}))
    source, messages = load_plugin_hooks(path)
    assert messages == [
        f"{path}: hooks.PreToolUze: unknown event 'PreToolUze' (did you mean 'PreToolUse'?); "
        "skipped",
        f"{path}: hooks.Stop[0].hooks[0].command: required, but missing; hook skipped",
    ]
    assert source is not None
    assert [h.command for h in source.hooks["Stop"][0].hooks] == ["echo ok"]  # type: ignore[union-attr]


def test_plugin_hooks_file_linked_to_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    import os

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    path = tmp_path / "hooks.json"
    path.symlink_to(fifo)
    source, messages = load_plugin_hooks(path)
    assert source is None and "not a regular file (a FIFO)" in messages[0]


def test_plugin_root_env_is_set(tmp_path: Path) -> None:
    import asyncio

    out = tmp_path / "root.txt"
    plugin = tmp_path / "plug" / "hooks" / "hooks.json"
    plugin.parent.mkdir(parents=True)
    plugin.write_text(
        json.dumps(
            {
                "hooks": {
                    "Stop": [
                        {
                            "hooks": [
                                {
                                    "type": "command",
                                    "command": f'echo "$CLAUDE_PLUGIN_ROOT" > {out}',
                                }
                            ]
                        }
                    ]
                }
            }
        )
    )
    sources, _ = plugin_sources([plugin])
    hooks = ClaudeHooks(sources, project_dir=tmp_path)
    asyncio.run(hooks.engine.run("Stop", {"stop_hook_active": False}))
    assert out.read_text().strip() == str(tmp_path / "plug")
