"""The sandbox's resolved configuration: settings, permission rules and paths, typed and frozen.

Claude Code merges its permission rules into the sandbox, and so does hookline:

- every ``Edit(…)`` deny rule is a ``filesystem.denyWrite`` entry, every ``Read(…)``
  deny rule a ``filesystem.denyRead`` entry, every ``Edit(…)`` allow rule naming a
  folder an ``allowWrite`` entry;
- ``WebFetch(domain:x)`` allow and deny rules add ``x`` to ``network.allowedDomains``
  and ``deniedDomains``.

Paths in ``sandbox.filesystem`` lists are written as Claude Code documents them:
``/abs`` and ``//abs`` absolute, ``~/x`` in the home folder, ``./x`` or ``x`` in the
project root (in a user, ``--settings`` or managed file: that file's folder).
Rules keep their own anchors (``hookline.settings.permission_rules.paths``).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    import pathspec

    from hookline.settings.loader import LoadedSettings, SettingsFile
    from hookline.settings.models import SandboxConfigModel
    from hookline.settings.permission_rules import PermissionRule, PermissionRules

_GLOB = frozenset("*?[")
PathKind = Literal["denyWrite", "denyRead", "allowWrite", "allowRead"]


@dataclass(frozen=True, slots=True)
class PathEntry:
    """One filesystem entry: the path it names, or the glob walked to find what it names.

    ``root`` is absolute. With ``glob`` None the entry is ``root`` itself (a file or a whole
    folder, existing or not); otherwise it is every path below ``base`` that the
    gitignore-style ``glob`` matches, searched for under ``root``.
    """

    text: str
    origin: str
    root: str
    base: str = ""
    glob: str | None = None
    #: the literal path a missing match would be created at (``Edit(.env)``: ``cwd/.env``)
    literal: str | None = None
    _spec: pathspec.GitIgnoreSpec | None = field(default=None, repr=False, compare=False)

    def matches(self, path: str, is_dir: bool) -> bool:
        """Whether ``path`` (absolute, normalized, under ``root``) is one this entry names."""
        if self._spec is None:
            return path == self.root
        prefix = self.base.rstrip("/") + "/"
        if not path.startswith(prefix):
            return False
        rel = path[len(prefix) :]
        return bool(self._spec.match_file(rel) or (is_dir and self._spec.match_file(rel + "/")))

    def __str__(self) -> str:
        return self.root if self.glob is None else os.path.join(self.base, self.glob.lstrip("/"))


def entry_for(text: str, origin: str, base: str, pattern: str) -> PathEntry:
    """An entry for the gitignore-style ``pattern`` anchored at ``base``.

    A pattern without a slash before its end matches at any depth (``.env``,
    ``*.pem``); a literal one names one path, and ``dir/**`` names the folder.
    """
    base = os.path.normpath(base)
    anchored = "/" in pattern.rstrip("/")
    body = pattern.strip("/")
    parts = [p for p in body.split("/") if p]
    literal = [p for p in parts if not _GLOB & set(p)]
    if anchored or not parts:
        prefix: list[str] = []
        for part in parts:
            if _GLOB & set(part):
                break
            prefix.append(part)
        rest = parts[len(prefix) :]
        root = os.path.join(base, *prefix)
        if not rest or rest == ["**"]:
            return PathEntry(text, origin, root)
        return _globbed(text, origin, root, base, "/" + body, None)
    lit = os.path.join(base, *parts) if len(literal) == len(parts) else None
    return _globbed(text, origin, base, base, body, lit)


def _globbed(
    text: str, origin: str, root: str, base: str, glob: str, literal: str | None
) -> PathEntry:
    import pathspec

    spec = pathspec.GitIgnoreSpec.from_lines([glob], backend="re2")
    return PathEntry(text, origin, root, base, glob, literal, spec)


@dataclass(frozen=True, slots=True)
class SandboxConfig:
    """Everything the sandbox holds for one project, resolved (absolute paths, merged lists).

    :meth:`report` lists it for ``hookline sandbox check`` and the terminal app.
    """

    enabled: bool = False
    fail_if_unavailable: bool = False
    auto_allow: bool = True
    allow_unsandboxed: bool = True
    excluded_commands: tuple[str, ...] = ()
    cwd: str = "."
    #: the working directories (cwd, --add-dir, additionalDirectories): writable
    working_dirs: tuple[str, ...] = ()
    allow_write: tuple[str, ...] = ()
    deny_write: tuple[PathEntry, ...] = ()
    deny_read: tuple[PathEntry, ...] = ()
    allow_read: tuple[str, ...] = ()
    allowed_domains: tuple[str, ...] = ()
    denied_domains: tuple[str, ...] = ()
    #: an ``Edit`` deny rule without a path: nothing but the private TMPDIR is writable
    no_writes: bool = False
    #: the settings files that set sandbox keys
    sources: tuple[str, ...] = ()
    #: keys accepted for compatibility but not enforced, as ``key: why``
    not_enforced: tuple[str, ...] = ()

    @property
    def writable(self) -> tuple[str, ...]:
        """Where sandboxed commands may write (the private TMPDIR aside)."""
        if self.no_writes:
            return ()
        return tuple(dict.fromkeys((*self.working_dirs, *self.allow_write)))

    def report(self) -> list[tuple[str, list[str]]]:
        """``(heading, lines)`` sections: what ``hookline sandbox check`` prints."""
        mode = "off"
        if self.enabled:
            mode = "sandboxed, auto-allow" if self.auto_allow else "sandboxed, regular permissions"
        none = ["(none)"]
        return [
            (
                "mode",
                [
                    mode,
                    f"failIfUnavailable: {str(self.fail_if_unavailable).lower()}",
                    f"allowUnsandboxedCommands: {str(self.allow_unsandboxed).lower()}",
                    "excludedCommands: " + (", ".join(self.excluded_commands) or "(none)"),
                ],
            ),
            ("settings files", list(self.sources) or none),
            ("writable", [*self.writable, "a private TMPDIR (per session)"]),
            (
                "read-only",
                ["every other path", *(f"{e} ({e.origin})" for e in self.deny_write)],
            ),
            ("hidden", [f"{e} ({e.origin})" for e in self.deny_read] or none),
            ("readable again", list(self.allow_read) or none),
            ("allowed domains", list(self.allowed_domains) or none),
            ("denied domains", list(self.denied_domains) or none),
            ("accepted, not enforced", list(self.not_enforced) or none),
        ]


def resolve_sandbox(
    loaded: LoadedSettings,
    rules: PermissionRules,
    cwd: str,
    *,
    working_dirs: Sequence[str] = (),
) -> SandboxConfig:
    """The sandbox of ``cwd`` from every settings file and permission rule.

    ``working_dirs`` are the folders besides ``cwd`` (``--add-dir``,
    ``additionalDirectories``; the rules' own are added).
    """
    cwd = os.path.abspath(cwd)
    merged = None if loaded.empty else loaded.merged.sandbox
    files = [f for f in loaded.files if f.settings is not None and f.settings.sandbox is not None]
    managed = next((f for f in files if f.scope == "managed"), None)
    managed_box = managed.settings.sandbox if managed and managed.settings else None
    only_managed_reads = bool(
        managed_box
        and managed_box.filesystem
        and managed_box.filesystem.allow_managed_read_paths_only
    )
    only_managed_domains = bool(
        managed_box and managed_box.network and managed_box.network.allow_managed_domains_only
    )

    def listed(kind: str, *, managed_only: bool = False) -> list[PathEntry]:
        out: list[PathEntry] = []
        for file in files:
            if managed_only and file is not managed:
                continue
            box = file.settings.sandbox if file.settings else None
            fs = box.filesystem if box is not None else None
            attr = {
                "denyWrite": "deny_write",
                "denyRead": "deny_read",
                "allowWrite": "allow_write",
                "allowRead": "allow_read",
            }[kind]
            for i, text in enumerate(getattr(fs, attr) if fs is not None else ()):
                origin = f"{file.path}: sandbox.filesystem.{kind}[{i}]"
                out.append(_settings_entry(text, origin, _base_of(file, loaded)))
        return out

    deny_write = listed("denyWrite")
    deny_read = listed("denyRead")
    allow_write = [e.root for e in listed("allowWrite") if e.glob is None]
    allow_read = [e.root for e in listed("allowRead", managed_only=only_managed_reads)]
    no_writes = False
    for rule in rules.deny:
        entry = _rule_entry(rule, cwd)
        if rule.tool in _EDIT and rule.specifier is None:
            no_writes = True
        elif entry is not None and rule.tool in _EDIT:
            deny_write.append(entry)
        elif entry is not None and rule.tool == "Read":
            deny_read.append(entry)
    for rule in rules.allow:
        entry = _rule_entry(rule, cwd)
        if entry is not None and rule.tool in _EDIT and entry.glob is None:
            allow_write.append(entry.root)

    allowed = [
        d
        for f in files
        if not only_managed_domains or f is managed
        for d in _network(f.settings.sandbox if f.settings else None, "allowed")
    ]
    denied = [
        d for f in files for d in _network(f.settings.sandbox if f.settings else None, "denied")
    ]
    allowed += _domains(rules.allow, managed_only=only_managed_domains)
    denied += _domains(rules.deny, managed_only=False)

    def flag(value: bool | None, default: bool) -> bool:
        return default if value is None else value

    dirs = [cwd, *working_dirs, *rules.additional_directories]
    return SandboxConfig(
        enabled=flag(merged.enabled if merged else None, False),
        fail_if_unavailable=flag(merged.fail_if_unavailable if merged else None, False),
        auto_allow=_auto_allow(loaded, files),
        allow_unsandboxed=flag(merged.allow_unsandboxed_commands if merged else None, True),
        excluded_commands=tuple(merged.excluded_commands) if merged else (),
        cwd=cwd,
        working_dirs=_unique(os.path.normpath(d) for d in dirs),
        allow_write=_unique(allow_write),
        deny_write=tuple(deny_write),
        deny_read=tuple(deny_read),
        allow_read=_unique(allow_read),
        allowed_domains=_unique(allowed),
        denied_domains=_unique(denied),
        no_writes=no_writes,
        sources=tuple(str(f.path) for f in files),
        not_enforced=_not_enforced(merged),
    )


_EDIT = frozenset({"Edit", "Write", "MultiEdit", "NotebookEdit"})


def _auto_allow(loaded: LoadedSettings, files: list[SettingsFile]) -> bool:
    """``autoAllowBashIfSandboxed`` as merged (default true) — but false when only an
    untrusted project switched the sandbox on: such a project may sandbox its bash calls,
    never stop them being asked about."""
    auto = True
    for file in files:  # merge order: a later file wins
        box = file.settings.sandbox if file.settings else None
        if box is not None and box.auto_allow_bash_if_sandboxed is not None:
            auto = box.auto_allow_bash_if_sandboxed
    boxes = [(f, f.settings.sandbox) for f in files if f.settings and f.settings.sandbox]
    vouched = any(
        (b.enabled or b.auto_allow_bash_if_sandboxed)
        for f, b in boxes
        if loaded.project_trusted or not f.from_project
    )
    untrusted_only = not vouched and any(b.enabled for _, b in boxes)
    return auto and not untrusted_only


def _base_of(file: SettingsFile, loaded: LoadedSettings) -> str:
    """Where ``./x`` in this file's sandbox paths points: the project root, or the file's
    own folder for files outside the project (user, ``--settings``, managed)."""
    if file.from_project:
        return str(loaded.project_dir)
    return str(file.path.parent)


def _settings_entry(text: str, origin: str, base: str) -> PathEntry:
    spec = text.strip()
    if spec.startswith("//"):
        return entry_for(text, origin, "/", spec[1:])
    if spec.startswith("/"):
        return entry_for(text, origin, "/", spec)
    if spec == "~" or spec.startswith("~/"):
        return entry_for(text, origin, os.path.expanduser("~"), "/" + spec[2:])
    while spec.startswith("./"):
        spec = spec[2:]
    if spec in ("", "."):
        return PathEntry(text, origin, os.path.normpath(base))
    # A relative settings path names one place under the base (not any depth).
    return entry_for(text, origin, base, "/" + spec)


def _rule_entry(rule: PermissionRule, cwd: str) -> PathEntry | None:
    path = rule.path
    if path is None:
        return None
    base = path.base if path.base is not None else cwd
    for _ in range(path.up):
        base = os.path.dirname(base)
    return entry_for(rule.text, rule.describe(), base, path.pattern)


def _network(box: SandboxConfigModel | None, which: str) -> list[str]:
    net = box.network if box is not None else None
    if net is None:
        return []
    return list(net.allowed_domains if which == "allowed" else net.denied_domains)


def _domains(rules: Iterable[PermissionRule], *, managed_only: bool) -> list[str]:
    """``WebFetch(domain:x)`` rules' hosts."""
    out = []
    for rule in rules:
        if managed_only and rule.origin.scope != "managed":
            continue
        spec = rule.specifier or ""
        if rule.tool == "WebFetch" and spec.startswith("domain:") and spec[7:].strip():
            out.append(spec[7:].strip())
    return out


def _not_enforced(box: SandboxConfigModel | None) -> tuple[str, ...]:
    if box is None:
        return ()
    out = []
    net = box.network
    if net is not None:
        if net.allow_unix_sockets or net.allow_all_unix_sockets:
            out.append("network.allowUnixSockets/allowAllUnixSockets: Unix sockets stay refused")
        if net.allow_local_binding is not None:
            out.append("network.allowLocalBinding: the sandbox's own loopback always binds")
        if net.http_proxy_port is not None or net.socks_proxy_port is not None:
            out.append("network.httpProxyPort/socksProxyPort: hookline runs its own proxy")
    for key in sorted(box.model_extra or {}):
        out.append(f"{key}: not read by hookline")
    return tuple(out)


def _unique(items: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))
