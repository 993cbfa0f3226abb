"""Finding, reading, validating and merging the settings files.

Every source is optional. A broken file is reported (with its path and where it
is broken) and then treated as absent, so one typo never stops the agent and
never surfaces as a traceback.

``hooks`` is kept out of the merge: it is a list of module paths in some files
and an object of Claude command hooks in others, and the two do not combine.
The merged ``Settings.hooks`` is therefore always ``None``; module paths come
from :meth:`LoadedSettings.hook_paths` and command hooks per source from
:meth:`LoadedSettings.command_hooks` (or ``files`` directly), each with the
file they came from, which the policy and trust checks need anyway.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import ValidationError

from hookline.core.paths import hookline_home
from hookline.settings._errors import validation_messages
from hookline.settings.merge import merge_all
from hookline.settings.models import HooksConfig, Settings

SettingsScope = Literal["user", "project", "local", "cli", "managed"]

#: Managed (policy) settings, first existing wins.
DEFAULT_MANAGED_PATHS: tuple[Path, ...] = (
    Path("/etc/hookline/managed-settings.json"),
    Path("/etc/claude-code/managed-settings.json"),
)

#: ``hookTimeout`` when no settings file sets it.
DEFAULT_HOOK_TIMEOUT_SECONDS = 30.0


@dataclass
class SettingsFile:
    """One candidate settings file and what became of it."""

    path: Path
    scope: SettingsScope
    raw: dict[str, Any] | None  # parsed JSON object, None if missing/invalid
    settings: Settings | None  # validated, None if missing/invalid
    error: str | None  # clear message if invalid
    exists: bool

    @property
    def valid(self) -> bool:
        """True when the file exists and was read and validated (it takes part in the merge)."""
        return self.settings is not None


@dataclass
class LoadedSettings:
    """All settings sources of one project, in merge order, and their merge."""

    project_dir: Path
    files: list[SettingsFile]  # every candidate in merge order (missing ones too)
    merged: Settings  # merge of the valid files; ``hooks`` is always None
    errors: list[str] = field(default_factory=list)

    @property
    def hook_timeout_seconds(self) -> float:
        """The in-process handler timeout: ``hookTimeout`` (ms) in seconds, default 30 s."""
        if self.merged.hook_timeout is None:
            return DEFAULT_HOOK_TIMEOUT_SECONDS
        return self.merged.hook_timeout / 1000.0

    @property
    def managed(self) -> SettingsFile | None:
        """The managed file when it exists and is valid (the policy reads it)."""
        for file in self.files:
            if file.scope == "managed" and file.valid:
                return file
        return None

    def hook_paths(self) -> list[tuple[str, Path, SettingsFile]]:
        """Module paths from ``hooks`` lists: (path as written, base dir, source), in merge order.

        Relative paths resolve against the project dir for project/local scope,
        the home dir for user scope (``~/.hookline/settings.json`` is to the
        home what ``<project>/.hookline/settings.json`` is to the project), and
        the file's own folder for cli/managed files, which belong to neither.
        """
        out: list[tuple[str, Path, SettingsFile]] = []
        for file in self.files:
            if file.settings is None or not isinstance(file.settings.hooks, list):
                continue
            base = self._base_dir(file)
            out.extend((entry, base, file) for entry in file.settings.hooks)
        return out

    def command_hooks(self) -> list[tuple[SettingsFile, HooksConfig]]:
        """Claude-style ``hooks`` objects per source, in merge order (never merged: module doc)."""
        return [
            (file, file.settings.hooks)
            for file in self.files
            if file.settings is not None and isinstance(file.settings.hooks, dict)
        ]

    def _base_dir(self, file: SettingsFile) -> Path:
        if file.scope in ("project", "local"):
            return self.project_dir
        if file.scope == "user":
            return Path.home()
        return file.path.parent


def settings_candidates(
    project_dir: Path,
    *,
    cli_settings: Path | None = None,
    managed_paths: Sequence[Path] | None = None,
) -> list[tuple[Path, SettingsScope]]:
    """Every path looked at, in merge order; of the managed paths only the first existing.

    When no managed path exists they are all listed (as missing), so
    diagnostics can say where a managed file would be looked for.
    """
    project = _absolute(project_dir)
    candidates: list[tuple[Path, SettingsScope]] = [
        (hookline_home() / "settings.json", "user"),
        (Path.home() / ".claude" / "settings.json", "user"),
        (project / ".claude" / "settings.json", "project"),
        (project / ".hookline" / "settings.json", "project"),
        (project / ".claude" / "settings.local.json", "local"),
    ]
    if cli_settings is not None:
        candidates.append((_absolute(cli_settings), "cli"))
    managed = [
        _absolute(p) for p in (DEFAULT_MANAGED_PATHS if managed_paths is None else managed_paths)
    ]
    existing = [p for p in managed if p.exists()]
    candidates.extend((p, "managed") for p in (existing[:1] or managed))
    return _without_duplicates(candidates)


def load_settings(
    project_dir: Path,
    *,
    cli_settings: Path | None = None,
    managed_paths: Sequence[Path] | None = None,
) -> LoadedSettings:
    """Read every settings source of ``project_dir`` and merge the valid ones.

    ``cli_settings`` is the ``--settings FILE`` (relative to the current
    directory); naming a file that does not exist is an error. ``managed_paths``
    replaces the ``/etc`` locations (tests, embedders).
    """
    project = _absolute(project_dir)
    files = [
        read_settings_file(path, scope)
        for path, scope in settings_candidates(
            project, cli_settings=cli_settings, managed_paths=managed_paths
        )
    ]
    for file in files:
        if file.scope == "cli" and not file.exists:
            file.error = f"{file.path}: settings file given with --settings does not exist"
    errors = [file.error for file in files if file.error]
    merged = _merge([file.settings for file in files if file.settings is not None], errors)
    return LoadedSettings(project_dir=project, files=files, merged=merged, errors=errors)


def read_settings_file(path: Path, scope: SettingsScope) -> SettingsFile:
    """Read and validate one file; every failure becomes ``error``, never an exception."""
    if not path.exists():
        return SettingsFile(path, scope, raw=None, settings=None, error=None, exists=False)

    def broken(message: str) -> SettingsFile:
        return SettingsFile(path, scope, raw=None, settings=None, error=message, exists=True)

    try:
        text = path.read_bytes().decode("utf-8-sig")
    except OSError as exc:
        return broken(f"{path}: cannot read settings file: {exc.strerror or exc}")
    except UnicodeDecodeError as exc:
        return broken(f"{path}: settings file is not UTF-8 text (byte {exc.start})")
    if not text.strip():
        return SettingsFile(path, scope, raw={}, settings=Settings(), error=None, exists=True)
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        return broken(f"{path}: invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}")
    except (ValueError, RecursionError) as exc:
        return broken(f"{path}: invalid JSON: {exc}")
    if not isinstance(raw, dict):
        return broken(f"{path}: settings must be a JSON object, not {_json_kind(raw)}")
    try:
        settings = Settings.model_validate(raw)
    except ValidationError as exc:
        lines = validation_messages(exc, raw)
        return broken("\n".join(f"{path}: {line}" for line in lines))
    return SettingsFile(path, scope, raw=raw, settings=settings, error=None, exists=True)


def _merge(layers: list[Settings], errors: list[str]) -> Settings:
    """The merged settings of valid files, ``hooks`` left out (see module doc)."""
    if not layers:
        # No file: the defaults, without building the validator (most of a bare run's
        # start-up); every field's default is None, so this equals validating {}.
        return Settings.model_construct()
    dumps = [
        layer.model_dump(mode="json", by_alias=True, exclude_unset=True, exclude={"hooks"})
        for layer in layers
    ]
    try:
        return Settings.model_validate(merge_all(dumps))
    except ValidationError as exc:  # pragma: no cover - valid files merge into valid settings
        errors.extend(f"merged settings: {line}" for line in validation_messages(exc, None))
        return Settings()


def _absolute(path: Path) -> Path:
    """``~`` expanded and made absolute (against the current directory), links kept."""
    return Path(path).expanduser().absolute()


def _without_duplicates(
    candidates: list[tuple[Path, SettingsScope]],
) -> list[tuple[Path, SettingsScope]]:
    """Drop a path seen before (e.g. the project *is* the home): it keeps its first scope."""
    seen: set[Path] = set()
    out: list[tuple[Path, SettingsScope]] = []
    for path, scope in candidates:
        try:
            key = path.resolve()
        except (OSError, RuntimeError):
            key = path
        if key not in seen:
            seen.add(key)
            out.append((path, scope))
    return out


def _json_kind(value: Any) -> str:
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    return "null"
