"""Pure-Python file walking for ``find``/``grep``: globs, ``.gitignore``, a sorted walk.

Used by ``grep`` to list the files it scans, and by ``find`` to complete (or,
without ripgrep, make) its list. Globs are ``wcmatch``'s: ``find``/``grep``
patterns (``*``/``?`` inside a folder, ``**`` across folders, ``[...]``,
``{a,b}``) and the patterns of the tree's ``.gitignore`` files, read as git
reads them (nested files, ``!`` negation, ``/`` anchoring, trailing ``/`` for
folders). Each entry is judged itself, git's last matching pattern winning,
and an ignored folder is not entered. (``pathspec``'s ``GitIgnoreSpec``
answers whether a *file path* is covered, which is what permission rules ask;
on folders it gets ``*`` then ``!*/`` wrong.) ``.git`` is always skipped;
hidden files are searched.
"""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import Callable, Container, Iterator
from dataclasses import dataclass
from functools import lru_cache

from hookline.tools._files import read_regular


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


#: A pattern's place in its file and whether it re-includes (``!``); the later one wins.
_Match = tuple[int, bool]


def _later(a: _Match | None, b: _Match | None) -> _Match | None:
    return b if a is None or (b is not None and b[0] > a[0]) else a


@dataclass(frozen=True, slots=True)
class _Patterns:
    """The patterns of one kind of one ``.gitignore``. The commonest shapes are looked
    up: a plain name (``node_modules``) and ``*.ext``. The rest are tried last pattern
    first, each only when the subject holds the pattern's longest literal run."""

    exact: dict[str, _Match]
    extensions: dict[str, _Match]
    rest: tuple[tuple[_Match, str, re.Pattern[str]], ...]  # in reverse file order

    def last_match(self, subject: str) -> _Match | None:
        best = self.exact.get(subject)
        if self.extensions and (dot := subject.rfind(".")) >= 0:
            best = _later(best, self.extensions.get(subject[dot:]))
        for match, literal, regex in self.rest:
            if best is not None and match[0] < best[0]:
                break
            if literal in subject and regex.fullmatch(subject):
                return match
        return best


_GLOB_CHARS = frozenset("*?[\\")


def _literal(glob: str) -> str:
    """The longest run of plain characters before any class or escape: every match
    contains it."""
    head = re.split(r"[\[\\]", glob, maxsplit=1)[0]
    return max(re.split(r"[*?/]", head), key=len)


def _patterns(lines: list[tuple[int, bool, str, str]]) -> _Patterns | None:
    """``(index, negated, glob, regex)`` per pattern, in file order."""
    if not lines:
        return None
    exact: dict[str, _Match] = {}
    extensions: dict[str, _Match] = {}
    rest: list[tuple[_Match, str, re.Pattern[str]]] = []
    for index, negated, glob, regex in lines:
        if _GLOB_CHARS.isdisjoint(glob):
            exact[glob] = (index, negated)
        elif glob.startswith("*.") and _GLOB_CHARS.isdisjoint(glob[1:]) and "." not in glob[2:]:
            extensions[glob[1:]] = (index, negated)
        else:
            rest.append(((index, negated), _literal(glob), re.compile(regex)))
    return _Patterns(exact, extensions, tuple(reversed(rest)))


@dataclass(frozen=True, slots=True)
class _IgnoreFile:
    """One ``.gitignore``: its folder (relative to the walk root, ``""`` or ending in
    ``/``); patterns without a ``/`` match an entry's name, the others its path below
    that folder; folder-only patterns (``build/``) only folders."""

    base: str
    names: _Patterns | None
    paths: _Patterns | None
    dir_names: _Patterns | None
    dir_paths: _Patterns | None

    def verdict(self, sub: str, name: str, is_dir: bool) -> bool | None:
        """True: ignored, False: re-included by a ``!`` pattern, None: no pattern matches."""
        names, paths = (self.dir_names, self.dir_paths) if is_dir else (self.names, self.paths)
        best = names.last_match(name) if names is not None else None
        if paths is not None:
            best = _later(best, paths.last_match(sub))
        return None if best is None else not best[1]


def _unspace(line: str) -> str:
    """The line without git's ignored trailing spaces (a ``\\ `` keeps its space)."""
    stripped = line.rstrip(" ")
    if stripped != line and stripped.endswith("\\") and not stripped.endswith("\\\\"):
        stripped += " "
    return stripped


def _parse(text: str, base: str) -> _IgnoreFile | None:
    """git's reading of a ``.gitignore``: comments, ``!``, anchoring ``/``, trailing ``/``
    and the glob itself, translated by wcmatch (no braces: git has none). A line that
    cannot be translated is skipped, as git skips it."""
    from wcmatch import glob

    flags = glob.GLOBSTAR | glob.DOTGLOB | glob.FORCEUNIX
    kinds: dict[tuple[bool, bool], list[tuple[int, bool, str, str]]] = {
        (by_path, dirs): [] for by_path in (False, True) for dirs in (False, True)
    }
    for index, raw in enumerate(text.splitlines()):
        line = _unspace(raw.removesuffix("\r"))
        if not line or line.startswith("#"):
            continue
        negated = line.startswith("!")
        line = line[1:] if negated else line
        dir_only = line.endswith("/")
        line = line.rstrip("/")
        by_path = "/" in line  # a slash at the start or in the middle anchors the pattern
        line = line.lstrip("/")
        if not line:
            continue
        try:
            include, _ = glob.translate(line, flags=flags)
            regex = "|".join(f"(?:{r})" for r in include)
            re.compile(regex)
        except Exception:
            continue
        kinds[by_path, True].append((index, negated, line, regex))
        if not dir_only:
            kinds[by_path, False].append((index, negated, line, regex))
    parts = {kind: _patterns(lines) for kind, lines in kinds.items()}
    if all(part is None for part in parts.values()):
        return None
    return _IgnoreFile(
        base, parts[False, False], parts[True, False], parts[False, True], parts[True, True]
    )


def _load(path: str, base: str) -> _IgnoreFile | None:
    data = read_regular(path, _GITIGNORE_LIMIT)  # a FIFO named .gitignore must not block
    if data is None:
        return None
    return _parse(data.decode("utf-8", errors="surrogateescape"), base)


def _ignored(stack: tuple[_IgnoreFile, ...], rel: str, is_dir: bool) -> bool:
    """The deepest ``.gitignore`` with a pattern for ``rel`` decides; none: not ignored."""
    name = rel.rpartition("/")[2]
    for ignore in reversed(stack):
        verdict = ignore.verdict(rel[len(ignore.base) :], name, is_dir)
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

    __slots__ = ("_enabled", "_full", "_parent", "_rel", "_stack")

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
