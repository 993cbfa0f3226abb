"""Hook text injected into the model is capped, as Claude Code caps it.

Past ``MAX_CONTEXT_CHARS`` characters the whole text is saved to a file and
the model gets the beginning plus a note naming the file (it can read the
rest with its tools), so one chatty hook cannot flood the context window.
"""

from __future__ import annotations

import os
import tempfile

#: Longest hook text injected as is (Claude Code's documented 10,000 characters).
MAX_CONTEXT_CHARS = 10_000


def cap_context(text: str, limit: int = MAX_CONTEXT_CHARS) -> str:
    """``text`` if short enough, else a preview of at most ``limit`` characters naming
    the file that holds all of it (written owner-only)."""
    if len(text) <= limit:
        return text
    fd, path = tempfile.mkstemp(prefix="hookline-hook-output-", suffix=".txt")
    with os.fdopen(fd, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(text)
    note = (
        f"\n\n[hook output cut: {len(text)} characters in all, over the {limit}-character "
        f"limit; the full text is in {path}]"
    )
    return text[: max(0, limit - len(note))] + note
