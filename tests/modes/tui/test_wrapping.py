"""Notices, log records and printed lines wrap at words in the real app, never mid-word."""

from __future__ import annotations

from pathlib import Path

from .helpers import app
from .pane import WIDTH

#: Words of different lengths: a line cut at a fixed column would split one of them.
WORDS = " ".join(f"zq{'o' * (i % 7)}x{i}" for i in range(60))

LONG = f"""
import logging

log = logging.getLogger(__name__)

def register(pi):
    @pi.on("session_start")
    def start(event, ctx):
        log.warning("logged: {WORDS}")
        print("printed: {WORDS}")
        ctx.ui.notify("noticed: {WORDS}")
"""


def _rows_after(screen: str, start: str) -> list[str]:
    """The rows of the block that starts with ``start``, up to the next block."""
    rows = screen.splitlines()
    first = next(i for i, row in enumerate(rows) if row.lstrip("ℹ ").startswith(start))
    block = [rows[first]]
    for row in rows[first + 1 :]:
        if not row.strip() or row.startswith(("hookline:", "printed:", "ℹ", "─")):
            break
        block.append(row)
    return block


def test_long_notices_log_and_printed_lines_wrap_at_spaces(tmp_path: Path) -> None:
    with app(tmp_path, ["ok"], LONG) as pane:
        pane.ready()
        screen = pane.wait_flat([f"noticed: {WORDS}", f"printed: {WORDS}", f"logged: {WORDS}"])
        screen = pane.scrollback()
        for start in ("hookline: hook", "printed:", "noticed:"):
            block = _rows_after(screen, start)
            assert len(block) > 1, block  # it did wrap
            for row in block:
                assert len(row) <= WIDTH
                words = row.replace("ℹ", "").split()
                assert all(w in WORDS.split() or not w.startswith("zq") for w in words), row
        notice = _rows_after(screen, "noticed:")
        assert all(row.startswith("  ") for row in notice[1:])  # under the text, not the mark
