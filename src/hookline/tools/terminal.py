"""Command output as a terminal would show it, minus the escape codes: what the model reads.

Colour codes and progress bars cost the model tokens and hide the text:
``\\x1b[31merror\\x1b[0m`` is ``error``, ``10%\\r50%\\r100%`` is ``100%``.
CSI and OSC sequences (and the other ``ESC`` strings) are removed; a carriage
return moves back to the start of the line and later text overdraws earlier
text, with ``ESC [K`` erasing as a terminal does. ``\\r\\n`` is a plain
newline. Only line-local effects are resolved: cursor movement across lines
(full-screen programs) is just dropped.
"""

from __future__ import annotations

import re

#: Erase in line (``ESC[K``, ``ESC[0K``, ``ESC[1K``, ``ESC[2K``): kept for the line renderer.
_ERASE = r"\x1b\[[0-2]?K"
_SEQUENCES = re.compile(
    r"\x1b\][^\x07\x1b]*(?:\x07|\x1b\\|$)"  # OSC (titles, hyperlinks), BEL- or ST-terminated
    r"|\x1b[PX^_][^\x1b]*(?:\x1b\\|$)"  # DCS, SOS, PM, APC strings
    r"|(?!" + _ERASE + r")\x1b\[[0-?]*[ -/]*[@-~]"  # CSI (colours, cursor moves), not erase
    r"|\x9b[0-?]*[ -/]*[@-~]"  # 8-bit CSI
    r"|\x1b[()*+][0-9A-Za-z]"  # character set selection
    r"|\x1b(?![\[\]])[ -/]*[0-~]"  # other two-byte escapes (ESC =, ESC 7, ESC c ...)
)
_LINE_TOKENS = re.compile(r"\r|" + _ERASE)
_LEFTOVER = re.compile(r"[\x1b\x07]")


def _render(line: str) -> str:
    """One line after its carriage returns and erase-in-line codes took effect."""
    cells: list[str] = []
    col = pos = 0
    for match in _LINE_TOKENS.finditer(line):
        col = _put(cells, col, line[pos : match.start()])
        token = match.group()
        if token == "\r":
            col = 0
        elif token in ("\x1b[K", "\x1b[0K"):
            del cells[col:]
        elif token == "\x1b[1K":
            cells[: col + 1] = [" "] * min(col + 1, len(cells))
        else:  # ESC[2K: the whole line
            cells = [" "] * col
        pos = match.end()
    _put(cells, col, line[pos:])
    return "".join(cells).rstrip(" ") if "\r" in line or "\x1b" in line else "".join(cells)


def _put(cells: list[str], col: int, text: str) -> int:
    if not text:
        return col
    if col > len(cells):
        cells.extend(" " * (col - len(cells)))
    cells[col : col + len(text)] = text
    return col + len(text)


def clean_terminal_output(text: str) -> str:
    """``text`` without escape sequences, carriage-return overdraws resolved per line."""
    if "\x1b" not in text and "\r" not in text and "\x9b" not in text and "\x07" not in text:
        return text
    text = _SEQUENCES.sub("", text.replace("\r\n", "\n"))
    lines = [_render(line) if "\r" in line or "\x1b" in line else line for line in text.split("\n")]
    return _LEFTOVER.sub("", "\n".join(lines))
