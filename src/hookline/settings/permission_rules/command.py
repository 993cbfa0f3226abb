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
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Literal


def squeeze(text: str) -> str:
    """Runs of whitespace as one space, ends trimmed: how command texts are compared."""
    return " ".join(text.split())


@dataclass(frozen=True, slots=True)
class CommandPattern:
    """A compiled Bash specifier."""

    kind: Literal["exact", "prefix", "wildcard"]
    text: str
    #: ``text`` and, when it reads as one plain command, that command unquoted.
    forms: tuple[str, ...] = ()
    _regex: re.Pattern[str] | None = field(default=None, repr=False, compare=False)
    #: The literal text before a wildcard's first ``*``: a cheap first test.
    _lead: str = field(default="", repr=False, compare=False)

    @classmethod
    def compile(cls, specifier: str) -> CommandPattern:
        spec = squeeze(specifier)
        if spec.endswith(":*") and len(spec) > 2:
            prefix = squeeze(spec[:-2])
            return cls("prefix", prefix, _forms(prefix))
        if _has_wildcard(spec):
            regex = re.compile(_wildcard_regex(spec), re.DOTALL)
            return cls("wildcard", spec, (spec,), regex, _literal_lead(spec))
        exact = spec.replace("\\*", "*")
        return cls("exact", exact, _forms(exact))

    def matches(self, command: str) -> bool:
        """Whether one simple command's text (already squeezed) matches."""
        return self.matches_any((command,))

    def matches_any(self, commands: Collection[str]) -> bool:
        """Whether any of the texts matches (one loop: this runs for every rule and call)."""
        if self.kind == "exact":
            return any(form in commands for form in self.forms)
        if self.kind == "prefix":
            for command in commands:
                for form in self.forms:
                    if command.startswith(form) and (
                        len(command) == len(form) or command[len(form)] == " "
                    ):
                        return True
            return False
        regex, lead = self._regex, self._lead
        if regex is None:
            return False
        for command in commands:
            if command.startswith(lead) and regex.fullmatch(command) is not None:
                return True
        return False


def _literal_lead(spec: str) -> str:
    """``git * main`` → ``git ``; ``ls *`` → ``ls`` (the space is optional there)."""
    lead = spec[: spec.index("*")] if "\\" not in spec else ""
    return lead.rstrip(" ") if spec.count("*") == 1 and spec.endswith(" *") else lead


def _forms(text: str) -> tuple[str, ...]:
    """``git commit -m "x"`` also as ``git commit -m x``, the way commands are compared."""
    from hookline.shell import parse_command

    parsed = parse_command(text)
    if parsed.unparsable or len(parsed.commands) != 1:
        return (text,)
    command = parsed.commands[0]
    if command.dynamic or command.wrappers or command.assignments or command.redirections:
        return (text,)
    return tuple(dict.fromkeys((text, squeeze(" ".join(command.argv)))))


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
