"""Finding installed plugins: registry formats, enabling, walk-arounds that must fail closed."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from hookline.claude import ClaudeHooks, HookSource, enabled_state, find_plugins
from hookline.claude.plugins import Plugin, data_dir_for, plugin_hook_sources


def _w(path: Path, data: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))
    return path


def _hooks(command: str) -> dict[str, Any]:
    return {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": command}]}]}}


def test_registry_version_1_and_2(tmp_path: Path) -> None:
    home = tmp_path / "plugins"
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir()
    two.mkdir()
    _w(
        home / "installed_plugins.json",
        {"version": 1, "plugins": {"a@m": {"installPath": str(one)}}},
    )
    found = find_plugins({"a@m": True}, project_dir=tmp_path, project_trusted=False, home=home)
    assert [(p.id, p.root, p.scope) for p in found.plugins] == [("a@m", one, "user")]
    _w(
        home / "installed_plugins.json",
        {"version": 2, "plugins": {"b@m": [{"scope": "user", "installPath": str(two)}]}},
    )
    found = find_plugins({"b@m": True}, project_dir=tmp_path, project_trusted=False, home=home)
    assert [p.root for p in found.plugins] == [two]


def test_unreadable_registry_is_reported_and_loads_nothing(tmp_path: Path) -> None:
    home = tmp_path / "plugins"
    home.mkdir()
    (home / "installed_plugins.json").write_text("{not json")
    found = find_plugins({"a@m": True}, project_dir=tmp_path, project_trusted=True, home=home)
    assert found.plugins == []
    assert any("cannot read installed plugins" in w for w in found.warnings)


def test_enabled_plugins_values() -> None:
    assert enabled_state({"a@m": True, "b@m": False}) == ({"a@m": True, "b@m": False}, [])
    state, warnings = enabled_state({"a@m": "yes"})
    assert state == {"a@m": False}  # only a real true switches a plugin on
    assert warnings == ["enabledPlugins.a@m: must be true or false; not loaded"]
    assert enabled_state(["a@m"]) == ({"a@m": True}, [])
    assert enabled_state("a@m")[0] == {}


def test_plugin_id_cannot_walk_out_of_the_cache(tmp_path: Path) -> None:
    home = tmp_path / "plugins"
    outside = tmp_path / "elsewhere" / "evil" / "1.0"  # cache/../../elsewhere/evil/1.0
    outside.mkdir(parents=True)
    (home / "cache").mkdir(parents=True)
    assert (home / "cache" / ".." / ".." / "elsewhere" / "evil").is_dir()
    found = find_plugins(
        {"evil@../../elsewhere": True, "evil@..%2F": True},
        project_dir=tmp_path,
        project_trusted=True,
        home=home,
    )
    assert found.plugins == []


def test_marketplace_source_outside_the_checkout_is_refused(tmp_path: Path) -> None:
    home = tmp_path / "plugins"
    market = home / "marketplaces" / "m"
    (tmp_path / "outside").mkdir()
    (market / "plugins" / "good").mkdir(parents=True)
    _w(
        market / ".claude-plugin" / "marketplace.json",
        {
            "name": "m",
            "plugins": [
                {"name": "good", "source": "./plugins/good"},
                {"name": "bad", "source": "../../../outside"},
            ],
        },
    )
    found = find_plugins(
        {"good@m": True, "bad@m": True}, project_dir=tmp_path, project_trusted=True, home=home
    )
    assert [p.root for p in found.plugins] == [market / "plugins" / "good"]
    assert any("bad@m: enabled but not installed" in w for w in found.warnings)


def test_data_dir_is_sanitized(tmp_path: Path) -> None:
    assert (
        data_dir_for("my plugin@mkt.place", tmp_path) == tmp_path / "data" / "my-plugin-mkt-place"
    )
    assert data_dir_for("../x@y", tmp_path).parent == tmp_path / "data"


def test_manifest_hooks_symlink_out_of_the_plugin_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "plugin"
    secret = _w(tmp_path / "outside.json", _hooks("echo outside"))
    (root / "hooks").mkdir(parents=True)
    os.symlink(secret, root / "hooks" / "link.json")
    _w(root / ".claude-plugin" / "plugin.json", {"name": "p", "hooks": "./hooks/link.json"})
    plugin = Plugin("p@inline", root, tmp_path / "data", "inline")
    sources, messages = plugin_hook_sources(plugin)
    assert sources == []
    assert any("leaves the plugin" in m for m in messages)


def test_expansion_and_dedupe_identity(tmp_path: Path) -> None:
    sources: list[HookSource] = []
    for name in ("a", "b"):
        root = tmp_path / name
        _w(
            root / "hooks" / "hooks.json",
            _hooks('run "${CLAUDE_PLUGIN_ROOT}/x" $CLAUDE_PLUGIN_ROOT'),
        )
        found, messages = plugin_hook_sources(
            Plugin(f"{name}@m", root, tmp_path / name / "d", "user")
        )
        assert messages == []
        sources += found
    hooks = ClaudeHooks(sources)
    defs = hooks.engine.table.by_event["Stop"]
    assert [d.spec.command for d in defs] == [  # type: ignore[union-attr]
        f'run "{tmp_path / "a"}/x" $CLAUDE_PLUGIN_ROOT',
        f'run "{tmp_path / "b"}/x" $CLAUDE_PLUGIN_ROOT',
    ]
    assert defs[0].dedupe_key != defs[1].dedupe_key
    assert defs[0].plugin_data == tmp_path / "a" / "d"
    assert (tmp_path / "a" / "d").is_dir()  # created for the plugin's hooks to write in
