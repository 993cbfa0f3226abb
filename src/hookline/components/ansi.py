"""Measuring, cutting and wrapping ANSI-styled text by terminal cells.

A component's lines carry colour escapes (SGR) and may carry the cursor marker;
neither takes room. Widths are counted per character as the terminal app counts
them (``wcwidth``: a CJK character or an emoji is two cells, a combining mark none),
so a line a component says fits does fit.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from wcwidth import wcwidth

#: CSI (colours, cursor moves), OSC (links, titles) and APC (the cursor marker) escapes.
_ESCAPE = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"
    r"|\x1b_[^\x07\x1b]*(?:\x07|\x1b\\)"
)
_SGR = re.compile(r"\x1b\[[0-9;:]*m")
RESET = "\x1b[0m"


@lru_cache(maxsize=4096)
def _char_width(char: str) -> int:
    return max(wcwidth(char), 0)


def tokens(text: str) -> Iterator[tuple[str, bool]]:
    """``(piece, is_escape)``: each escape sequence whole, every other character alone."""
    pos = 0
    for match in _ESCAPE.finditer(text):
        yield from ((c, False) for c in text[pos : match.start()])
        yield match.group(), True
        pos = match.end()
    yield from ((c, False) for c in text[pos:])


def strip_ansi(text: str) -> str:
    """``text`` without its escape sequences."""
    return _ESCAPE.sub("", text)


def visible_width(text: str) -> int:
    """The cells ``text`` takes on a terminal (escapes take none, tabs count 3 as pi's)."""
    plain = strip_ansi(text)
    if plain.isascii():
        return (
            len(plain)
            + 2 * plain.count("\t")
            - sum(not c.isprintable() for c in plain if c != "\t")
        )
    return sum(3 if c == "\t" else _char_width(c) for c in plain)


def truncate_to_width(text: str, max_width: int, ellipsis: str = "...", pad: bool = False) -> str:
    """``text`` cut to ``max_width`` cells, ``ellipsis`` marking the cut; with ``pad``,
    filled with spaces to exactly ``max_width``. Styles are closed before the ellipsis."""
    max_width = max(max_width, 0)
    width = visible_width(text)
    if width <= max_width:
        return text + " " * (max_width - width) if pad else text
    room = max_width - visible_width(ellipsis)
    if room < 0:
        ellipsis, room = "", max_width
    out: list[str] = []
    used, styled = 0, False
    for piece, escape in tokens(text):
        if escape:
            out.append(piece)
            styled = styled or piece.startswith("\x1b[")
            continue
        w = 3 if piece == "\t" else _char_width(piece)
        if used + w > room:
            break
        out.append(piece)
        used += w
    cut = "".join(out) + (RESET if styled else "") + ellipsis
    used += visible_width(ellipsis)
    return cut + " " * (max_width - used) if pad else cut


class _Style:
    """The SGR escapes in force at a point of a line, to open the next line with."""

    def __init__(self) -> None:
        self.codes: list[str] = []

    def feed(self, escape: str) -> None:
        if not _SGR.fullmatch(escape):
            return
        if escape in (RESET, "\x1b[m"):
            self.codes.clear()
        else:
            self.codes.append(escape)

    def prefix(self) -> str:
        return "".join(self.codes)


def wrap_text_with_ansi(text: str, width: int) -> list[str]:
    """``text`` wrapped at words to lines of at most ``width`` cells; a word longer than
    a line is broken. Each line reopens the styles in force where it starts and closes
    them at its end, so a line can be drawn alone. ``\\n`` starts a new line."""
    wrapper = _Wrapper(max(width, 1))
    for number, source in enumerate(text.split("\n")):
        if number:
            wrapper.newline()
        wrapper.paragraph(source)
    return wrapper.finish()


class _Wrapper:
    """Places words on lines of ``width`` cells, carrying the style across breaks."""

    def __init__(self, width: int) -> None:
        self.width = width
        self.style = _Style()
        self.lines: list[str] = []
        self.line: list[str] = []
        self.used = 0

    def newline(self) -> None:
        text = "".join(self.line)
        self.lines.append(text.rstrip(" ") + (RESET if self.style.codes else ""))
        self.line = [self.style.prefix()]
        self.used = 0

    def paragraph(self, text: str) -> None:
        word: list[str] = []
        started = False
        for piece, escape in tokens(text):
            if not escape and piece == " ":
                self.word(word)
                started = started or bool(word)
                word = []
                if self.used < self.width and (self.used > 0 or not started):
                    self.line.append(" ")
                    self.used += 1
            else:
                word.append(piece)
        self.word(word)

    def word(self, pieces: list[str]) -> None:
        size = sum(_piece_width(p) for p in pieces)
        if size and self.used > 0 and self.used + size > self.width:
            self.newline()
        for piece in pieces:
            if piece.startswith("\x1b"):
                self.style.feed(piece)
                self.line.append(piece)
                continue
            w = _piece_width(piece)
            if self.used + w > self.width and self.used > 0:
                self.newline()
            self.line.append(piece)
            self.used += w

    def finish(self) -> list[str]:
        self.newline()
        return self.lines


def _piece_width(piece: str) -> int:
    return 0 if piece.startswith("\x1b") else (3 if piece == "\t" else _char_width(piece))
