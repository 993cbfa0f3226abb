"""Claude Code plugins where Claude Code installs them, and which of them may run.

Claude Code keeps installed plugins under ``~/.claude/plugins``:

- ``installed_plugins.json``: ``{"version": 2, "plugins": {"name@marketplace":
  [{"scope": "user"|"project"|"local", "installPath": ..., "version": ...,
  "projectPath"?: ...}]}}`` (version 1 maps an id to one entry);
- ``cache/<marketplace>/<name>/<version>/``: the plugin roots;
- ``marketplaces/<marketplace>/``: the marketplace checkouts
  (``.claude-plugin/marketplace.json`` lists each plugin's ``source``);
- ``data/<id>/``: each plugin's own data folder (``CLAUDE_PLUGIN_DATA``).

A plugin root has an optional manifest ``.claude-plugin/plugin.json`` whose
``hooks`` is a path, a list of paths (relative to the root, inside it) or an
inline hooks object, and ``hooks/hooks.json``. Only plugins that settings
``enabledPlugins`` enables load (a ``false`` in a later file disables); an
untrusted project's ``enabledPlugins`` is dropped by the settings layer, so
a cloned repository cannot switch a plugin on. A plugin installed for one
project (scope ``project``/``local``) loads only in that project, and only
once it is trusted. ``--plugin-dir DIR`` loads a folder for one run (id
``<name>@inline``); hookline's own ``~/.hookline/plugins/<name>/`` folders
load as ``<name>@hookline`` unless ``enabledPlugins`` says ``false``.

Finding plugins reads JSON with the safe reader and never runs anything.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from hookline.core.paths import hookline_home
from hookline.settings.safe_json import JsonFileError, JsonFileMissing, read_json_file

if TYPE_CHECKING:
    from hookline.claude.config import HookSource

PluginScope = Literal["user", "project", "local", "inline", "hookline"]

#: The manifest, relative to a plugin root.
MANIFEST = Path(".claude-plugin") / "plugin.json"
_SAFE_ID = re.compile(r"[^A-Za-z0-9_-]")
_OTHER_PROJECTS = "installed only for other projects"


@dataclass(frozen=True, slots=True)
class Plugin:
    """One plugin that may load: its id, its folder and its data folder."""

    id: str  # name@marketplace
    root: Path
    data_dir: Path
    scope: PluginScope


@dataclass(frozen=True, slots=True)
class SkippedPlugin:
    """An installed plugin that does not load, and why (shown with ``--verbose``)."""

    id: str
    reason: str


@dataclass(slots=True)
class PluginSet:
    """The plugins to load, those left out, and problems the user should hear about."""

    plugins: list[Plugin] = field(default_factory=list)
    skipped: list[SkippedPlugin] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def plugins_home() -> Path:
    """``~/.claude/plugins``: where Claude Code installs plugins."""
    return Path.home() / ".claude" / "plugins"


def data_dir_for(plugin_id: str, home: Path | None = None) -> Path:
    """``~/.claude/plugins/data/<id>``, the id with anything but ``[A-Za-z0-9_-]`` as ``-``."""
    return (home or plugins_home()) / "data" / _SAFE_ID.sub("-", plugin_id)


def enabled_state(value: Any) -> tuple[dict[str, bool], list[str]]:
    """Settings ``enabledPlugins`` as ``{id: enabled}``; a list names enabled ids.

    A value that is not a boolean counts as not enabled (a plugin runs only
    when it is clearly switched on) and is reported.
    """
    if value is None:
        return {}, []
    if isinstance(value, list):
        return {str(v): True for v in value if isinstance(v, str)}, []
    if not isinstance(value, dict):
        return {}, ["enabledPlugins: must be an object of plugin ids to true/false; ignored"]
    out: dict[str, bool] = {}
    warnings: list[str] = []
    for key, flag in value.items():
        if isinstance(flag, bool):
            out[str(key)] = flag
        else:
            out[str(key)] = False
            warnings.append(f"enabledPlugins.{key}: must be true or false; not loaded")
    return out, warnings


def find_plugins(
    enabled: Mapping[str, bool],
    *,
    project_dir: str | os.PathLike[str],
    project_trusted: bool,
    plugin_dirs: Sequence[str | os.PathLike[str]] = (),
    home: Path | None = None,
) -> PluginSet:
    """The plugins that load for ``project_dir``, in order: ``--plugin-dir``, installed, own."""
    home = home or plugins_home()
    out = PluginSet()
    seen: set[str] = set()
    for folder in plugin_dirs:
        root = Path(os.path.abspath(os.path.expanduser(folder)))
        if not root.is_dir():
            out.warnings.append(f"--plugin-dir {root}: not a directory")
            continue
        plugin_id = f"{_manifest_name(root, out.warnings) or root.name}@inline"
        _add(out, seen, Plugin(plugin_id, root, data_dir_for(plugin_id, home), "inline"))
    installed = _installed(home, out.warnings)
    project = os.path.realpath(project_dir)
    for plugin_id, flag in enabled.items():
        if not flag:
            out.skipped.append(SkippedPlugin(plugin_id, "disabled in enabledPlugins"))
            continue
        found = _install_for(plugin_id, installed.get(plugin_id, []), project, home)
        if isinstance(found, str):
            out.skipped.append(SkippedPlugin(plugin_id, found))
            if found != _OTHER_PROJECTS:
                out.warnings.append(f"plugin {plugin_id}: {found}")
            continue
        root, scope = found
        if scope in ("project", "local") and not project_trusted:
            why = f"installed for project {project}, which is not trusted"
            out.skipped.append(SkippedPlugin(plugin_id, why))
            continue
        _add(out, seen, Plugin(plugin_id, root, data_dir_for(plugin_id, home), scope))
    for plugin_id in installed:
        if plugin_id not in enabled:
            out.skipped.append(SkippedPlugin(plugin_id, "installed but not enabled"))
    own = hookline_home() / "plugins"
    if own.is_dir():
        for root in sorted(p for p in own.iterdir() if p.is_dir()):
            plugin_id = f"{root.name}@hookline"
            if enabled.get(plugin_id) is False:
                out.skipped.append(SkippedPlugin(plugin_id, "disabled in enabledPlugins"))
                continue
            _add(out, seen, Plugin(plugin_id, root, data_dir_for(plugin_id, home), "hookline"))
    return out


def _add(out: PluginSet, seen: set[str], plugin: Plugin) -> None:
    """Keep the first plugin of an id; a later one is reported, never loaded twice."""
    if plugin.id in seen:
        out.skipped.append(SkippedPlugin(plugin.id, f"{plugin.root}: already loaded"))
        return
    seen.add(plugin.id)
    out.plugins.append(plugin)


def _installed(home: Path, warnings: list[str]) -> dict[str, list[dict[str, Any]]]:
    """``installed_plugins.json`` as ``{id: [entries]}`` (both file versions)."""
    path = home / "installed_plugins.json"
    try:
        raw = read_json_file(path)
    except JsonFileMissing:
        return {}
    except JsonFileError as exc:
        warnings.append(f"cannot read installed plugins: {exc}")
        return {}
    plugins = raw.get("plugins") if isinstance(raw, dict) else None
    if not isinstance(plugins, dict):
        warnings.append(f'{path}: no "plugins" object; no installed plugin loads')
        return {}
    out: dict[str, list[dict[str, Any]]] = {}
    for plugin_id, entries in plugins.items():
        items = entries if isinstance(entries, list) else [entries]
        out[str(plugin_id)] = [e for e in items if isinstance(e, dict)]
    return out


def _install_for(
    plugin_id: str, entries: Iterable[dict[str, Any]], project: str, home: Path
) -> tuple[Path, PluginScope] | str:
    """The root of an enabled plugin (most specific install first), or why there is none."""
    rank = {"local": 0, "project": 1, "user": 2}
    usable: list[tuple[int, Path, PluginScope]] = []
    entries = list(entries)
    for entry in entries:
        scope = entry.get("scope", "user")
        path = entry.get("installPath")
        if scope not in rank or not isinstance(path, str):
            continue
        if scope != "user":
            where = entry.get("projectPath")
            if not isinstance(where, str) or os.path.realpath(where) != project:
                continue
        usable.append((rank[scope], Path(os.path.expanduser(path)), scope))
    for _, root, scope in sorted(usable, key=lambda u: u[0]):
        if root.is_dir():
            return root, scope
    if usable:
        return f"installed at {usable[0][1]}, which is missing"
    if entries:
        return _OTHER_PROJECTS
    cached = _from_cache(plugin_id, home)
    return (cached, "user") if cached is not None else "enabled but not installed"


def _from_cache(plugin_id: str, home: Path) -> Path | None:
    """A plugin missing from ``installed_plugins.json``: its cache folder, else its marketplace.

    In the cache the most recently written version wins; in a marketplace
    checkout, the plugin entry's relative ``source`` folder (inside the checkout).
    """
    name, at, market = plugin_id.rpartition("@")
    if not at or not name or not market or "/" in plugin_id or ".." in plugin_id:
        return None
    versions = home / "cache" / market / name
    if versions.is_dir():
        dirs = [d for d in versions.iterdir() if d.is_dir()]
        if dirs:
            return max(dirs, key=lambda d: d.stat().st_mtime)
    checkout = home / "marketplaces" / market
    try:
        listing = read_json_file(checkout / ".claude-plugin" / "marketplace.json")
    except JsonFileError:
        return None
    for entry in listing.get("plugins", []) if isinstance(listing, dict) else []:
        if isinstance(entry, dict) and entry.get("name") == name:
            source = entry.get("source")
            if isinstance(source, str):
                root = _inside(checkout, source)
                return root if root is not None and root.is_dir() else None
    return None


def _inside(root: Path, relative: str) -> Path | None:
    """``root/relative`` when it stays inside ``root`` (links resolved), else ``None``."""
    if os.path.isabs(relative):
        return None
    target = Path(os.path.realpath(root / relative))
    real_root = Path(os.path.realpath(root))
    return target if target == real_root or real_root in target.parents else None


def _manifest(root: Path, warnings: list[str]) -> dict[str, Any]:
    try:
        raw = read_json_file(root / MANIFEST)
    except JsonFileMissing:
        return {}
    except JsonFileError as exc:
        warnings.append(f"cannot read plugin manifest: {exc}")
        return {}
    if not isinstance(raw, dict):
        warnings.append(f"{root / MANIFEST}: must be a JSON object; ignored")
        return {}
    return raw


def _manifest_name(root: Path, warnings: list[str]) -> str | None:
    name = _manifest(root, warnings).get("name")
    return name if isinstance(name, str) and name else None


def plugin_hook_sources(plugin: Plugin) -> tuple[list[HookSource], list[str]]:
    """A plugin's hooks: ``hooks/hooks.json``, then what ``plugin.json``'s ``hooks`` names.

    A manifest path must stay inside the plugin (``./hooks/more.json``); one
    that leaves it is refused, and so is a ``hooks/hooks.json`` that links
    out. The same file named twice loads once.
    """
    # Here, not at import: finding plugins must not load the settings hook models.
    from hookline.claude.config import load_plugin_hooks, plugin_hooks_source

    messages: list[str] = []
    manifest = _manifest(plugin.root, messages)
    files: list[Path] = []
    default = plugin.root / "hooks" / "hooks.json"
    if _inside(plugin.root, "hooks/hooks.json") is not None:
        files.append(default)
    elif os.path.lexists(default):  # a link out of the plugin, refused like the manifest's
        messages.append(
            f"{default}: links to {os.path.realpath(default)}, outside the plugin; skipped"
        )
    inline: list[Any] = []
    declared = manifest.get("hooks")
    for item in declared if isinstance(declared, list) else [declared] if declared else []:
        if isinstance(item, str):
            path = _inside(plugin.root, item)
            if path is None:
                messages.append(
                    f"{plugin.root / MANIFEST}: hooks path {item!r} leaves the plugin; skipped"
                )
            elif not path.is_file():
                messages.append(f"{plugin.root / MANIFEST}: hooks file {item!r} not found")
            else:
                files.append(path)
        elif isinstance(item, dict):
            inline.append(item)
        else:
            messages.append(f"{plugin.root / MANIFEST}: hooks entry {item!r} skipped")
    sources: list[HookSource] = []
    loaded: set[str] = set()
    for file in files:
        real = os.path.realpath(file)
        if real in loaded:
            continue
        loaded.add(real)
        source, more = load_plugin_hooks(file, plugin_root=plugin.root, plugin_data=plugin.data_dir)
        messages += more
        if source is not None:
            sources.append(source)
    for item in inline:
        source, more = plugin_hooks_source(
            item, plugin.root / MANIFEST, plugin.root, plugin.data_dir
        )
        messages += more
        if source is not None:
            sources.append(source)
    if sources:
        try:
            plugin.data_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            messages.append(f"plugin {plugin.id}: cannot create {plugin.data_dir}: {exc}")
    return sources, messages
