"""Sources: settings files (built by hand like ``LoadedSettings``) and plugin hooks.json."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hookline.claude import ClaudeHooks, load_plugin_hooks, plugin_sources, sources_from_settings
from hookline.claude.adapter import policy_from_settings
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
    hooks = ClaudeHooks.from_settings(loaded)
    (d,) = hooks.select("PreToolUse", "Bash").hooks
    assert d.id == "user:/home/u/.claude/settings.json#PreToolUse[0].hooks[0]"
    assert hooks.project_dir == str(tmp_path.resolve())


def test_policy_from_settings_managed_wins(tmp_path: Path) -> None:
    files = [
        _file(
            "/etc/claude-code/managed-settings.json",
            "managed",
            {"allowManagedHooksOnly": True, "hooks": HOOKS},
        ),
        _file("/home/u/.claude/settings.json", "user", {"hooks": HOOKS}),
    ]
    loaded = FakeLoaded(tmp_path, files, Settings(), [])
    policy = policy_from_settings(loaded)
    assert policy.managed_only and not policy.disable_all
    hooks = ClaudeHooks.from_settings(loaded)
    sel = hooks.select("PreToolUse", "Bash")
    assert [h.scope for h in sel.hooks] == ["managed"]
    assert sel.deduped == [] and [s.hook.scope for s in sel.skipped] == ["user"]
    merged = Settings.model_validate({"disableAllHooks": True})
    assert policy_from_settings(FakeLoaded(tmp_path, [], merged, [])).disable_all


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


def test_plugin_hooks_errors_are_reported(tmp_path: Path) -> None:
    bad_json = tmp_path / "a.json"
    bad_json.write_text("{nope")
    bad_event = tmp_path / "b.json"
    bad_event.write_text(json.dumps({"PreToolUze": []}))
    bad_hook = tmp_path / "c.json"
    bad_hook.write_text(json.dumps({"Stop": [{"hooks": [{"type": "command"}]}]}))
    for path, text in (
        (bad_json, "cannot read"),
        (bad_event, "PreToolUze"),
        (bad_hook, "Stop.0.hooks.0"),
    ):
        source, error = load_plugin_hooks(path)
        assert source is None and error and text in error, error


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
    asyncio.run(hooks.run("Stop", {"stop_hook_active": False}))
    assert out.read_text().strip() == str(tmp_path / "plug")
