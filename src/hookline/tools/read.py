"""The ``read`` tool: a text file's lines (head kept), or an image as base64.

Files are read in a worker thread so a large file does not stall the event
loop (and with it every other hook and stream), and read as a stream: only the
lines from ``offset`` up to ``limit`` and the output caps are kept, so two lines
of a 1 GB file cost kilobytes. Only regular files are read: a FIFO, a device
(``/dev/zero``, ``/dev/stdin``) or a socket is refused before anything blocks.
Whether a file is binary is decided on its first 8 KB.
"""

from __future__ import annotations

import asyncio
import base64
import io
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, BinaryIO

from hookline.core.messages import Content, text
from hookline.core.tool import Tool, ToolError, ToolResult, ToolUpdate
from hookline.core.tool_params import parse_arguments
from hookline.tools._files import open_for_read, too_large
from hookline.tools._params import is_binary, resolve_path
from hookline.tools.details import ReadToolDetails
from hookline.tools.schemas import params_ref
from hookline.tools.truncation import (
    DEFAULT_MAX_BYTES,
    DEFAULT_MAX_LINES,
    format_size,
    truncate_head,
)

if TYPE_CHECKING:
    from hookline.tools.operations import ReadOperations

#: The parameter models' module, imported when a tool first runs or sends its schema.

_DESCRIPTION = (
    "Read the contents of a file. Supports text files and images (png, jpg, gif, webp); "
    "images are returned as attachments. Text output is truncated to "
    f"{DEFAULT_MAX_LINES} lines or {DEFAULT_MAX_BYTES // 1024}KB (whichever is hit first). "
    "Use offset/limit for large files; offset is the 1-based line to start from."
)


def image_mime(head: bytes) -> str | None:
    """The MIME type of a png/jpeg/gif/webp image from its magic bytes, else None."""
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if head.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if head.startswith((b"GIF87a", b"GIF89a")):
        return "image/gif"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "image/webp"
    return None


#: Images larger than this are refused (a model takes a few MB at most).
MAX_IMAGE_BYTES = 20 * 1024 * 1024
#: Files up to this size are counted to the end ("of N lines"); larger ones are not.
COUNT_LIMIT = 16 * 1024 * 1024
_SNIFF = 8192
_CHUNK = 64 * 1024
_SKIP_CHUNK = 1024 * 1024


@dataclass(slots=True)
class _Window:
    """The lines read from ``start``: only as many as the limits can show."""

    lines: list[str] = field(default_factory=list)
    #: lines and bytes (joined by newlines) from ``start`` to the window's end, when known
    window_lines: int | None = None
    window_bytes: int | None = None
    #: lines in the whole file, when known
    file_lines: int | None = None
    #: whether anything follows the window's end
    more: bool = False


def _never() -> bool:
    return False


def _skip_rest(f: BinaryIO, piece: bytes, stop: Callable[[], bool] = _never) -> int:
    """Read past the rest of a line whose start was ``piece``; its remaining byte count."""
    if not piece or piece.endswith(b"\n"):
        return 0
    extra = 0
    while chunk := f.read(_SKIP_CHUNK):
        if stop():
            raise ToolError("read: aborted")
        end = chunk.find(b"\n")
        if end >= 0:
            f.seek(end + 1 - len(chunk), os.SEEK_CUR)
            return extra + end + 1
        extra += len(chunk)
    return extra


def _count_rest(f: BinaryIO, lines: int | None) -> tuple[int, int, bool]:
    """Count up to ``lines`` more lines (all, for None) from here: (lines, raw bytes, eof)."""
    count = nbytes = 0
    if lines is None:
        last = b""
        while chunk := f.read(1 << 20):
            count += chunk.count(b"\n")
            nbytes += len(chunk)
            last = chunk[-1:]
        return count + (1 if last not in (b"", b"\n") else 0), nbytes, True
    while count < lines:
        piece = f.readline(_CHUNK)
        if not piece:
            return count, nbytes, True
        nbytes += len(piece) + _skip_rest(f, piece)
        count += 1
    return count, nbytes, False


def _ends_line(f: BinaryIO) -> bool:
    """Whether the byte before the current position is a newline (position kept)."""
    pos = f.tell()
    if pos == 0:
        return False
    f.seek(pos - 1)
    last = f.read(1)
    return last == b"\n"


def _read_window(
    f: BinaryIO, size: int, start: int, limit: int | None, stop: Callable[[], bool] = _never
) -> _Window:
    """Read lines ``start`` (0-based) on, streaming: memory is bounded by the output limits,
    whatever the file's size; only a file up to ``COUNT_LIMIT`` is read to its end. Skipping
    to ``start`` (the one unbounded part) checks ``stop`` as it goes."""
    win = _Window()
    for skipped in range(start):
        piece = f.readline(_CHUNK)
        if not piece:
            win.file_lines = skipped
            return win
        _skip_rest(f, piece, stop)
        if not skipped % 4096 and stop():
            raise ToolError("read: aborted")
    want = DEFAULT_MAX_LINES + 1 if limit is None else min(limit, DEFAULT_MAX_LINES + 1)
    kept = raw = 0
    eof = False
    while len(win.lines) < want and kept <= DEFAULT_MAX_BYTES:
        piece = f.readline(DEFAULT_MAX_BYTES + 1)
        if not piece:
            eof = True
            break
        raw += len(piece) + _skip_rest(f, piece)
        line = piece[:-1] if piece.endswith(b"\n") else piece
        codec = "utf-8-sig" if start == 0 and not win.lines else "utf-8"
        win.lines.append(line.decode(codec, errors="replace"))
        kept += len(line) + 1
    if size <= COUNT_LIMIT:
        rest = None if limit is None else limit - len(win.lines)
        more_lines, more_bytes, window_eof = (0, 0, eof) if eof else _count_rest(f, rest)
        win.window_lines = len(win.lines) + more_lines
        win.window_bytes = raw + more_bytes - (1 if _ends_line(f) else 0)
        after = 0 if window_eof else _count_rest(f, None)[0]
        win.file_lines = start + win.window_lines + after
        win.more = after > 0
    else:
        win.more = not eof and bool(f.read(1))
    return win


def _read_file(
    full: str, path: str, start: int, limit: int | None, stop: Callable[[], bool]
) -> _Window | bytes:
    """The window of a text file, or the bytes of an image; ToolError for anything else."""
    fd, st = open_for_read("read", path, full)
    try:
        with os.fdopen(fd, "rb") as f:
            return _read_open(f, st.st_size, path, start, limit, stop)
    except BlockingIOError as exc:  # the fd stays O_NONBLOCK: a read never hangs
        raise ToolError(
            f"read: {path} has no data to read now (a pseudo-file that blocks); "
            "read only reads regular files."
        ) from exc
    except OSError as exc:
        raise ToolError(f"read: cannot read {path}: {exc.strerror or exc}") from exc


def _read_open(
    f: BinaryIO, size: int, path: str, start: int, limit: int | None, stop: Callable[[], bool]
) -> _Window | bytes:
    head = f.read(_SNIFF)
    if head is None:  # a non-blocking pseudo-file with nothing to give
        raise BlockingIOError
    if image_mime(head[:16]) is not None:
        if size > MAX_IMAGE_BYTES:
            raise too_large(
                "read",
                path,
                size,
                MAX_IMAGE_BYTES,
                "Resize it (e.g. with ImageMagick) or inspect it with bash.",
            )
        return head + f.read(MAX_IMAGE_BYTES + 1 - len(head))
    if is_binary(head):
        raise ToolError(
            f"read: {path} is a binary file ({format_size(size)}), not text or a "
            "png/jpg/gif/webp image. Use bash (e.g. file, xxd | head) to inspect it."
        )
    f.seek(0)
    return _read_window(f, size, start, limit, stop)


def _text_result(
    win: _Window, path: str, offset: int | None, limit: int | None, details: ReadToolDetails
) -> ToolResult:
    start = (offset or 1) - 1
    if start and not win.lines:
        count = "" if win.file_lines is None else f" ({win.file_lines} lines)"
        raise ToolError(
            f"read: offset {offset} is beyond the end of {path}{count}. Use a smaller offset."
        )
    if not win.lines:
        return ToolResult([text("(empty file)")], details)
    lines = win.lines if limit is None else win.lines[:limit]
    end = start + len(lines)
    shown, trunc = truncate_head("\n".join(lines))
    if win.window_lines is not None and win.window_bytes is not None:
        trunc["total_lines"] = win.window_lines
        trunc["total_bytes"] = win.window_bytes
    of = "" if win.file_lines is None else f" of {win.file_lines}"
    if trunc["truncated"]:
        details["truncation"] = trunc
        last = start + trunc["output_lines"]
        if trunc["last_line_partial"]:
            notice = (
                f"[Line {last} is longer than {format_size(trunc['max_bytes'])}; only its start "
                f"is shown. Use bash (e.g. sed -n '{last}p' {path} | cut -c 1-100000) to see "
                f"more, or offset={last + 1} to go on.]"
            )
        else:
            notice = f"[Showing lines {start + 1}-{last}{of}. Use offset={last + 1} to continue.]"
        shown = f"{shown}\n\n{notice}"
    elif win.more:
        more = "More lines" if win.file_lines is None else f"{win.file_lines - end} more lines"
        shown = f"{shown}\n\n[{more} in file. Use offset={end + 1} to continue.]"
    return ToolResult([text(shown)], details)


async def _read_through(
    ops: ReadOperations,
    full: str,
    path: str,
    start: int,
    limit: int | None,
    stop: Callable[[], bool],
) -> _Window | bytes:
    """``_read_file`` with the bytes from ``ops``: the same checks on what they hold."""
    try:
        await ops.access(full)
        data = await ops.read_file(full)
    except ToolError:
        raise
    except Exception as exc:
        raise ToolError(f"read: cannot read {path}: {exc}") from exc
    return await asyncio.to_thread(
        _read_open, io.BytesIO(data), len(data), path, start, limit, stop
    )


def create_read_tool(cwd: str, *, operations: ReadOperations | None = None) -> Tool:
    """The ``read`` tool for ``cwd``; ``operations`` reads the files somewhere else
    (``hookline.tools.operations``)."""

    async def execute(
        tool_call_id: str,
        params: dict[str, Any],
        signal: asyncio.Event | None = None,
        on_update: ToolUpdate | None = None,
    ) -> ToolResult:
        from hookline.tools.params import ReadParams  # pydantic: on first call

        args = parse_arguments("read", ReadParams, params)
        path, offset, limit = args.path, args.offset, args.limit
        full, outside = resolve_path(cwd, path)
        stop = signal.is_set if signal is not None else _never
        start = (offset or 1) - 1
        if operations is not None:
            got = await _read_through(operations, full, path, start, limit, stop)
        else:
            got = await asyncio.to_thread(_read_file, full, path, start, limit, stop)
        details: ReadToolDetails = {"path": full, "outside_cwd": outside}
        if isinstance(got, bytes):
            mime = image_mime(got[:16]) or "application/octet-stream"
            details["mime_type"] = mime
            image: Content = {
                "type": "image",
                "data": base64.b64encode(got).decode("ascii"),
                "mime_type": mime,
            }
            return ToolResult([text(f"Read image file [{mime}]"), image], details)
        return _text_result(got, path, offset, limit, details)

    return Tool("read", _DESCRIPTION, params_ref("ReadParams"), execute, label="read")
