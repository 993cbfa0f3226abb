"""Bash specifiers: exact commands, ``cmd *`` wildcards and the legacy ``cmd:*`` prefix.

As Claude Code reads them: ``npm test`` is exact; ``npm run test:*`` matches
``npm run test`` and anything after it following a space (never
``npm run tests``); a ``*`` anywhere else matches any text, and a single
trailing `` *`` also matches nothing (``ls *`` matches ``ls`` and ``ls -la``,
not ``lsof``). ``\\*`` is a literal star. The specifier is matched against one
simple command at a time, never the whole line: the caller splits the line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

_SPACES = re.compile(r"\s+")


def squeeze(text: str) -> str:
    """Runs of whitespace as one space, ends trimmed: how command texts are compared."""
    return _SPACES.sub(" ", text).strip()


@dataclass(frozen=True, slots=True)
class CommandPattern:
    """A compiled Bash specifier."""

    kind: Literal["exact", "prefix", "wildcard"]
    text: str
    _regex: re.Pattern[str] | None = field(default=None, repr=False, compare=False)

    @classmethod
    def compile(cls, specifier: str) -> CommandPattern:
        spec = squeeze(specifier)
        if spec.endswith(":*") and len(spec) > 2:
            return cls("prefix", squeeze(spec[:-2]))
        if _has_wildcard(spec):
            return cls("wildcard", spec, re.compile(_wildcard_regex(spec), re.DOTALL))
        return cls("exact", spec.replace("\\*", "*"))

    def matches(self, command: str) -> bool:
        """Whether one simple command's text (already squeezed) matches."""
        if self.kind == "exact":
            return command == self.text
        if self.kind == "prefix":
            return command == self.text or command.startswith(self.text + " ")
        assert self._regex is not None
        return self._regex.fullmatch(command) is not None


def _has_wildcard(spec: str) -> bool:
    i = 0
    while i < len(spec):
        if spec[i] == "\\" and i + 1 < len(spec):
            i += 2
            continue
        if spec[i] == "*":
            return True
        i += 1
    return False


def _wildcard_regex(spec: str) -> str:
    parts: list[str] = []
    stars = 0
    i = 0
    while i < len(spec):
        c = spec[i]
        if c == "\\" and i + 1 < len(spec) and spec[i + 1] in "*\\":
            parts.append(re.escape(spec[i + 1]))
            i += 2
            continue
        if c == "*":
            parts.append(".*")
            stars += 1
        else:
            parts.append(re.escape(c))
        i += 1
    regex = "".join(parts)
    # ``ls *`` also matches a bare ``ls`` (as ``ls:*`` does); not when other stars exist.
    if stars == 1 and regex.endswith(re.escape(" ") + ".*"):
        regex = regex[: -len(re.escape(" ") + ".*")] + "(?: .*)?"
    return regex
