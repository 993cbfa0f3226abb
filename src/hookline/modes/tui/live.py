"""The streaming answer's live tail, rendered a block at a time.

A streaming answer grows at its end only: every block before the one being
written (paragraphs, lists, code blocks, split at blank lines outside code
fences) is finished, and its rendering does not change. Those are rendered
once and kept; each update renders only the open block, and only as many
finished ones as the tail needs. Markdown parsing and highlighting hold the
interpreter lock even off the loop, so the less of it per update, the quicker
keys are echoed while an answer streams. The answer is rendered whole, once,
when it ends.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from hookline.modes.tui import render

if TYPE_CHECKING:
    from hookline.core.theme import Theme

#: A code fence line (the same rule as ``render.live_source``).
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})(.*)")


def split_blocks(source: str) -> list[str]:
    """``source`` cut where a block starts after a blank line; the last block is the open one.

    Never inside a code fence, and not before a list item or an indented line (a
    loose list, a list item's next paragraph, indented code stay one block: they
    render differently apart).
    """
    blocks: list[str] = []
    current: list[str] = []
    blank = 0  # blank lines seen since the last line of ``current``
    fence: str | None = None
    for line in source.split("\n"):
        if fence is None and not line.strip():
            blank += 1
            continue
        if fence is None and blank and current and not _CONTINUES.match(line):
            blocks.append("\n".join(current))
            current = []
        elif blank and current:
            current += [""] * blank
        blank = 0
        current.append(line)
        found = _FENCE.fullmatch(line)
        if found is None:
            continue
        if fence is None:
            fence = found[1]
        elif found[1][0] == fence[0] and len(found[1]) >= len(fence) and not found[2].strip():
            fence = None  # a closing fence: the same kind, at least as long, no info string
    if current or not blocks:
        blocks.append("\n".join(current))
    return blocks


#: A line that belongs to the block before it even after a blank line: a list item, or
#: indented (a list item's next paragraph, indented code).
_CONTINUES = re.compile(r"[ \t]|[-*+][ \t]|\d{1,9}[.)][ \t]")


class LiveAnswer:
    """Renders the last ``lines`` lines of a streaming answer, reusing finished blocks.

    Not thread-safe: one render at a time (the app runs one at a time).
    """

    def __init__(self, lines: int) -> None:
        self.lines = lines
        #: Finished blocks' ANSI lines by (source, width, theme): those the last tail used.
        self._done: dict[tuple[str, int, Theme], list[str]] = {}
        #: How many blocks the last update rendered (the rest came from the cache).
        self.rendered = 0

    def tail(self, text: str, width: int, theme: Theme) -> str:
        """The ANSI text of the answer's last ``lines`` rendered lines at ``width``."""
        blocks = split_blocks(render.live_source(text))
        shown: list[str] = []
        kept: dict[tuple[str, int, Theme], list[str]] = {}
        self.rendered = 0
        for i in range(len(blocks) - 1, -1, -1):
            key = (blocks[i], width, theme)
            lines = self._done.get(key) if i < len(blocks) - 1 else None
            if lines is None:
                lines = _render(blocks[i], width, theme)
                self.rendered += 1
            if i < len(blocks) - 1:
                kept[key] = lines
            if not lines:
                continue
            shown = [*lines, "", *shown] if shown else lines
            if len(shown) >= self.lines:
                break
        self._done = kept
        return "\n".join(shown[-self.lines :])


def _render(block: str, width: int, theme: Theme) -> list[str]:
    """A block's rendered lines without the plain blank lines rich puts around some
    (headings; a code block's shaded padding is kept):
    blocks are joined with one blank line, as rich separates them in a whole render."""
    if not block.strip():
        return []
    lines = render.to_ansi(render.markdown(block), width, theme).rstrip("\n").split("\n")
    shown = [i for i, line in enumerate(lines) if line.strip()]  # styled blanks are kept
    return lines[shown[0] : shown[-1] + 1] if shown else []
