"""The ``read`` tool: a text file's lines (head kept), or an image as base64.

Files are read in a worker thread so a large file does not stall the event
loop (and with it every other hook and stream).
"""

from __future__ import annotations

import asyncio
import base64
from typing import Any

from hookline.core.messages import Content, text
from hookline.core.tool import Tool, ToolError, ToolResult, ToolUpdate
from hookline.tools._params import existing_file, is_binary, optional_int, require_str
from hookline.tools.details import ReadToolDetails
from hookline.tools.truncation import (
    DEFAULT_MAX_BYTES,
    DEFAULT_MAX_LINES,
    format_size,
    split_lines,
    truncate_head,
)

_DESCRIPTION = (
    "Read the contents of a file. Supports text files and images (png, jpg, gif, webp); "
    "images are returned as attachments. Text output is truncated to "
    f"{DEFAULT_MAX_LINES} lines or {DEFAULT_MAX_BYTES // 1024}KB (whichever is hit first). "
    "Use offset/limit for large files; offset is the 1-based line to start from."
)

_PARAMETERS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "path": {"type": "string", "description": "Path to the file (relative or absolute)"},
        "offset": {"type": "integer", "description": "Line number to start from (1-based)"},
        "limit": {"type": "integer", "description": "Maximum number of lines to read"},
    },
    "required": ["path"],
    "additionalProperties": False,
}


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


def _read_bytes(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read()


def _text_result(
    data: bytes, path: str, offset: int | None, limit: int | None, details: ReadToolDetails
) -> ToolResult:
    content = data.decode("utf-8-sig", errors="replace")
    lines = split_lines(content)
    start = (offset or 1) - 1
    if start and start >= len(lines):
        raise ToolError(
            f"read: offset {offset} is beyond the end of {path} ({len(lines)} lines). "
            "Use a smaller offset."
        )
    if not lines:
        return ToolResult([text("(empty file)")], details)
    end = len(lines) if limit is None else min(start + limit, len(lines))
    shown, trunc = truncate_head("\n".join(lines[start:end]))
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
            notice = (
                f"[Showing lines {start + 1}-{last} of {len(lines)}. "
                f"Use offset={last + 1} to continue.]"
            )
        shown = f"{shown}\n\n{notice}"
    elif end < len(lines):
        shown = (
            f"{shown}\n\n[{len(lines) - end} more lines in file. Use offset={end + 1} to continue.]"
        )
    return ToolResult([text(shown)], details)


def create_read_tool(cwd: str) -> Tool:
    """The ``read`` tool for ``cwd``."""

    async def execute(
        tool_call_id: str,
        params: dict[str, Any],
        signal: asyncio.Event | None = None,
        on_update: ToolUpdate | None = None,
    ) -> ToolResult:
        path = require_str("read", params, "path", empty_ok=False)
        offset = optional_int("read", params, "offset", minimum=1)
        limit = optional_int("read", params, "limit", minimum=1)
        full, outside = existing_file("read", cwd, path)
        try:
            data = await asyncio.to_thread(_read_bytes, full)
        except OSError as exc:
            raise ToolError(f"read: cannot read {path}: {exc.strerror or exc}") from exc
        details: ReadToolDetails = {"path": full, "outside_cwd": outside}
        mime = image_mime(data[:16])
        if mime is not None:
            details["mime_type"] = mime
            image: Content = {
                "type": "image",
                "data": base64.b64encode(data).decode("ascii"),
                "mime_type": mime,
            }
            return ToolResult([text(f"Read image file [{mime}]"), image], details)
        if is_binary(data):
            raise ToolError(
                f"read: {path} is a binary file ({format_size(len(data))}), not text or a "
                "png/jpg/gif/webp image. Use bash (e.g. file, xxd | head) to inspect it."
            )
        return _text_result(data, path, offset, limit, details)

    return Tool("read", _DESCRIPTION, _PARAMETERS, execute, label="read")
