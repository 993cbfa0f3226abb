"""Path specifiers of Read/Edit rules: Claude's anchors and gitignore-style globs.

| written        | anchored at                                   |
|----------------|-----------------------------------------------|
| ``//abs/path`` | the filesystem root                           |
| ``~/path``     | the home folder                               |
| ``/path``      | the project root of the rule's settings file  |
| ``./path``     | the working directory                         |
| ``path``       | the working directory; a pattern without a    |
|                | ``/`` matches at any depth (``*.env``)        |

The glob is gitignore's (via ``pathspec``, on the linear-time RE2 engine):
``*`` stays inside a folder, ``**`` crosses folders, a pattern naming a
folder covers what is inside it, and a folder-only one (``secrets/``) the
folder itself as well as its contents.
Both the path and the anchor are resolved before matching: ``..``, ``~`` and
symlinks (``os.path.realpath``), so ``sub/../.env`` and a link to ``.env``
are ``.env``; a hard link to ``.env`` is ``.env`` for deny and ask rules
(:mod:`~hookline.settings.permission_rules.links`).
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from hookline.settings.permission_rules.links import linked_inode, protected_inodes

if TYPE_CHECKING:
    import pathspec


@dataclass(frozen=True, slots=True)
class FilePath:
    """One path a tool call touches: as written (absolute, normalized) and resolved."""

    path: str
    real: str

    @classmethod
    def of(cls, path: str, cwd: str) -> FilePath:
        """``path`` as the built-in tools resolve it: relative to ``cwd``, ``~`` expanded,
        and a leading ``@`` (the mention syntax models copy) dropped."""
        if path.startswith("@"):
            path = path[1:]
        full = os.path.normpath(os.path.join(cwd, os.path.expanduser(path)))
        try:
            real = os.path.realpath(full)
        except (OSError, ValueError):  # a NUL byte: the tool will refuse it anyway
            real = full
        return cls(full, real)

    @classmethod
    def of_shell(cls, target: str, cwd: str) -> FilePath:
        """A redirect target as the kernel opens it: ``link/../x`` is ``x`` beside the
        link's target, not beside the link (``real``), though it reads as ``./x`` (``path``)."""
        joined = os.path.join(cwd, os.path.expanduser(target))
        try:
            real = os.path.realpath(joined)
        except (OSError, ValueError):
            real = os.path.normpath(joined)
        return cls(os.path.normpath(joined), real)


@dataclass(frozen=True, slots=True)
class PathPattern:
    """A compiled path specifier."""

    text: str
    #: Absolute anchor, or ``None`` for the working directory at match time.
    base: str | None
    #: Folders to climb from the working directory first (``../x`` → 1).
    up: int
    pattern: str
    _spec: pathspec.GitIgnoreSpec = field(repr=False, compare=False)

    @classmethod
    def compile(cls, specifier: str, *, root: str | None) -> PathPattern:
        """``root`` anchors ``/…`` patterns (``None``: the working directory).

        Raises ``ValueError`` for a pattern that cannot be anchored.
        """
        spec = specifier.strip()
        base: str | None
        up = 0
        if spec.startswith("//"):
            base, pattern = "/", spec[1:]
        elif spec == "~" or spec.startswith("~/"):
            base, pattern = os.path.expanduser("~"), "/" + spec[2:]
        elif spec.startswith("/"):
            base, pattern = root, spec
        else:
            parts = spec.split("/")
            lead = 0
            while lead < len(parts) and parts[lead] in (".", ".."):
                up += parts[lead] == ".."
                lead += 1
            rest = "/".join(parts[lead:])
            base, pattern = None, ("/" + rest if lead else rest)
        if "/../" in pattern + "/" or pattern.endswith("/.."):
            raise ValueError("'..' can only start a path pattern (../x), not sit inside it")
        if pattern in ("", "/"):
            pattern = "/**"
        # A leading '!' or '#' is gitignore syntax; in a rule it is part of the name.
        body = pattern.lstrip("/")
        if body.startswith(("!", "#")):
            pattern = pattern[: len(pattern) - len(body)] + "\\" + body
        if base is not None:
            base = os.path.normpath(base)
        # RE2 runs in linear time: a rule like ``Read(*a*a*a*a*b)`` (an untrusted project's
        # deny rules apply) cannot stall a call on a long path, as backtracking ``re`` would.
        import pathspec  # only projects with path rules pay for the import

        matcher = pathspec.GitIgnoreSpec.from_lines([pattern], backend="re2")
        return cls(specifier, base, up, pattern, matcher)

    def matches(self, file: FilePath, cwd: str, *, resolved_only: bool = False) -> bool:
        """Whether the file falls under the pattern.

        Deny and ask rules match the path as written or as resolved (either
        is enough); an allow rule (``resolved_only``) matches only what the
        path really is, so a link inside an allowed folder that points out of
        it is not allowed.
        """
        base = self._anchor(cwd)
        bases = {base, os.path.realpath(base)}
        paths = (file.real,) if resolved_only else (file.path, file.real)
        return any(self._under(path, b) for path in paths for b in bases)

    def covers(self, rel: str) -> bool:
        """Whether the glob matches ``rel``, a path relative to the anchor."""
        return bool(self._spec.match_file(rel))

    def links_to(self, file: FilePath, cwd: str) -> bool:
        """Whether the file is another name (a hard link) of a file the pattern covers."""
        inode = linked_inode(file.real)
        if inode is None:  # one name only: the common case costs one stat
            return False
        return inode in protected_inodes(self, os.path.realpath(self._anchor(cwd)))

    def reaches_into(self, folders: Iterable[str], cwd: str) -> bool:
        """Whether a file inside one of ``folders`` could match: a pattern whose fixed
        leading part (its anchor and the glob-free folders after it) lies outside every
        folder, with no folder inside it, cannot (``Read(//home/u/.keys)`` for a project
        in ``/work``); everything else is assumed to (``Read(**/.env)``)."""
        fixed = self._anchor(cwd)
        if self.base is not None or self.up:
            for part in self.pattern.strip("/").split("/"):
                if not part or any(c in part for c in "*?[\\"):
                    break
                fixed = os.path.join(fixed, part)
        else:
            return True  # relative to the working directory, which is one of the folders
        fixed = os.path.realpath(fixed)
        for folder in folders:
            real = os.path.realpath(folder)
            if _contains(real, fixed) or _contains(fixed, real):
                return True
        return False

    def _anchor(self, cwd: str) -> str:
        base = self.base if self.base is not None else cwd
        for _ in range(self.up):
            base = os.path.dirname(base)
        return base

    def _under(self, path: str, base: str) -> bool:
        rel = posixpath.relpath(path, base) if path != base else "."
        if rel == "." or rel == ".." or rel.startswith("../"):
            return False
        if self._spec.match_file(rel):
            return True
        # A folder-only pattern (``secrets/``) names the folder itself too: ``ls secrets``
        # is as denied as a read inside it. Only such patterns pay for the stat.
        return (
            self.pattern.endswith("/") and os.path.isdir(path) and self._spec.match_file(rel + "/")
        )


def _contains(folder: str, path: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def within(file: FilePath, dirs: Iterable[str]) -> bool:
    """Whether the file really lies inside one of ``dirs`` (each resolved through symlinks)."""
    for folder in dirs:
        real = os.path.realpath(folder)
        if file.real == real or file.real.startswith(real.rstrip("/") + "/"):
            return True
    return False
