"""A private stdout for machine-read output (the answer, JSON lines, the RPC protocol).

Hooks run in-process and may ``print()``, and programs they spawn inherit fd 1:
either would corrupt a JSON-lines stream. ``claim_stdout`` keeps a private
duplicate of the real stdout for the protocol and points fd 1 (so
``sys.stdout`` and every child process) at stderr for the rest of the run.
"""

from __future__ import annotations

import io
import os
import sys
from typing import TextIO

from hookline.tools._files import protect_stream


def claim_stdout() -> TextIO:
    """The real stdout as a private stream; from now on fd 1 writes to stderr.

    Call it once, before any hook is imported. When stdout cannot be
    duplicated (closed), ``sys.stdout`` is returned unchanged.
    """
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
        private = os.dup(1)
        os.dup2(2, 1)
    except (OSError, ValueError):
        return sys.stdout
    os.set_inheritable(private, False)
    protect_stream(private)  # a file tool never writes into the answer or the protocol
    raw = io.FileIO(private, "w", closefd=True)
    return io.TextIOWrapper(
        io.BufferedWriter(raw), encoding="utf-8", errors="replace", line_buffering=True
    )


def fill_closed_fds() -> None:
    """Point a closed fd 0, 1 or 2 (``hookline -p x >&-``) at ``/dev/null``.

    Call it first, before the event loop exists. Otherwise the next file opened
    (the loop's epoll fd, a session file) would take its number, and
    whatever writes to "stdout" or "stderr", a child process above all, would
    write into that file.
    """
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            try:
                null = os.open(os.devnull, os.O_RDWR)
            except OSError:
                return
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
