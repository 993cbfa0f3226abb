"""Matchers: what a matcher string selects, following Claude Code's documented rules.

- ``None``, ``""`` and ``"*"`` match everything.
- A matcher made only of letters, digits, ``_``, ``-`` and ``|`` (spaces
  around ``|`` allowed) is an exact name or a ``|``-list of exact names:
  ``Edit|Write`` matches ``Edit`` and ``Write``, never ``MultiEdit``.
- Anything else is a regular expression tested anywhere in the query
  (JavaScript's ``RegExp.test``, i.e. Python's ``re.search``): ``Notebook.*``,
  ``^Bash``, ``mcp__memory__.*``. Case-sensitive.
- An invalid regex matches nothing and carries ``error`` (a configuration
  diagnostic), never an exception.

The match query depends on the event: see ``MATCH_FIELDS``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

MatcherKind = Literal["all", "exact", "regex", "invalid"]

_SIMPLE = re.compile(r"[A-Za-z0-9_\-| ]+")

#: The payload field each event matches on; events not listed match every matcher.
MATCH_FIELDS: dict[str, str] = {
    "PreToolUse": "tool_name",
    "PostToolUse": "tool_name",
    "PostToolUseFailure": "tool_name",
    "PermissionRequest": "tool_name",
    "SessionStart": "source",
    "PreCompact": "trigger",
    "Notification": "notification_type",
    "SessionEnd": "reason",
}


@dataclass(frozen=True, slots=True)
class Matcher:
    """A compiled matcher string."""

    source: str | None
    kind: MatcherKind
    names: frozenset[str] = frozenset()
    regex: re.Pattern[str] | None = None
    error: str | None = None

    def matches(self, query: str | None) -> bool:
        """True when this matcher selects ``query`` (``None``: the event has no query)."""
        if self.kind == "all" or query is None:
            return True  # events without a query ignore matchers, as Claude does
        if self.kind == "exact":
            return query in self.names
        if self.regex is not None:
            return self.regex.search(query) is not None
        return False


@lru_cache(maxsize=512)
def compile_matcher(source: str | None) -> Matcher:
    """Compile once per distinct string (matchers repeat across events and calls)."""
    if source is None or source.strip() in ("", "*"):
        return Matcher(source, "all")
    if _SIMPLE.fullmatch(source):
        names = frozenset(p.strip() for p in source.split("|") if p.strip())
        return Matcher(source, "exact", names=names)
    try:
        return Matcher(source, "regex", regex=re.compile(source))
    except re.error as exc:
        return Matcher(source, "invalid", error=f"invalid matcher regex {source!r}: {exc}")


def match_query(event: str, payload: dict[str, Any]) -> str | None:
    """The string an event's matchers are tested against, or ``None`` (match all)."""
    key = MATCH_FIELDS.get(event)
    if key is None:
        return None
    value = payload.get(key)
    return None if value is None else str(value)
