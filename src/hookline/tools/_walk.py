"""Pure-Python file walking for ``find``/``grep``: globs, ``.gitignore``, a sorted walk.

Used by ``grep`` to list the files it scans, and by ``find`` when ripgrep is not
there. ``.gitignore`` files in the searched tree are read with git's semantics
by ``pathspec`` (nested files, ``!`` negation, ``/`` anchoring, trailing ``/``
for directories, ``**``), on the linear-time RE2 engine so a long ignore file
costs one pass per path. ``find``/``grep`` globs are ``wcmatch``'s (``*``/``?``
inside a folder, ``**`` across folders, ``[...]``, ``{a,b}``). ``.git`` is
always skipped; hidden files are searched.
"""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import Callable, Container, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from hookline.tools._files import read_regular

if TYPE_CHECKING:
    import pathspec


class GlobError(ValueError):
    """A glob that cannot be compiled (e.g. braces expanding to too many patterns)."""


@lru_cache(maxsize=256)
def _glob_regex(pattern: str) -> re.Pattern[str]:
    # wcmatch costs ~20 ms to import: only a find or a grep with a glob pays it.
    from wcmatch import glob

    flags = glob.GLOBSTAR | glob.BRACE | glob.DOTGLOB | glob.FORCEUNIX
    try:
        include, _ = glob.translate(pattern, flags=flags)
        return re.compile("|".join(f"(?:{regex})" for regex in include))
    except Exception as exc:  # wcmatch's own errors, or a regex re refuses
        raise GlobError(f"invalid glob {pattern!r}: {exc}") from None


def glob_matcher(pattern: str) -> Callable[[str], bool]:
    """A test of relative paths (``/``-separated): a pattern with a ``/`` matches the
    whole path, one without matches the last name. A trailing ``/`` is dropped.

    Raises ``GlobError`` for a pattern that cannot be compiled.
    """
    body = pattern.rstrip("/") or pattern
    regex = _glob_regex(body)
    if "/" in body:
        return lambda rel: regex.fullmatch(rel) is not None
    return lambda rel: regex.fullmatch(rel.rsplit("/", 1)[-1]) is not None


def glob_matches(pattern: str, rel: str) -> bool:
    """Whether ``rel`` matches ``pattern`` (see ``glob_matcher``)."""
    return glob_matcher(pattern)(rel)


#: A .gitignore larger than this is read only this far.
_GITIGNORE_LIMIT = 1024 * 1024


@dataclass(frozen=True, slots=True)
class _IgnoreFile:
    """One ``.gitignore``: its directory (relative to the walk root, ``""`` or ending
    in ``/``) and its patterns."""

    base: str
    spec: pathspec.GitIgnoreSpec


def _spec(lines: list[str]) -> pathspec.GitIgnoreSpec:
    """The patterns as git reads them; a line git would not parse is skipped, as git does."""
    import pathspec  # ~60 ms to import: paid by the first walk, never by start-up

    try:
        return pathspec.GitIgnoreSpec.from_lines(lines, backend="re2")
    except Exception:  # one bad line (``\\`` alone, ``[z-a]``): keep the others
        good = []
        for line in lines:
            try:
                pathspec.GitIgnoreSpec.from_lines([line], backend="re2")
            except Exception:
                continue
            good.append(line)
        return pathspec.GitIgnoreSpec.from_lines(good, backend="re2")


def _load(path: str, base: str) -> _IgnoreFile | None:
    data = read_regular(path, _GITIGNORE_LIMIT)  # a FIFO named .gitignore must not block
    if data is None:
        return None
    lines = data.decode("utf-8", errors="replace").splitlines()
    if not any(line.strip() and not line.startswith("#") for line in lines):
        return None
    return _IgnoreFile(base, _spec(lines))


def _ignored(stack: tuple[_IgnoreFile, ...], rel: str, is_dir: bool) -> bool:
    """The deepest ``.gitignore`` with a pattern for ``rel`` decides; none: not ignored."""
    for ignore in reversed(stack):
        sub = rel[len(ignore.base) :]
        verdict = ignore.spec.check_file(sub + "/" if is_dir else sub).include
        if verdict is not None:
            return verdict
    return False


def walk(
    root: str,
    *,
    gitignore: bool = True,
    signal: asyncio.Event | None = None,
    kept: tuple[Container[str], Container[str]] | None = None,
) -> Iterator[tuple[str, str, bool]]:
    """``(full path, path relative to root with /, is_dir)`` for every entry, sorted.

    Ignored directories are not entered. Stops early when ``signal`` is set.
    ``kept`` is an earlier verdict on this tree (ripgrep's): the regular files and
    the directories known not to be ignored. A regular file is then kept only if
    listed there, a listed directory without asking the ignore files; only the
    rest (links, other special files, directories holding no kept file) is
    checked against the ``.gitignore`` files, which are read only when needed.
    """
    yield from _Walk(gitignore, signal, kept).dir(root, "", _Ignores(root, "", (), gitignore))


class _Ignores:
    """The ``.gitignore`` stack for one directory, its own file read on first use."""

    __slots__ = ("_full", "_rel", "_parent", "_enabled", "_stack")

    def __init__(
        self, full: str, rel: str, parent: tuple[_IgnoreFile, ...] | _Ignores, enabled: bool
    ) -> None:
        self._full, self._rel, self._parent, self._enabled = full, rel, parent, enabled
        self._stack: tuple[_IgnoreFile, ...] | None = None if enabled else ()

    @property
    def stack(self) -> tuple[_IgnoreFile, ...]:
        if self._stack is None:
            parent = self._parent if isinstance(self._parent, tuple) else self._parent.stack
            own = _load(os.path.join(self._full, ".gitignore"), self._rel)
            self._stack = (*parent, own) if own is not None else parent
        return self._stack

    def child(self, full: str, rel: str) -> _Ignores:
        return _Ignores(full, rel + "/", self, self._enabled)


@dataclass(slots=True)
class _Walk:
    gitignore: bool
    signal: asyncio.Event | None
    kept: tuple[Container[str], Container[str]] | None

    def dir(self, full: str, rel: str, ignores: _Ignores) -> Iterator[tuple[str, str, bool]]:
        if self.signal is not None and self.signal.is_set():
            return
        try:
            with os.scandir(full) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError:
            return
        for entry in entries:
            if entry.name == ".git":
                continue
            child = rel + entry.name
            try:
                is_dir = entry.is_dir()
                plain_file = entry.is_file(follow_symlinks=False)
            except OSError:
                continue
            if self._ignored(ignores, child, is_dir, plain_file, entry.is_symlink()):
                continue
            yield entry.path, child, is_dir
            if is_dir and not entry.is_symlink():
                yield from self.dir(entry.path, child + "/", ignores.child(entry.path, child))

    def _ignored(
        self, ignores: _Ignores, rel: str, is_dir: bool, plain_file: bool, link: bool
    ) -> bool:
        if self.kept is not None:
            files, dirs = self.kept
            if plain_file:
                return rel not in files
            if is_dir and not link and rel in dirs:
                return False
        return self.gitignore and _ignored(ignores.stack, rel, is_dir)
