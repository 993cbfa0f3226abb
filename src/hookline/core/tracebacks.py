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
    """The traceback of the hook's own code, for ``--verbose``; ``""`` where it would add
    nothing to the one-line message.

    hookline's frames (the runner, the loader) and the import machinery's are left
    out: they are the same for every hook. A syntax error, or a failure whose one
    remaining frame is the ``file:line`` the message names (an import error, a bad
    registration), has nothing to add.
    """
    if exc is None or exc.__traceback__ is None or isinstance(exc, SyntaxError):
        return ""
    shown = traceback.TracebackException.from_exception(exc)
    parts = _chain(shown)
    for part in parts:
        part.stack = traceback.StackSummary.from_list([f for f in part.stack if _own(f)])
    if sum(len(part.stack) for part in parts) <= 1:
        return ""
    return "".join(shown.format()).rstrip("\n")


def _chain(top: traceback.TracebackException) -> list[traceback.TracebackException]:
    """The exception and those it was raised from or during, each once."""
    out: list[traceback.TracebackException] = []
    todo = [top]
    while todo:
        part = todo.pop()
        if any(part is seen for seen in out):
            continue
        out.append(part)
        context = None if part.__suppress_context__ else part.__context__
        todo += [p for p in (part.__cause__, context) if p is not None]
    return out


#: hookline's own source folder: its frames are not the hook author's.
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def _own(frame: traceback.FrameSummary) -> bool:
    """Whether a frame is the hook's (or a library it called), not hookline's or importlib's."""
    name = frame.filename or ""
    return not (name.startswith("<frozen ") or os.path.abspath(name).startswith(_PACKAGE))
