"""Where in a hook's own file it failed: ``file:line`` for messages, the traceback for --verbose."""

from __future__ import annotations

import os
import traceback


def hook_location(hook_path: str, exc: BaseException | None) -> str | None:
    """``path:line`` of the innermost frame of ``exc`` in the hook's file, else ``None``.

    Frames of other files (hookline, libraries the hook calls) are passed over:
    the line a hook author can act on is their own.
    """
    if exc is None or not hook_path or ":" in hook_path.split(os.sep)[0]:
        return None
    real = os.path.realpath(hook_path)
    found = None
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename and os.path.realpath(frame.filename) == real:
            found = f"{hook_path}:{frame.lineno}"
    if found is None and isinstance(exc, SyntaxError) and exc.filename and exc.lineno:
        found = f"{hook_path}:{exc.lineno}" if os.path.realpath(exc.filename) == real else None
    return found


def hook_traceback(exc: BaseException | None) -> str:
    """The exception's traceback as text (``""`` without one)."""
    if exc is None or exc.__traceback__ is None:
        return ""
    return "".join(traceback.format_exception(exc)).rstrip("\n")
