"""Bash specifiers: exact commands, ``cmd *`` wildcards and the legacy ``cmd:*`` prefix.

As Claude Code reads them: ``npm test`` is exact; ``npm run test:*`` matches
``npm run test`` and anything after it following a space (never
``npm run tests``); a ``*`` anywhere else matches any text, and a single
trailing `` *`` also matches nothing (``ls *`` matches ``ls`` and ``ls -la``,
not ``lsof``). ``\\*`` is a literal star. The specifier is matched against one
simple command at a time, never the whole line: the caller splits the line.

Wildcards are matched without regular expressions, in time linear in the
command for each literal piece, so no specifier (an untrusted project's deny
rules apply too) can stall a tool call by backtracking.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
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
    #: A wildcard's literal pieces between its stars (``git * main`` → ``git ``, `` main``).
    pieces: tuple[str, ...] = field(default=(), repr=False)

    @classmethod
    def compile(cls, specifier: str) -> CommandPattern:
        spec = squeeze(specifier)
        if spec.endswith(":*") and len(spec) > 2:
            prefix = squeeze(spec[:-2])
            return cls("prefix", prefix, _forms(prefix))
        pieces = _pieces(spec)
        if len(pieces) > 1:
            return cls("wildcard", spec, (spec,), tuple(pieces))
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
        pieces = self.pieces
        # ``ls *`` also matches a bare ``ls`` (as ``ls:*`` does); not when other stars exist.
        bare = (
            pieces[0][:-1] if len(pieces) == 2 and pieces[0][-1:] == " " and not pieces[1] else None
        )
        return any(command == bare or _star_match(pieces, command) for command in commands)


def _star_match(pieces: Sequence[str], text: str) -> bool:
    """Whether ``text`` is ``pieces`` joined by runs of any characters (greedy leftmost is
    exact when ``*`` is the only wildcard)."""
    first, last = pieces[0], pieces[-1]
    if len(text) < len(first) + len(last) or not text.startswith(first):
        return False
    if not text.endswith(last):
        return False
    pos, end = len(first), len(text) - len(last)
    for piece in pieces[1:-1]:
        found = text.find(piece, pos, end)
        if found < 0:
            return False
        pos = found + len(piece)
    return True


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


def _pieces(spec: str) -> list[str]:
    """The literal text between unescaped stars; ``\\*`` and ``\\\\`` are a star and a backslash."""
    pieces, current = [], []
    i = 0
    while i < len(spec):
        c = spec[i]
        if c == "\\" and i + 1 < len(spec) and spec[i + 1] in "*\\":
            current.append(spec[i + 1])
            i += 2
            continue
        if c == "*":
            pieces.append("".join(current))
            current = []
        else:
            current.append(c)
        i += 1
    pieces.append("".join(current))
    return pieces
