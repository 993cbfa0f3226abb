"""One call of :func:`~hookline.shell.parse_command`: what it found, and where the walk is."""

from __future__ import annotations

from dataclasses import dataclass

from hookline.shell.model import Redirection, SimpleCommand
from hookline.shell.redirections import StdinTexts
from hookline.shell.words import snippet

#: a wrapper a command was found in: its label (``sudo``, ``bash -c``) and its argv
Wrap = tuple[str, tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class Context:
    """Where the walker is: the wrappers around it, redirections inherited from an
    enclosing ``{ …; } > f``, the outer span for text from a ``-c`` script, script depth."""

    wrappers: tuple[Wrap, ...] = ()
    inherited: tuple[Redirection, ...] = ()
    span: tuple[int, int] | None = None
    depth: int = 0


class Analysis:
    """One call of :func:`~hookline.shell.parse_command`: collects commands and problems."""

    def __init__(self, text: str) -> None:
        self.commands: list[SimpleCommand] = []
        self.problems: list[str] = []
        #: variables set outside any command (``X=1;``, ``for X in …``)
        self.assigned: list[str] = []
        #: the text a heredoc or herestring feeds to stdin, by ``id`` of its Redirection
        self.stdin: StdinTexts = {}
        self._top_text = text
        self._ascii = text.isascii()
        self._char_of: list[int] | None = None

    def arithmetic_problem(self, text: str) -> None:
        self.problem(f"arithmetic on a variable, whose value may run commands: {snippet(text)}")

    def problem(self, problem: str) -> None:
        """Report ``problem`` once (the same construct may be reached on two paths)."""
        if problem not in self.problems:
            self.problems.append(problem)

    # -- offsets

    def char_offset(self, byte: int) -> int:
        """Character offset in the top-level text of a byte offset in its UTF-8 form."""
        if self._ascii:
            return byte
        if self._char_of is None:
            table: list[int] = []
            for index, char in enumerate(self._top_text):
                table.extend([index] * len(char.encode("utf-8", "surrogatepass")))
            table.append(len(self._top_text))
            self._char_of = table
        return self._char_of[min(byte, len(self._char_of) - 1)]

    def span(self, start: int, end: int, ctx: Context) -> tuple[int, int]:
        """The span reported for bytes ``start:end`` of the script being walked: a nested
        script's commands carry the span of the text that holds it."""
        if ctx.span is not None:
            return ctx.span
        return (self.char_offset(start), self.char_offset(end))
