"""Matchers: what a matcher string selects, following Claude Code's documented rules.

- ``None``, ``""`` and ``"*"`` match everything.
- A matcher made only of letters, digits, ``_``, ``-``, ``|`` and ``,`` (spaces
  around the separators allowed) is an exact name or a list of exact names:
  ``Edit|Write`` and ``Edit,Write`` match ``Edit`` and ``Write``, never
  ``MultiEdit``; ``mcp__memory__create`` is one exact MCP tool name.
- Anything else is a regular expression tested anywhere in the query
  (JavaScript's ``RegExp.test``, i.e. Python's ``re.search``): ``Notebook.*``,
  ``^Bash``, ``mcp__memory__.*``. Case-sensitive.
- Matchers are JavaScript regexes in Claude Code: named groups ``(?<name>...)``
  are translated to Python's ``(?P<name>...)`` (lookbehinds are left alone).
- An invalid regex matches nothing and carries ``error`` (a configuration
  diagnostic), never an exception.

No matcher can stall a tool call. Regexes run on RE2 (``google-re2``), whose
time is linear in the query. A pattern RE2 does not accept (lookarounds,
backreferences, counted repeats over 1000) falls back to Python's ``re`` only
under bounds: at most ``MAX_FALLBACK_PATTERN`` characters, every quantifier
applied to a single character or class (no ``(a+)+``, ``(a|aa)*`` or
``(.?){2000}``: those are refused as invalid), and queries longer than
``MAX_FALLBACK_QUERY`` are treated as a match (the hook runs: a guard hook is
never skipped because its query was long). Matchers of hooks that policy or
trust forbid are never compiled (``config.build_table``).

The match query depends on the event: see ``MATCH_FIELDS``.
"""

from __future__ import annotations

import importlib
import os
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal, Protocol

from hookline.core.vocabulary import CLAUDE_TOOL_ALIASES

MatcherKind = Literal["all", "exact", "regex", "invalid"]

#: Longest pattern accepted for the bounded ``re`` fallback.
MAX_FALLBACK_PATTERN = 256
#: Longest query a fallback pattern is run on (longer ones count as a match).
MAX_FALLBACK_QUERY = 512


@lru_cache(maxsize=1)
def _re2() -> tuple[Any, Any]:
    """``re2`` and its options, imported on the first regex matcher (~18 ms to import)."""
    import re2

    options = re2.Options()
    options.log_errors = False  # RE2 would print parse errors to stderr itself
    return re2, options


class _Searcher(Protocol):
    def search(self, text: str) -> object | None: ...


_SIMPLE = re.compile(r"[A-Za-z0-9_\-|, ]+")
_SEPARATORS = re.compile(r"[|,]")

#: The payload field each event matches on; events not listed match every matcher
#: (UserPromptSubmit, Stop, PostToolBatch, CwdChanged, WorktreeCreate, ...).
MATCH_FIELDS: dict[str, str] = {
    "PreToolUse": "tool_name",
    "PostToolUse": "tool_name",
    "PostToolUseFailure": "tool_name",
    "PermissionRequest": "tool_name",
    "PermissionDenied": "tool_name",
    "SessionStart": "source",
    "SessionEnd": "reason",
    "Setup": "trigger",
    "PreCompact": "trigger",
    "PostCompact": "trigger",
    "Notification": "notification_type",
    "StopFailure": "error",
    "SubagentStart": "agent_type",
    "SubagentStop": "agent_type",
    "InstructionsLoaded": "load_reason",
    "ConfigChange": "source",
    "FileChanged": "file_path",  # tested on the file's name: the matcher lists names
    "UserPromptExpansion": "command_name",
    "Elicitation": "mcp_server_name",
    "ElicitationResult": "mcp_server_name",
}


@dataclass(frozen=True, slots=True)
class Matcher:
    """A compiled matcher string."""

    source: str | None
    kind: MatcherKind
    names: frozenset[str] = frozenset()
    regex: _Searcher | None = None
    error: str | None = None
    bounded: bool = False  # the ``re`` fallback: queries over MAX_FALLBACK_QUERY match

    def matches(self, query: str | None) -> bool:
        """True when this matcher selects ``query`` (``None``: the event has no query), or a
        tool's older name (a ``Task`` matcher selects ``Agent``, as in Claude Code)."""
        if self.kind == "all" or query is None:
            return True  # events without a query ignore matchers, as Claude does
        return any(self._selects(name) for name in (query, *_OLDER_NAMES.get(query, ())))

    def _selects(self, query: str) -> bool:
        if self.kind == "exact":
            return query in self.names
        if self.regex is not None:
            if self.bounded and len(query) > MAX_FALLBACK_QUERY:
                return True
            return self.regex.search(query) is not None
        return False


#: A Claude Code tool name → its older names, which matchers may still use.
_OLDER_NAMES: dict[str, tuple[str, ...]] = {}
for _old, _new in CLAUDE_TOOL_ALIASES.items():
    _OLDER_NAMES[_new] = (*_OLDER_NAMES.get(_new, ()), _old)


#: Events whose matcher is a ``|``-list of literal names, never a regex: FileChanged
#: names the files to watch (``.envrc|.env``), so ``.`` is a dot.
LITERAL_MATCHER_EVENTS: frozenset[str] = frozenset({"FileChanged"})


@lru_cache(maxsize=512)
def compile_matcher(source: str | None, literal: bool = False) -> Matcher:
    """Compile once per distinct string (matchers repeat across events and calls).

    ``literal``: the matcher lists exact names (``LITERAL_MATCHER_EVENTS``).
    """
    if source is None or source.strip() in ("", "*"):
        return Matcher(source, "all")
    if literal or _SIMPLE.fullmatch(source):
        names = frozenset(p.strip() for p in _SEPARATORS.split(source) if p.strip())
        return Matcher(source, "exact", names=names)
    pattern = js_to_python(source)
    re2, options = _re2()
    try:
        return Matcher(source, "regex", regex=re2.compile(pattern, options))
    except re2.error:
        return _fallback(source, pattern)


def js_to_python(source: str) -> str:
    """A JavaScript regex in Python syntax: ``(?<name>`` becomes ``(?P<name>``.

    Escapes and character classes are skipped over, so ``\\(?<x>`` and
    ``[(?<]`` are left as they are; lookbehinds ``(?<=``/``(?<!`` are the same in both.
    """
    out: list[str] = []
    i, in_class = 0, False
    while i < len(source):
        c = source[i]
        if c == "\\":
            out.append(source[i : i + 2])
            i += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
        elif source.startswith("(?<", i) and source[i + 3 : i + 4] not in ("=", "!"):
            out.append("(?P<")
            i += 3
            continue
        out.append(c)
        i += 1
    return "".join(out)


def _fallback(source: str, pattern: str) -> Matcher:
    """Python ``re`` for what RE2 refuses, only when the pattern cannot backtrack badly."""
    shown = source if len(source) <= 80 else source[:77] + "..."

    def invalid(why: str) -> Matcher:
        return Matcher(source, "invalid", error=f"invalid matcher regex {shown!r}: {why}")

    if len(source) > MAX_FALLBACK_PATTERN:
        return invalid(f"longer than {MAX_FALLBACK_PATTERN} characters and not RE2 syntax")
    try:
        parsed = _parse(pattern)
    except (re.error, RecursionError, OverflowError) as exc:
        return invalid(str(exc))
    if not _simple_repeats(parsed):
        return invalid(
            "RE2 cannot run it, and in Python's backtracking engine a quantifier over a "
            "group could stall a tool call, so it is refused"
        )
    try:
        return Matcher(source, "regex", regex=re.compile(pattern), bounded=True)
    except re.error as exc:  # pragma: no cover - it parsed above
        return invalid(str(exc))


def _parse(source: str) -> Any:
    """The parse tree of ``re`` (its private parser: the only way to see the quantifiers)."""
    return importlib.import_module("re._parser").parse(source)


_REPEATS = frozenset({"MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"})
_SINGLE = frozenset({"LITERAL", "NOT_LITERAL", "ANY", "IN", "CATEGORY"})


def match_query(event: str, payload: dict[str, Any]) -> str | None:
    """The string an event's matchers are tested against, or ``None`` (match all)."""
    key = MATCH_FIELDS.get(event)
    if key is None:
        return None
    value = payload.get(key)
    if value is None:
        return None
    if event == "FileChanged":
        return os.path.basename(str(value))
    return str(value)


def _simple_repeats(items: Any) -> bool:
    """True when every quantifier in a parsed pattern repeats one character or class."""
    for op, arg in items:
        name = str(op)
        if name in _REPEATS:
            body = arg[2]
            if len(body) != 1 or str(body[0][0]) not in _SINGLE:
                return False
        elif not all(_simple_repeats(part) for part in _subpatterns(name, arg)):
            return False
    return True


def _subpatterns(name: str, arg: Any) -> list[Any]:
    """The nested patterns of a group, lookaround, alternation or conditional."""
    if name == "SUBPATTERN":
        return [arg[-1]]
    if name in ("ASSERT", "ASSERT_NOT"):
        return [arg[1]]
    if name == "BRANCH":
        return list(arg[1])
    if name == "GROUPREF_EXISTS":
        return [part for part in arg[1:] if part is not None]
    return []
