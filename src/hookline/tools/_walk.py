"""Pure-Python file walking for ``find``/``grep``: globs, ``.gitignore``, a sorted walk.

Used when ripgrep/fd are not on PATH (and by the tests, which have neither),
so the tools behave the same everywhere. The ``.gitignore`` support covers
what matters in practice: ``.gitignore`` files in the searched tree, ``!``
negation, ``/`` anchoring, trailing ``/`` for directories, ``*``/``**``/``?``
/``[...]``. ``.git`` is always skipped; hidden files are searched.
"""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from hookline.tools._files import read_regular


def _class(pattern: str, i: int) -> tuple[str, int]:
    """A ``[...]`` character class at ``i``: its regex and the index after it."""
    j = i + 1
    if j < len(pattern) and pattern[j] in "!^":
        j += 1
    if j < len(pattern) and pattern[j] == "]":
        j += 1
    while j < len(pattern) and pattern[j] != "]":
        j += 1
    if j >= len(pattern):
        return re.escape("["), i + 1
    body = pattern[i + 1 : j].replace("\\", "\\\\")
    if body[:1] in ("!", "^"):
        body = "^" + body[1:]
    return f"[{body}]", j + 1


def _braces(pattern: str, i: int) -> tuple[list[str], int] | None:
    """The top-level alternatives of ``{a,b}`` at ``i`` and the index after ``}``."""
    depth, start, parts = 0, i + 1, []
    for j in range(i, len(pattern)):
        c = pattern[j]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                parts.append(pattern[start:j])
                return parts, j + 1
        elif c == "," and depth == 1:
            parts.append(pattern[start:j])
            start = j + 1
    return None


def glob_regex(pattern: str) -> str:
    """A glob as a regex: ``*`` and ``?`` stay within a path segment, ``**`` crosses them."""
    out: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if pattern.startswith("**", i):
            i += 2
            if i < n and pattern[i] == "/":
                out.append("(?:.*/)?")
                i += 1
            else:
                out.append(".*")
            continue
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            piece, i = _class(pattern, i)
            out.append(piece)
            continue
        elif c == "{" and (alts := _braces(pattern, i)) is not None:
            parts, i = alts
            out.append("(?:" + "|".join(glob_regex(p) for p in parts) + ")")
            continue
        elif c == "\\" and i + 1 < n:
            out.append(re.escape(pattern[i + 1]))
            i += 2
            continue
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


@lru_cache(maxsize=256)
def compile_glob(pattern: str, ignore_case: bool = False) -> re.Pattern[str]:
    return re.compile(glob_regex(pattern), re.IGNORECASE if ignore_case else 0)


def glob_matches(pattern: str, rel: str) -> bool:
    """A pattern with a ``/`` matches the relative path, one without matches the name."""
    target = rel if "/" in pattern.rstrip("/") else rel.rsplit("/", 1)[-1]
    return compile_glob(pattern.rstrip("/") or pattern).fullmatch(target) is not None


#: A .gitignore larger than this is read only this far.
_GITIGNORE_LIMIT = 1024 * 1024


@dataclass(frozen=True, slots=True)
class _Rule:
    base: str  # directory of the .gitignore, relative to the walk root ("" for the root)
    regex: re.Pattern[str]
    negated: bool
    dir_only: bool


def _parse_gitignore(path: str, base: str) -> list[_Rule]:
    data = read_regular(path, _GITIGNORE_LIMIT)  # a FIFO named .gitignore must not block
    if data is None:
        return []
    raw = data.decode("utf-8", errors="replace").splitlines()
    rules = []
    for line in raw:
        line = line.rstrip()
        if not line or line.startswith("#"):
            continue
        negated = line.startswith("!")
        line = line[1:] if negated else line
        dir_only = line.endswith("/")
        line = line.rstrip("/")
        if not line:
            continue
        anchored = "/" in line
        line = line.lstrip("/")
        pattern = line if anchored else "**/" + line
        rules.append(_Rule(base, compile_glob(pattern), negated, dir_only))
    return rules


def _ignored(rules: list[_Rule], rel: str, is_dir: bool) -> bool:
    verdict = False
    for rule in rules:
        if rule.dir_only and not is_dir:
            continue
        if rule.base:
            if not rel.startswith(rule.base + "/"):
                continue
            sub = rel[len(rule.base) + 1 :]
        else:
            sub = rel
        if rule.regex.fullmatch(sub):
            verdict = not rule.negated
    return verdict


def walk(
    root: str, *, gitignore: bool = True, signal: asyncio.Event | None = None
) -> Iterator[tuple[str, str, bool]]:
    """``(full path, path relative to root with /, is_dir)`` for every entry, sorted.

    Ignored directories are not entered. Stops early when ``signal`` is set.
    """
    rules: list[_Rule] = []
    if gitignore:
        rules = _parse_gitignore(os.path.join(root, ".gitignore"), "")
    yield from _walk_dir(root, "", rules, gitignore, signal)


def _walk_dir(
    full: str, rel: str, rules: list[_Rule], gitignore: bool, signal: asyncio.Event | None
) -> Iterator[tuple[str, str, bool]]:
    if signal is not None and signal.is_set():
        return
    try:
        with os.scandir(full) as it:
            entries = sorted(it, key=lambda e: e.name)
    except OSError:
        return
    for entry in entries:
        if entry.name == ".git":
            continue
        child = f"{rel}/{entry.name}" if rel else entry.name
        try:
            is_dir = entry.is_dir()
        except OSError:
            continue
        if rules and _ignored(rules, child, is_dir):
            continue
        yield entry.path, child, is_dir
        if is_dir and not entry.is_symlink():
            sub = rules
            ignore_file = os.path.join(entry.path, ".gitignore")
            if gitignore and os.path.isfile(ignore_file):
                sub = rules + _parse_gitignore(ignore_file, child)
            yield from _walk_dir(entry.path, child, sub, gitignore, signal)
