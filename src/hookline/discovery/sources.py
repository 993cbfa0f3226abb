"""Where hook modules come from, in priority order (the manual: "Where hooks come from").

Discovery never imports anything: it only lists files and entry points, so
it is safe to run on an untrusted project. The loader imports what it returns.
"""

from __future__ import annotations

import importlib.machinery
import os
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from hookline.core.paths import expand_path, hookline_home

if TYPE_CHECKING:
    # Imported where entry points are listed: it pulls in zipfile and email (~10 ms), which
    # `hookline claude-hook --no-discovery` never needs.
    from importlib import metadata

#: The entry-point group installed packages use to offer hook modules.
ENTRY_POINT_GROUP = "hookline.hooks"
#: Distribution metadata folders ``importlib.metadata`` reads entry points from.
_INFO_SUFFIXES = (".dist-info", ".egg-info")

#: Where a project keeps its hook modules, relative to the project folder.
PROJECT_HOOKS_DIR = Path(".hookline") / "hooks"


class SettingsHookPath(NamedTuple):
    """One entry of a settings ``hooks`` list, as collected by the settings layer.

    ``base_dir`` is where a relative ``path`` is taken from (the folder of the
    project the settings file belongs to). ``from_project`` says whether the
    settings file is a project file (then it needs trust): pass the scope the
    settings layer found it under. ``None`` lets discovery decide from where
    the file was found: a settings file whose path *as found* lies in the
    project folder is a project file, even when it is a link to elsewhere.
    """

    path: str
    base_dir: str
    origin: str
    from_project: bool | None = None


SettingsEntry = SettingsHookPath | tuple[str, str, str] | tuple[str, str, str, bool | None]


@dataclass(frozen=True, slots=True)
class HookSource:
    """One hook module to load, and why it is there.

    ``path`` is the absolute path as found (``~`` expanded, not resolved
    through links) or, for an entry point, its ``module:attr`` value.
    ``key`` is what duplicates are detected by: the real path of a file,
    ``entry_point:<name>`` for an entry point. ``project_dir`` is set when
    the source comes from a project (and so needs that project's trust).
    """

    path: str
    origin: str
    key: str
    project_dir: str | None = None
    entry_point: metadata.EntryPoint | None = field(default=None, compare=False)

    @property
    def from_project(self) -> bool:
        return self.project_dir is not None

    @property
    def is_entry_point(self) -> bool:
        return self.entry_point is not None


@dataclass(frozen=True, slots=True)
class ShadowedSource:
    """A lower-priority duplicate of a source already kept; it is not loaded."""

    source: HookSource
    by: HookSource

    @property
    def reason(self) -> str:
        return (
            f"{self.source.path} ({self.source.origin}) is shadowed by "
            f"{self.by.path} ({self.by.origin})"
        )


@dataclass(frozen=True, slots=True)
class SkippedSource:
    """A source that was found but must not run (untrusted project); never imported."""

    source: HookSource
    reason: str


@dataclass(slots=True)
class Discovery:
    """The outcome of discovery: what to load, in order, and what was left out."""

    sources: list[HookSource] = field(default_factory=list)
    skipped: list[SkippedSource] = field(default_factory=list)
    shadowed: list[ShadowedSource] = field(default_factory=list)


def untrusted_reason(project_dir: str | os.PathLike[str]) -> str:
    """The message shown for a project hook skipped because its project is not trusted."""
    return (
        f"project {project_dir} is not trusted: run `hookline trust {project_dir}` "
        "or pass --trust-project"
    )


def discover_hooks(
    *,
    cli_paths: Sequence[str | os.PathLike[str]] = (),
    settings_paths: Iterable[SettingsEntry] = (),
    project_dir: str | os.PathLike[str] | None = None,
    project_trusted: bool = False,
    cwd: str | os.PathLike[str] | None = None,
    user: bool = True,
    packages: bool = True,
) -> Discovery:
    """List hook sources, highest priority first, deduped by real path.

    Order: ``cli_paths`` (files or folders, relative to ``cwd``), settings
    ``hooks`` lists, ``<project_dir>/.hookline/hooks/*.py``,
    ``$HOOKLINE_HOME/hooks/*.py``, then entry points of group
    ``hookline.hooks``. Project sources (the project hooks folder and paths
    from project settings files) are only kept when ``project_trusted``;
    otherwise they are reported in ``skipped`` and never imported. A skipped
    source does not claim its path, so the same file reached through a
    trusted route (say the user's own folder) still loads.
    """
    base = Path(cwd) if cwd is not None else Path.cwd()
    project = Path(os.path.abspath(os.path.expanduser(project_dir))) if project_dir else None
    candidates: list[HookSource] = []
    for cli_path in cli_paths:
        candidates += _files_at(expand_path(os.fspath(cli_path), base), "cli", None)
    for entry in settings_paths:
        candidates += _settings_sources(SettingsHookPath(*entry), project)
    if project is not None:
        candidates += _files_in(project / PROJECT_HOOKS_DIR, "project", str(project))
    if user:
        candidates += _files_in(hookline_home() / "hooks", "user", None)
    if packages:
        candidates += _entry_point_sources()
    return _select(candidates, project_trusted)


def _select(candidates: list[HookSource], trusted: bool) -> Discovery:
    """Apply trust, then dedupe by key: the first kept source of a key wins."""
    out = Discovery()
    kept: dict[str, HookSource] = {}
    for source in candidates:
        if source.project_dir is not None and not trusted:
            out.skipped.append(SkippedSource(source, untrusted_reason(source.project_dir)))
        elif source.key in kept:
            out.shadowed.append(ShadowedSource(source, kept[source.key]))
        else:
            kept[source.key] = source
            out.sources.append(source)
    return out


def _file_source(path: Path, origin: str, project_dir: str | None) -> HookSource:
    return HookSource(str(path), origin, os.path.realpath(path), project_dir)


def _files_at(path: Path, origin: str, project_dir: str | None) -> list[HookSource]:
    """An explicit path: a package (a folder with ``__init__.py``) is one hook, its
    ``__init__.py``; another folder means its modules; anything else is one module.

    A missing file is still returned so that loading reports it as an error
    rather than silently ignoring a path the user asked for.
    """
    if (path / "__init__.py").is_file():
        return [_file_source(path / "__init__.py", origin, project_dir)]
    if path.is_dir():
        return _files_in(path, origin, project_dir)
    return [_file_source(path, origin, project_dir)]


def _files_in(folder: Path, origin: str, project_dir: str | None) -> list[HookSource]:
    """The ``*.py`` modules of a folder sorted by name; ``_private`` and dot files are helpers."""
    if not folder.is_dir():
        return []
    names = sorted(
        p.name
        for p in folder.iterdir()
        if p.suffix == ".py" and not p.name.startswith(("_", ".")) and p.is_file()
    )
    return [_file_source(folder / name, origin, project_dir) for name in names]


def _settings_sources(entry: SettingsHookPath, project: Path | None) -> list[HookSource]:
    origin = entry.origin if entry.origin.startswith("settings:") else f"settings:{entry.origin}"
    from_project = entry.from_project
    if from_project is None:
        from_project = _is_inside(origin.removeprefix("settings:"), project)
    # A project file's own project is the one given, else the folder it resolves against.
    project_dir = str(project or entry.base_dir) if from_project else None
    return _files_at(expand_path(entry.path, entry.base_dir), origin, project_dir)


def _is_inside(file: str, folder: Path | None) -> bool:
    """True when ``file`` was found in ``folder``: paths compared as found, never resolved.

    Resolving would let a link in the project (``.claude/settings.json`` ->
    ``../sibling/settings.json``) pass for "not a project file". A project
    reached through a link is compared both ways, so neither form escapes.
    """
    if folder is None or not file:
        return False
    found = os.path.normpath(os.path.abspath(os.path.expanduser(file)))
    folders = {os.path.normpath(os.path.abspath(folder)), os.path.realpath(folder)}
    return any(os.path.commonpath([f, found]) == f for f in folders)


def _entry_point_sources() -> list[HookSource]:
    """Entry points of ``hookline.hooks`` by name; equal names keep ``sys.path`` order."""
    if not _may_declare(ENTRY_POINT_GROUP):
        return []
    from importlib import metadata  # ~20 ms to import and to read every distribution

    eps = sorted(metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda ep: ep.name)
    return [
        HookSource(ep.value, f"entry_point:{ep.name}", f"entry_point:{ep.name}", None, ep)
        for ep in eps
    ]


def _may_declare(group: str) -> bool:
    """False only when no distribution ``importlib.metadata`` would find names ``group``.

    The same places it looks (``sys.path`` folders' ``*.dist-info`` and
    ``*.egg-info``), read as bytes: a file that mentions the group at all, a
    path entry that is not a plain folder (a zip) and a finder of distributions
    other than the path finder all answer True, and the real lookup decides.
    """
    needle = group.encode()
    for entry in sys.path:
        folder = entry or "."
        try:
            with os.scandir(folder) as found:
                infos = [e.name for e in found if _is_info(e.name, folder)]
        except NotADirectoryError:
            return True
        except OSError:
            continue  # missing or unreadable: importlib.metadata finds nothing there either
        for info in infos:
            try:
                with open(os.path.join(folder, info, "entry_points.txt"), "rb") as file:
                    if needle in file.read():
                        return True
            except (FileNotFoundError, NotADirectoryError):
                continue
            except OSError:
                return True
    return any(
        getattr(finder, "find_distributions", None) is not None
        and finder is not importlib.machinery.PathFinder
        for finder in sys.meta_path
    )


def _is_info(name: str, folder: str) -> bool:
    """A metadata folder name, as ``importlib.metadata`` matches them (an egg's ``EGG-INFO``)."""
    low = name.lower()
    return low.endswith(_INFO_SUFFIXES) or (low == "egg-info" and folder.lower().endswith(".egg"))
