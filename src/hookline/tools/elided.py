"""A long text shown to a person: its first lines, how many were left out, its last lines.

A tool's output keeps what matters at both ends (the command's first lines, then
its errors, its summary and ``bash``'s ``[Showing lines …]`` notice), so every
summary of a result for display is made here: the terminal app's collapsed
result, print mode's ``--verbose`` lines, the approval previews. The count is
exact, and one hidden line is simply shown (saying so would take the same line).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Elided:
    """The lines kept at each end and how many lay between them."""

    head: tuple[str, ...]
    hidden: int
    tail: tuple[str, ...]

    @property
    def marker(self) -> str:
        """``… 3997 more lines …`` for what was left out (empty when nothing was; never
        one line, which is shown instead)."""
        return f"… {self.hidden} more lines …" if self.hidden else ""

    def lines(self) -> list[str]:
        """Head, the marker (when lines were left out), tail: what to print."""
        middle = [self.marker] if self.hidden else []
        return [*self.head, *middle, *self.tail]


def elide_lines(lines: Sequence[str], head: int, tail: int) -> Elided:
    """The first ``head`` and last ``tail`` of ``lines``, or all of them when at most one
    more would be left out."""
    if len(lines) <= head + tail + 1:
        return Elided(tuple(lines), 0, ())
    hidden = len(lines) - head - tail
    return Elided(tuple(lines[:head]), hidden, tuple(lines[head + hidden :]))
