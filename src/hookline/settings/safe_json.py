"""Reading a JSON configuration file that someone else may have planted.

A settings file in a cloned project is attacker-controlled: it may be a link
to ``/dev/stdin`` (a read that never ends), ``/dev/zero`` (a read that never
stops growing), a FIFO, a huge file, or JSON nested deep enough to crash the
parser. ``read_json_file`` refuses all of these with a clear message before
(or instead of) reading:

- the path is opened with ``O_NONBLOCK`` (opening a FIFO never waits) and
  checked with ``fstat`` on the open descriptor (no race between check and
  read): only regular files are read;
- at most ``MAX_BYTES`` are read (one more byte than that is an error);
- nesting deeper than ``MAX_DEPTH`` is refused before ``json.loads`` runs.

Every refusal is a ``JsonFileError`` whose message starts with the path and,
for syntax errors, ``path:line:column``.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

#: Largest configuration file read (1 MiB); settings files are a few KB.
MAX_BYTES = 1024 * 1024
#: Deepest nesting of arrays/objects accepted (real settings nest about 6 deep).
MAX_DEPTH = 64


class JsonFileError(Exception):
    """A JSON file that could not be read or parsed; the message says where and why."""


class JsonFileMissing(JsonFileError):
    """The path does not exist (callers usually treat this as "no such source")."""


def read_json_file(
    path: Path, *, empty: Any = None, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH
) -> Any:
    """The parsed JSON of a regular file, or ``JsonFileError`` saying what was wrong.

    An empty (or whitespace-only) file reads as ``empty``.
    """
    text = read_text_file(path, max_bytes=max_bytes)
    if not text.strip():
        return empty
    return parse_json(text, str(path), max_depth=max_depth)


def read_text_file(path: Path, *, max_bytes: int = MAX_BYTES) -> str:
    """UTF-8 text (a BOM allowed) of a regular file of at most ``max_bytes``."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except (FileNotFoundError, NotADirectoryError):  # a file in the way of a folder: no file
        raise JsonFileMissing(f"{path}: no such file") from None
    except OSError as exc:
        raise JsonFileError(f"{path}: cannot open: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise JsonFileError(f"{path}: not a regular file ({_kind(info.st_mode)}); not read")
        if info.st_size > max_bytes:
            raise JsonFileError(
                f"{path}: file is {info.st_size} bytes; the limit is {max_bytes} bytes"
            )
        data = _read_at_most(fd, max_bytes + 1)
    except OSError as exc:
        raise JsonFileError(f"{path}: cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if len(data) > max_bytes:  # the file grew between fstat and read
        raise JsonFileError(f"{path}: file is over the limit of {max_bytes} bytes")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise JsonFileError(f"{path}: not UTF-8 text (byte {exc.start})") from None


def parse_json(text: str, where: str, *, max_depth: int = MAX_DEPTH) -> Any:
    """``json.loads`` after a nesting check; errors are ``where:line:column: message``."""
    depth_error = _too_deep(text, max_depth)
    if depth_error is not None:
        line, column = _line_column(text, depth_error)
        raise JsonFileError(
            f"{where}:{line}:{column}: JSON nested deeper than {max_depth} levels; not read"
        )
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise JsonFileError(f"{where}:{exc.lineno}:{exc.colno}: invalid JSON: {exc.msg}") from None
    except (ValueError, RecursionError) as exc:  # pragma: no cover - guarded by the depth check
        raise JsonFileError(f"{where}: invalid JSON: {exc}") from None


def _read_at_most(fd: int, limit: int) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while size < limit:
        chunk = os.read(fd, min(65536, limit - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def _too_deep(text: str, max_depth: int) -> int | None:
    """The offset where nesting first exceeds ``max_depth`` (strings skipped), else None."""
    depth = 0
    in_string = False
    escaped = False
    for offset, char in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > max_depth:
                return offset
        elif char in "]}":
            depth -= 1
    return None


def _line_column(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"
