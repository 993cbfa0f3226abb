"""Finding, reading, validating and merging the settings files.

Every source is optional. Settings degrade safely (``validate.py``): an entry
hookline does not understand is a warning and is skipped, the rest of the file
applies. A file that cannot be read or parsed at all (or whose restrictive keys
have the wrong type) is an *error*: its deny rules cannot be known, so
``LoadedSettings.errors`` is non-empty and the agent must not start
(``LoadedSettings.check`` raises ``SettingsError``). Files are read with
``safe_json`` (regular files only, a size cap, a nesting limit).

A file that parsed but is invalid may be *set aside* by the user (the
terminal app's settings-error screen, "continue without this file"): loaded
again with ``set_aside``, it keeps only what restricts and validated, as an
untrusted project's file does (``trust_filter.py``): its deny and ask rules
still apply, its hooks and allow rules do not. A file that did not parse, and
a managed file (policy), cannot be set aside.

Files of an untrusted project (scope ``project``/``local``) keep only what
restricts (``trust_filter.py``); what was dropped is listed per file in
``SettingsFile.ignored`` and said in one line by ``untrusted_notice``.
Project and local files never grant ``bypassPermissions`` as ``defaultMode``,
trusted or not (only user, ``--settings``, managed files and the flag may).

``hooks`` is kept out of the merge: it is a list of module paths in some files
and an object of Claude command hooks in others, and the two do not combine.
The merged ``Settings.hooks`` is therefore always ``None``; module paths come
from :meth:`LoadedSettings.hook_paths` and command hooks per source from
:meth:`LoadedSettings.command_hooks` (or ``files`` directly), each with the
file they came from, which the policy and trust checks need anyway.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from hookline.core.paths import hookline_home
from hookline.settings.safe_json import JsonFileError, JsonFileMissing, read_json_file

if TYPE_CHECKING:
    # The models (pydantic) load with the first settings file read, or the first read of
    # ``LoadedSettings.merged``: a run without settings files never needs them.
    from hookline.settings.models import HooksConfig, Settings

SettingsScope = Literal["user", "project", "local", "cli", "managed"]

#: Scopes that belong to the project folder (found there): they need its trust.
PROJECT_SCOPES: frozenset[str] = frozenset({"project", "local"})


class SettingsError(Exception):
    """A settings file that cannot be used: its deny rules cannot be known, so nothing starts."""


#: Managed (policy) settings, first existing wins.
DEFAULT_MANAGED_PATHS: tuple[Path, ...] = (
    Path("/etc/hookline/managed-settings.json"),
    Path("/etc/claude-code/managed-settings.json"),
)

#: Keys whose rules must hold whatever else of a file is invalid: a file in which they
#: are the invalid part cannot be set aside (``"deny": ["Bash(rm *)", 42]``).
_KEPT_WHEN_SET_ASIDE = frozenset(
    {
        *("permissions", "permissions.deny", "permissions.ask"),
        "permissions.disableBypassPermissionsMode",
    }
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
    #: Entries skipped because hookline does not understand them (``file: key.path: why``).
    warnings: list[str] = field(default_factory=list)
    #: Key paths dropped because the file belongs to an untrusted project, or was set aside.
    ignored: list[str] = field(default_factory=list)
    #: What is invalid in a file that parsed (``key.path: what is wrong``): why it is an
    #: ``error``, or why it was set aside.
    problems: list[str] = field(default_factory=list)
    #: The user chose to go on without it: only what restricts still applies.
    set_aside: bool = False

    @property
    def from_project(self) -> bool:
        """Found in the project folder (by where it was looked for, never by where it points)."""
        return self.scope in PROJECT_SCOPES

    @property
    def valid(self) -> bool:
        """True when the file exists and was read and validated (it takes part in the merge)."""
        return self.settings is not None

    @property
    def may_set_aside(self) -> bool:
        """It parsed but is invalid, so the user may go on without it (only what restricts
        and validated then applies); never a managed file, which is policy, nor one whose
        deny or ask rules are what is invalid: going on would drop them all."""
        keys = {problem.partition(":")[0] for problem in self.problems}
        return (
            self.error is not None
            and bool(self.problems)
            and self.scope != "managed"
            and keys.isdisjoint(_KEPT_WHEN_SET_ASIDE)
        )


@dataclass
class LoadedSettings:
    """All settings sources of one project, in merge order, and their merge."""

    project_dir: Path
    files: list[SettingsFile]  # every candidate in merge order (missing ones too)
    #: The merge of the valid files, None when there is none (``merged`` builds the defaults).
    merged_files: Settings | None = None
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    project_trusted: bool = True

    @property
    def merged(self) -> Settings:
        """The merge of the valid files; ``hooks`` is always None. Without any file, the
        defaults (every field None), built on first read."""
        if self.merged_files is None:
            from hookline.settings.models import Settings

            # Without building the validator: every field's default is None, so this
            # equals validating {}.
            self.merged_files = Settings.model_construct()
        return self.merged_files

    @property
    def empty(self) -> bool:
        """No settings file was read: every setting has its default. Start-up paths check
        this before reading ``merged``, so a bare run never imports the settings models."""
        return not any(file.settings is not None for file in self.files)

    @property
    def stops(self) -> list[SettingsFile]:
        """The files that stop the start whatever the user says: unreadable, not JSON, or
        invalid managed settings."""
        return [file for file in self.files if file.error and not file.may_set_aside]

    def check(self) -> None:
        """Raise ``SettingsError`` (all errors, one per line) when a file cannot be used."""
        if self.errors:
            raise SettingsError("\n".join(self.errors))

    @property
    def ignored(self) -> dict[Path, list[str]]:
        """Key paths dropped from each file of an untrusted project (files with none left out)."""
        return {file.path: list(file.ignored) for file in self.files if file.ignored}

    def ignored_summary(self) -> str | None:
        """``ignored from .claude/settings.json: a, b; ignored from ...``, or None."""
        parts = [
            f"ignored from {_relative(file.path, self.project_dir)}: {', '.join(file.ignored)}"
            for file in self.files
            if file.ignored
        ]
        return "; ".join(parts) or None

    def untrusted_notice(self) -> str | None:
        """One line naming what was ignored from the untrusted project's files, or None."""
        summary = self.ignored_summary()
        if summary is None:
            return None
        return f"project {self.project_dir} is not trusted; {summary}"

    @property
    def hook_timeout_seconds(self) -> float:
        """The in-process handler timeout: ``hookTimeout`` (ms) in seconds, default 30 s."""
        if self.empty or self.merged.hook_timeout is None:
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

    def required_hooks(self) -> list[tuple[str, Path, SettingsFile]]:
        """``requiredHooks`` entries: (path as written, base dir, source), in merge order."""
        return [
            (entry, self._base_dir(file), file)
            for file in self.files
            if file.settings is not None
            for entry in file.settings.required_hooks or ()
        ]

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
    project_trusted: bool = True,
    set_aside: Collection[Path] = (),
) -> LoadedSettings:
    """Read every settings source of ``project_dir`` and merge the usable ones.

    ``cli_settings`` is the ``--settings FILE`` (relative to the current
    directory); naming a file that does not exist is an error. ``managed_paths``
    replaces the ``/etc`` locations (tests, embedders). With
    ``project_trusted=False`` the project and local files keep only what
    restricts (``trust_filter``). ``set_aside``: invalid files the user chose to
    go on without (as ``LoadedSettings.files`` names them): they keep only what
    restricts and validated.
    """
    project = _absolute(project_dir)
    files = [
        read_settings_file(path, scope, set_aside=path in set_aside)
        for path, scope in settings_candidates(
            project, cli_settings=cli_settings, managed_paths=managed_paths
        )
    ]
    mode: str | None = None
    for file in files:
        if file.scope == "cli" and not file.exists:
            file.error = f"{file.path}: settings file given with --settings does not exist"
        if file.settings is None:
            continue
        if file.from_project:
            file.settings = _without_bypass_mode(file)
        if file.set_aside or (file.from_project and not project_trusted):
            from hookline.settings.trust_filter import restrict_untrusted

            file.settings, file.ignored = restrict_untrusted(file.settings, current_mode=mode)
        permissions = file.settings.permissions
        if permissions is not None and permissions.default_mode is not None:
            mode = permissions.default_mode
    errors = [file.error for file in files if file.error]
    warnings = [warning for file in files for warning in file.warnings]
    layers = [file.settings for file in files if file.settings is not None]
    return LoadedSettings(
        project_dir=project,
        files=files,
        merged_files=_merge(layers, errors) if layers else None,
        errors=errors,
        warnings=warnings,
        project_trusted=project_trusted,
    )


def read_settings_file(
    path: Path, scope: SettingsScope, *, set_aside: bool = False
) -> SettingsFile:
    """Read, check and validate one file; every failure becomes ``error``, never an exception.

    Entries hookline does not understand become ``warnings`` and are left out;
    a file that cannot be parsed, or whose restrictive keys are invalid, is an
    ``error`` and has no settings. With ``set_aside`` an invalid file that parsed
    keeps the entries that validated instead (``load_settings`` then keeps only
    what restricts of them).
    """

    def broken(message: str) -> SettingsFile:
        return SettingsFile(path, scope, raw=None, settings=None, error=message, exists=True)

    try:
        raw = read_json_file(path, empty={})
    except JsonFileMissing:
        return SettingsFile(path, scope, raw=None, settings=None, error=None, exists=False)
    except JsonFileError as exc:
        return broken(str(exc))
    if not isinstance(raw, dict):
        return broken(f"{path}: settings must be a JSON object, not {_json_kind(raw)}")
    # Here, not at import: a run without settings files validates nothing.
    from pydantic import ValidationError

    from hookline.settings._errors import validation_messages
    from hookline.settings.models import Settings
    from hookline.settings.validate import check_settings

    checked = check_settings(raw)
    warnings = [f"{path}: {line}" for line in checked.warnings]
    if checked.errors:
        file = broken("\n".join(f"{path}: {line}" for line in checked.errors))
        file.warnings, file.problems = warnings, checked.errors
        if not (set_aside and file.may_set_aside):
            return file
        warnings.append(
            f"{path}: going on without this file (it is invalid): only its deny and ask "
            "rules, and what else restricts, apply"
        )
    try:
        settings = Settings.model_validate(checked.value)
    except ValidationError as exc:  # pragma: no cover - check_settings keeps only valid entries
        lines = validation_messages(exc, checked.value)
        return broken("\n".join(f"{path}: {line}" for line in lines))
    return SettingsFile(
        path,
        scope,
        raw=raw,
        settings=settings,
        error=None,
        exists=True,
        warnings=warnings,
        problems=checked.errors,
        set_aside=bool(checked.errors),
    )


def _without_bypass_mode(file: SettingsFile) -> Settings:
    """A project/local ``defaultMode: bypassPermissions`` dropped, with a warning."""
    from hookline.settings.models import Settings

    settings = file.settings
    assert settings is not None
    permissions = settings.permissions
    if permissions is None or permissions.default_mode != "bypassPermissions":
        return settings
    file.warnings.append(
        f"{file.path}: permissions.defaultMode: bypassPermissions is not accepted from project "
        "settings (only user, --settings or managed settings, or the flag, may grant it); ignored"
    )
    dump = settings.model_dump(mode="json", by_alias=True, exclude_unset=True)
    dump["permissions"].pop("defaultMode", None)
    return Settings.model_validate(dump)


def _merge(layers: list[Settings], errors: list[str]) -> Settings:
    """The merged settings of valid files (at least one), ``hooks`` left out (module doc)."""
    from pydantic import ValidationError

    from hookline.settings._errors import validation_messages
    from hookline.settings.merge import merge_all
    from hookline.settings.models import Settings

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
    """Drop a path seen before (the project *is* the home): it keeps its first scope.

    Paths compare as found, never resolved: a project file that links to the
    user's or the managed file is still a project file, and the file it points
    to keeps its own scope.
    """
    seen: set[Path] = set()
    out: list[tuple[Path, SettingsScope]] = []
    for path, scope in candidates:
        if path not in seen:
            seen.add(path)
            out.append((path, scope))
    return out


def _relative(path: Path, folder: Path) -> str:
    """``path`` relative to ``folder`` when inside it (as found, links kept), else as is."""
    try:
        return str(path.relative_to(folder))
    except ValueError:
        return str(path)


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
