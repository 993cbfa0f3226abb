"""Output truncation shared by the built-in tools (limits as in pi: 2000 lines / 50 KB).

The model's context is the scarce resource: every tool cuts its text output
by lines *and* bytes, whichever limit is hit first, and reports what it did
in a ``TruncationResult`` so hooks and UIs can tell the model (or the user)
where the rest is. ``read``/``ls``/``find``/``grep`` keep the head; ``bash``
keeps the tail, where errors and summaries usually are.

Lines are ``\\n``-separated; a final ``\\n`` ends the last line and does not
start a new one (``"a\\nb\\n"`` is 2 lines). Bytes are UTF-8 bytes.
"""

from __future__ import annotations

from typing import Literal

from typing_extensions import TypedDict

DEFAULT_MAX_LINES = 2000
DEFAULT_MAX_BYTES = 50 * 1024
#: ``grep`` cuts each matching line to this many characters.
GREP_MAX_LINE_LENGTH = 500


class TruncationResult(TypedDict):
    """What a truncation kept of a text; tools put it in ``details["truncation"]``."""

    truncated: bool
    truncated_by: Literal["lines", "bytes"] | None
    total_lines: int
    total_bytes: int
    output_lines: int
    output_bytes: int
    #: the edge line was cut inside (a single line longer than ``max_bytes``)
    last_line_partial: bool
    max_lines: int
    max_bytes: int


def split_lines(content: str) -> list[str]:
    """``content`` as lines; a trailing newline does not add an empty line."""
    if not content:
        return []
    lines = content.split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


def _nbytes(line: str) -> int:
    return len(line.encode("utf-8"))


def _cut_bytes(line: str, max_bytes: int, keep_end: bool) -> str:
    """At most ``max_bytes`` of ``line``'s head (or tail), on a character boundary."""
    raw = line.encode("utf-8")
    piece = raw[-max_bytes:] if keep_end else raw[:max_bytes]
    return piece.decode("utf-8", errors="ignore")


def _result(
    lines: list[str],
    kept: list[str],
    total_bytes: int,
    by: Literal["lines", "bytes"] | None,
    partial: bool,
    max_lines: int,
    max_bytes: int,
) -> TruncationResult:
    out_bytes = sum(_nbytes(x) for x in kept) + max(len(kept) - 1, 0)
    return {
        "truncated": by is not None,
        "truncated_by": by,
        "total_lines": len(lines),
        "total_bytes": total_bytes,
        "output_lines": len(kept),
        "output_bytes": out_bytes,
        "last_line_partial": partial,
        "max_lines": max_lines,
        "max_bytes": max_bytes,
    }


def _truncate(
    content: str, max_lines: int, max_bytes: int, keep_end: bool
) -> tuple[str, TruncationResult]:
    lines = split_lines(content)
    total_bytes = _nbytes(content)
    if len(lines) <= max_lines and total_bytes <= max_bytes:
        return content, _result(lines, lines, total_bytes, None, False, max_lines, max_bytes)
    kept: list[str] = []
    size = 0
    by: Literal["lines", "bytes"] = "lines"
    partial = False
    order = reversed(lines) if keep_end else iter(lines)
    for line in order:
        if len(kept) >= max_lines:
            by = "lines"
            break
        cost = _nbytes(line) + (1 if kept else 0)
        if size + cost > max_bytes:
            by = "bytes"
            if not kept:  # one line alone is over the limit: keep a piece of it
                kept.append(_cut_bytes(line, max_bytes, keep_end))
                partial = True
            break
        kept.append(line)
        size += cost
    if keep_end:
        kept.reverse()
    result = _result(lines, kept, total_bytes, by, partial, max_lines, max_bytes)
    return "\n".join(kept), result


def truncate_head(
    content: str, max_lines: int = DEFAULT_MAX_LINES, max_bytes: int = DEFAULT_MAX_BYTES
) -> tuple[str, TruncationResult]:
    """Keep the first whole lines that fit (file reads, listings, search results)."""
    return _truncate(content, max_lines, max_bytes, keep_end=False)


def truncate_tail(
    content: str, max_lines: int = DEFAULT_MAX_LINES, max_bytes: int = DEFAULT_MAX_BYTES
) -> tuple[str, TruncationResult]:
    """Keep the last whole lines that fit (command output: errors come last)."""
    return _truncate(content, max_lines, max_bytes, keep_end=True)


def truncate_line(line: str, max_chars: int = GREP_MAX_LINE_LENGTH) -> tuple[str, bool]:
    """One line cut to ``max_chars`` characters with a marker; True when it was cut."""
    if len(line) <= max_chars:
        return line, False
    return line[:max_chars] + "... [truncated]", True


def format_size(n: int) -> str:
    """A byte count for humans: ``512B``, ``50.0KB``, ``1.2MB``."""
    if n < 1024:
        return f"{n}B"
    if n < 1024 * 1024:
        return f"{n / 1024:.1f}KB"
    return f"{n / (1024 * 1024):.1f}MB"
