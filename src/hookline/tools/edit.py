"""The ``write`` and ``edit`` tools: whole-file writes and exact, unique replacements.

``edit`` insists that ``oldText`` occurs exactly once: a replacement in the
wrong place is worse than an error the model can fix by adding context.
CRLF files and a UTF-8 BOM are kept as they were. Both work on regular files
only: a FIFO, a device or a socket (or a symlink to one, such as
``/dev/stdout``) is refused before it is opened for a write that could block
or reach the host's own streams.
"""

from __future__ import annotations

import asyncio
import contextlib
import difflib
import errno
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hookline.core.messages import text
from hookline.core.tool import Tool, ToolError, ToolResult, ToolUpdate
from hookline.core.tool_params import parse_arguments
from hookline.tools._files import open_for_read, open_for_write, too_large
from hookline.tools._params import display_path, is_binary, resolve_path
from hookline.tools.details import EditToolDetails, WriteToolDetails
from hookline.tools.schemas import params_ref

if TYPE_CHECKING:
    from rich.console import RenderableType

    from hookline.tools.operations import EditOperations, WriteOperations

#: The parameter models' module, imported when a tool first runs or sends its schema.

_BOM = "\ufeff"


#: ``edit`` reads the whole file; larger files are refused (use bash: sed, a script).
MAX_EDIT_BYTES = 32 * 1024 * 1024


def _write_file(full: str, path: str, tool: str, data: bytes) -> bool:
    """Write ``data`` to the regular file ``full`` (created with its parents); True when
    it was created. A FIFO, device or socket is refused, never opened for a blocking write.

    The space is reserved before the old content is touched: on a full disk (or over a
    file size limit) the write fails and the file is left as it was. The file is written
    in place, so its inode, mode, links and symlinks stay.
    """
    os.makedirs(os.path.dirname(full) or ".", exist_ok=True)
    fd, created = open_for_write(tool, path, full)
    try:
        _reserve(fd, len(data))
    except OSError:
        os.close(fd)
        if created:
            with contextlib.suppress(OSError):
                os.unlink(full)
        raise
    with os.fdopen(fd, "wb") as f:
        f.write(data)
        f.truncate(len(data))
    return created


def _reserve(fd: int, size: int) -> None:
    """Allocate ``size`` bytes for ``fd``; a file system without the call is not an error."""
    if size == 0:
        return
    try:
        os.posix_fallocate(fd, 0, size)
    except OSError as exc:
        if exc.errno not in (errno.EOPNOTSUPP, errno.EINVAL, errno.ENOSYS):
            raise


def _read_file(full: str, path: str) -> bytes:
    fd, st = open_for_read("edit", path, full)
    with os.fdopen(fd, "rb") as f:
        if st.st_size > MAX_EDIT_BYTES:
            raise too_large(
                "edit", path, st.st_size, MAX_EDIT_BYTES, "Use bash (e.g. sed -i) to change it."
            )
        return f.read(MAX_EDIT_BYTES + 1)


def _io_error(tool: str, verb: str, path: str, exc: Exception) -> ToolError:
    reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
    return ToolError(f"{tool}: cannot {verb} {path}: {reason}")


async def _write_through(ops: WriteOperations, full: str, content: str) -> bool:
    """Write with ``ops``; whether the file was created is not known there (False)."""
    await ops.mkdir(os.path.dirname(full) or ".")
    await ops.write_file(full, content)
    return False


def create_write_tool(cwd: str, *, operations: WriteOperations | None = None) -> Tool:
    """The ``write`` tool for ``cwd``: creates parent directories, overwrites files;
    ``operations`` writes them somewhere else (``hookline.tools.operations``)."""

    async def execute(
        tool_call_id: str,
        params: dict[str, Any],
        signal: asyncio.Event | None = None,
        on_update: ToolUpdate | None = None,
    ) -> ToolResult:
        from hookline.tools.params import WriteParams  # pydantic: on first call

        args = parse_arguments("write", WriteParams, params)
        path, content = args.path, args.content
        full, outside = resolve_path(cwd, path)
        data = content.encode("utf-8")
        try:
            if operations is not None:
                created = await _write_through(operations, full, content)
            else:
                created = await asyncio.to_thread(_write_file, full, path, "write", data)
        except ToolError:
            raise
        except Exception as exc:  # OSError, or an operations object's own error
            raise _io_error("write", "write", path, exc) from exc
        details: WriteToolDetails = {
            "path": full,
            "outside_cwd": outside,
            "bytes": len(data),
            "created": created,
        }
        shown = display_path(cwd, full)
        return ToolResult([text(f"Successfully wrote {len(data)} bytes to {shown}")], details)

    return Tool(
        "write",
        "Write content to a file. Creates the file if it does not exist, overwrites it if it "
        "does, and creates parent directories.",
        params_ref("WriteParams"),
        execute,
        label="write",
        meta={"render_preview": _write_preview},
    )


def _replace(content: str, old: str, new: str, path: str) -> tuple[str, int]:
    """The new content and the index of the single match; ToolError when not exactly one."""
    count = content.count(old)
    if count == 0:
        raise ToolError(
            f"edit: could not find oldText in {path}. It must match the file exactly, "
            "including whitespace, indentation and line breaks; read the file and copy the text."
        )
    if count > 1:
        raise ToolError(
            f"edit: oldText occurs {count} times in {path}; it must be unique. "
            "Include more surrounding lines in oldText so it matches exactly one place."
        )
    index = content.index(old)
    return content[:index] + new + content[index + len(old) :], index


@dataclass(frozen=True, slots=True)
class _Edit:
    """One edit worked out in memory: the text before and after (line ends as ``\\n``),
    where the match starts, and the bytes to write (BOM and CRLF kept)."""

    before: str
    after: str
    index: int
    data: bytes


def _edited(raw: bytes, path: str, old: str, new: str) -> _Edit:
    """What replacing ``old`` with ``new`` in the file's bytes ``raw`` gives, or the
    ``ToolError`` the edit fails with. The call and its preview both go through here."""
    if is_binary(raw):
        raise ToolError(f"edit: {path} is a binary file; edit only changes text files.")
    original = raw.decode("utf-8", errors="surrogateescape")
    bom = _BOM if original.startswith(_BOM) else ""
    # only a file with CRLF everywhere is normalised; a mixed one is matched as it is
    crlf = "\r\n" in original and original.count("\n") == original.count("\r\n")
    body = original[len(bom) :]
    if crlf:
        body = body.replace("\r\n", "\n")
    old_n, new_n = old.replace("\r\n", "\n"), new.replace("\r\n", "\n")
    if old_n == new_n:
        raise ToolError(
            "edit: oldText and newText are identical, so nothing would change. "
            "Give the new text in newText."
        )
    updated, index = _replace(body, old_n, new_n, path)
    out = updated.replace("\n", "\r\n") if crlf else updated
    data = (bom + out).encode("utf-8", errors="surrogateescape")
    return _Edit(body, updated, index, data)


def _diff(before: str, after: str, name: str) -> str:
    lines = difflib.unified_diff(
        before.splitlines(keepends=True),
        after.splitlines(keepends=True),
        fromfile=f"a/{name}",
        tofile=f"b/{name}",
    )
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


async def _edit_read(ops: EditOperations | None, full: str, path: str) -> bytes:
    if ops is None:
        return await asyncio.to_thread(_read_file, full, path)
    await ops.access(full)
    raw = await ops.read_file(full)
    if len(raw) > MAX_EDIT_BYTES:
        raise too_large(
            "edit", path, len(raw), MAX_EDIT_BYTES, "Use bash (e.g. sed -i) to change it."
        )
    return raw


async def _edit_write(ops: EditOperations | None, full: str, path: str, data: bytes) -> None:
    if ops is None:
        await asyncio.to_thread(_write_file, full, path, "edit", data)
    else:
        await ops.write_file(full, data.decode("utf-8", errors="surrogateescape"))


def create_edit_tool(cwd: str, *, operations: EditOperations | None = None) -> Tool:
    """The ``edit`` tool for ``cwd``: replace one exact occurrence of ``oldText``;
    ``operations`` reads and writes the file somewhere else (``hookline.tools.operations``)."""

    async def execute(
        tool_call_id: str,
        params: dict[str, Any],
        signal: asyncio.Event | None = None,
        on_update: ToolUpdate | None = None,
    ) -> ToolResult:
        from hookline.tools.params import EditParams  # pydantic: on first call

        args = parse_arguments("edit", EditParams, params)
        path, old, new = args.path, args.old_text, args.new_text
        full, outside = resolve_path(cwd, path)
        try:
            raw = await _edit_read(operations, full, path)
        except ToolError:
            raise
        except Exception as exc:
            raise _io_error("edit", "read", path, exc) from exc
        edit = _edited(raw, path, old, new)
        try:
            await _edit_write(operations, full, path, edit.data)
        except ToolError:
            raise
        except Exception as exc:
            raise _io_error("edit", "write", path, exc) from exc
        shown = display_path(cwd, full)
        details: EditToolDetails = {
            "path": full,
            "outside_cwd": outside,
            "diff": _diff(edit.before, edit.after, shown),
            "first_changed_line": edit.before.count("\n", 0, edit.index) + 1,
        }
        return ToolResult([text(f"Successfully replaced text in {shown}.")], details)

    return Tool(
        "edit",
        "Edit a file by replacing exact text. oldText must match exactly one place in the "
        "file, including whitespace; use it for precise, surgical edits.",
        params_ref("EditParams"),
        execute,
        label="edit",
        # the preview reads the local file: none for files that live elsewhere
        meta={"render_preview": _edit_preview(cwd)} if operations is None else {},
    )


#: A tool's ``meta["render_preview"]``: ``(args, options)`` to what the approval shows.
Preview = Callable[[dict[str, Any], dict[str, Any]], "RenderableType"]


def _write_preview(args: dict[str, Any], options: dict[str, Any]) -> RenderableType:
    """The content a ``write`` call will put in its file, highlighted by the file's type."""
    from hookline.tools import _preview
    from hookline.tools.params import WriteParams

    try:
        call = parse_arguments("write", WriteParams, args)
    except ToolError as exc:
        return _preview.problem_preview(str(exc))
    return _preview.file_preview(call.path, call.content)


def _edit_preview(cwd: str) -> Preview:
    """The unified diff of an ``edit`` call: the file on disk against the edited text,
    worked out by the edit itself (``_edited``); why it will fail when it would."""

    def preview(args: dict[str, Any], options: dict[str, Any]) -> RenderableType:
        from hookline.tools import _preview
        from hookline.tools.params import EditParams

        try:
            call = parse_arguments("edit", EditParams, args)
            full, _ = resolve_path(cwd, call.path)
            try:
                raw = _read_file(full, call.path)
            except OSError as exc:
                raise ToolError(f"edit: cannot read {call.path}: {exc.strerror or exc}") from exc
            edit = _edited(raw, call.path, call.old_text, call.new_text)
        except ToolError as exc:
            return _preview.problem_preview(str(exc))
        return _preview.diff_preview(_diff(edit.before, edit.after, display_path(cwd, full)))

    return preview
