"""JSON lines on the wire: how stdin is read, cut into lines and each line decoded.

Kept apart from the server so each rule is one small function with its own
tests: no line length, nesting depth or kind of stdin can kill the server.
``serve --stdio`` reads its lines with the same rules.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import stat
import sys
import threading
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

#: The longest command line read (a 10 MB prompt is fine); longer ones are refused.
MAX_LINE_BYTES = 64 * 1024 * 1024
_CHUNK = 1024 * 1024


@dataclass(frozen=True, slots=True)
class LineTooLong:
    """A line over the limit: dropped without being kept in memory; its size is reported."""

    size: int


async def read_lines(
    stream: asyncio.StreamReader, limit: int = MAX_LINE_BYTES
) -> AsyncIterator[bytes | LineTooLong]:
    """Each ``\\n``-ended line (without it), of any length up to ``limit`` bytes.

    ``StreamReader.readline`` raises past its 64 KiB buffer and leaves the
    stream mid-line; here a longer line is read in chunks, and one over
    ``limit`` is skipped to its end and reported, so the next line is whole.
    A last line without ``\\n`` still counts.
    """
    buffer = bytearray()
    dropped = 0  # bytes of an over-long line skipped so far
    while chunk := await stream.read(_CHUNK):
        start = 0
        while (end := chunk.find(b"\n", start)) != -1:
            size = dropped + len(buffer) + end - start
            if dropped or size > limit:
                yield LineTooLong(size)
            else:
                buffer += chunk[start:end]
                yield bytes(buffer)
            buffer.clear()
            dropped = 0
            start = end + 1
        rest = len(chunk) - start
        if dropped or len(buffer) + rest > limit:
            dropped += len(buffer) + rest
            buffer.clear()
        else:
            buffer += chunk[start:]
    if dropped:
        yield LineTooLong(dropped)
    elif buffer:
        yield bytes(buffer)


async def open_stdin() -> asyncio.StreamReader:
    """The process's stdin as a stream, whatever it is.

    Pipes, sockets and terminals are watched by the event loop; a regular
    file (``hookline --mode rpc < commands.jsonl``) or ``/dev/null``, which
    the loop cannot watch, is read by a daemon thread. A closed stdin is EOF.
    """
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    try:
        fd = sys.stdin.fileno()
        mode = os.fstat(fd).st_mode
    except (OSError, ValueError, AttributeError):
        reader.feed_eof()
        return reader
    if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or os.isatty(fd):
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    else:
        threading.Thread(
            target=_pump, args=(loop, reader, fd), name="hookline-rpc-stdin", daemon=True
        ).start()
    return reader


def _pump(loop: asyncio.AbstractEventLoop, reader: asyncio.StreamReader, fd: int) -> None:
    """Feed ``fd`` to ``reader`` from a thread (reads of regular files never block for long)."""
    try:
        while chunk := os.read(fd, _CHUNK):
            loop.call_soon_threadsafe(reader.feed_data, chunk)
    except OSError:
        pass  # an unreadable stdin ends like an empty one
    finally:
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody reads any more
            loop.call_soon_threadsafe(reader.feed_eof)


def parse_command(text: str) -> dict[str, Any]:
    """One command object, or ``ValueError`` saying what is wrong (never another error).

    Deep nesting raises ``RecursionError`` inside ``json``; it is a bad line
    like any other.
    """
    try:
        message = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"invalid JSON at column {exc.colno}: {exc.msg}") from None
    except RecursionError:
        raise ValueError("invalid JSON: nested too deeply") from None
    except ValueError as exc:  # e.g. an integer of more digits than Python converts
        raise ValueError(f"invalid JSON: {exc}") from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise ValueError('expected an object with a string "type"')
    request_id = message.get("id")
    if request_id is not None and (
        isinstance(request_id, bool) or not isinstance(request_id, str | int)
    ):
        message.pop("id")  # never echo it back: it may be as deep as the parser allows
        raise ValueError('"id" must be a string or an integer')
    return message
