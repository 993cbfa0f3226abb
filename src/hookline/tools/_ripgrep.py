"""ripgrep under ``grep`` and ``find``: the scan and the walk in native code, same answers.

The ``ripgrep`` wheel ships ``rg`` into the environment's scripts directory; it is
looked up there first, then on PATH. ``grep`` walks the tree itself and hands
ripgrep only the regular files it may read (never a FIFO, never a hidden path),
explicitly and in walk order, so ripgrep reads no ignore files and no config.
Matches are re-checked with Python's ``re`` (the tools' documented dialect), so
ripgrep only narrows the lines; a pattern that ripgrep cannot parse
(look-arounds, back-references) makes the caller fall back to the pure-Python
search.

``find`` lets ripgrep walk (``rg --files``): it reads only the tree's
``.gitignore`` files, as the pure-Python walk does. ripgrep opens a FIFO named
``.gitignore`` and waits for a writer forever, so the walk is watched: a
thread of ripgrep waiting on a FIFO, or no output for ``_STALL`` seconds,
kills it and the caller walks in Python instead.
"""

from __future__ import annotations

import base64
import json
import os
import selectors
import shutil
import stat
import subprocess
import sysconfig
import time
from asyncio import Event
from collections.abc import Generator
from dataclasses import dataclass
from functools import lru_cache

#: A JSON event longer than this (a file with a huge line) is not parsed: the caller
#: scans that file itself, in bounded pieces.
_EVENT_LIMIT = 1024 * 1024


@lru_cache(maxsize=1)
def find_ripgrep() -> str | None:
    """The ``rg`` binary: the ripgrep wheel's, beside this interpreter's scripts, or PATH's."""
    scripts = sysconfig.get_path("scripts")
    return shutil.which("rg", path=scripts) or shutil.which("rg")


class RipgrepUnusable(Exception):
    """ripgrep refused the search (a pattern it cannot parse): use the pure-Python path."""


@dataclass(frozen=True, slots=True)
class Line:
    """A line ripgrep reported (a match or context): 0-based number and text."""

    index: int
    text: str


def regular_files(root: str, rels: list[str]) -> list[str]:
    """The entries of ``rels`` that are regular files now: ripgrep would block reading a
    FIFO (or a device) it was handed, so only plain files are ever passed to it."""
    out = []
    for rel in rels:
        try:
            if stat.S_ISREG(os.stat(os.path.join(root, rel)).st_mode):
                out.append(rel)
        except OSError:
            continue
    return out


#: Files per ripgrep run: far below the kernel's argument limit.
_BATCH = 2000


def search(
    rg: str,
    root: str,
    files: list[str],
    pattern: str,
    *,
    ignore_case: bool,
    literal: bool,
    context: int,
) -> Generator[tuple[str, list[Line] | None], None, None]:
    """Search ``files`` (relative to ``root``, in that order) in batches; see ``_search``."""
    for start in range(0, len(files), _BATCH):
        yield from _search(
            rg,
            root,
            files[start : start + _BATCH],
            pattern,
            ignore_case=ignore_case,
            literal=literal,
            context=context,
        )


def _search(
    rg: str,
    root: str,
    files: list[str],
    pattern: str,
    *,
    ignore_case: bool,
    literal: bool,
    context: int,
) -> Generator[tuple[str, list[Line] | None], None, None]:
    """``(relative path, reported lines)`` per file with a match, in walk order; the lines
    are None for a file with a line too long to pass through (scan it directly).

    Closing the iterator early stops ripgrep. Raises ``RipgrepUnusable`` when
    ripgrep rejects the pattern before reporting anything.
    """
    # --text: every file is searched as text; the caller drops binary ones by the same
    # first-8-KiB test as the pure-Python scan (ripgrep's own test looks further).
    args = [rg, "--json", "--no-config", "--no-messages", "--threads", "1", "--text"]
    args += ["--encoding", "utf-8"]  # invalid bytes become U+FFFD, as Python decodes them
    args += ["--context", str(context)]
    if ignore_case:
        args.append("--ignore-case")
    if literal:
        args.append("--fixed-strings")
    args += ["--regexp", pattern, "--", *files]
    with _spawn(args, root) as proc:
        assert proc.stdout is not None
        path, seen_any = "", False
        lines: list[Line] | None = []
        while raw := proc.stdout.readline(_EVENT_LIMIT):
            if not raw.endswith(b"\n"):  # an overlong event: skip it in bounded pieces
                while (rest := proc.stdout.readline(_EVENT_LIMIT)) and not rest.endswith(b"\n"):
                    pass
                lines = None
                continue
            event = json.loads(raw)
            kind, data = event.get("type"), event.get("data", {})
            if kind == "begin":
                seen_any = True
                path, lines = _text(data.get("path", {})), []
            elif kind in ("match", "context") and lines is not None:
                text = _text(data.get("lines", {})).removesuffix("\n")
                lines.append(Line(int(data["line_number"]) - 1, text))
            elif kind == "end":
                yield path, lines
        proc.wait()
        if proc.returncode == 2 and not seen_any:
            raise RipgrepUnusable(
                proc.stderr.read().decode(errors="replace") if proc.stderr else ""
            )


def _text(field: dict[str, str]) -> str:
    """A ripgrep JSON text field: UTF-8 ``text``, or ``bytes`` (base64) decoded leniently."""
    if "text" in field:
        return field["text"]
    return base64.b64decode(field.get("bytes", "")).decode("utf-8", errors="replace")


class _spawn:
    """``rg`` in ``root``; on exit (early or not) it is killed and reaped."""

    def __init__(self, args: list[str], root: str) -> None:
        self.proc = subprocess.Popen(
            args,
            cwd=root,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )

    def __enter__(self) -> subprocess.Popen[bytes]:
        return self.proc

    def __exit__(self, *exc: object) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()


#: Seconds without output (and without exiting) after which a ``--files`` walk is
#: given up: a FIFO ignore file on a system without ``/proc`` to say so.
_STALL = 5.0

#: How often a quiet ``--files`` walk is checked for a thread stuck on a FIFO.
_POLL = 0.05

#: ``rg --files`` reading the tree's ``.gitignore`` files and nothing else: not the
#: parents', git's global or ``info/exclude`` files, ``.ignore``/``.rgignore`` or a
#: config; outside a git repository too. Hidden files are listed, ``.git`` never.
_FILES_ARGS = [
    "--files",
    "--null",
    "--hidden",
    "--no-config",
    "--no-messages",
    "--no-require-git",
    "--no-ignore-parent",
    "--no-ignore-global",
    "--no-ignore-exclude",
    "--no-ignore-dot",
    "--glob",
    "!.git",
]


def list_files(rg: str, root: str, *, signal: Event | None = None) -> set[str]:
    """The regular files under ``root`` that its ``.gitignore`` files do not exclude,
    relative to ``root`` with ``/``, in no order. Symbolic links, FIFOs and other
    special files are never listed (ripgrep does not follow or open them).

    Raises ``RipgrepUnusable`` when the walk stalls (a FIFO ignore file), fails
    before listing anything, or ``signal`` is set.
    """
    proc = subprocess.Popen(
        [rg, *_FILES_ARGS],
        cwd=root,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    try:
        data = _read_watched(proc, signal)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()
    if proc.returncode not in (0, 1) and not data:  # 2 with output: an unreadable folder
        raise RipgrepUnusable(f"rg --files exited with {proc.returncode}")
    names = os.fsdecode(data).split("\0")  # surrogate escapes, as os.scandir names them
    return {rel for rel in names if rel}


def _read_watched(proc: subprocess.Popen[bytes], signal: Event | None) -> bytes:
    """All of ``proc``'s output, unless it stalls or ``signal`` is set."""
    assert proc.stdout is not None
    fd = proc.stdout.fileno()
    chunks: list[bytes] = []
    last = time.monotonic()
    with selectors.DefaultSelector() as selector:
        selector.register(fd, selectors.EVENT_READ)
        while True:
            if signal is not None and signal.is_set():
                raise RipgrepUnusable("aborted")
            if selector.select(_POLL):
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    return b"".join(chunks)
                chunks.append(chunk)
                last = time.monotonic()
            elif _waits_on_fifo(proc.pid) or time.monotonic() - last > _STALL:
                raise RipgrepUnusable("rg --files stalled (a FIFO ignore file?)")


#: Where the kernel parks a thread opening a FIFO that has no other end.
_FIFO_WAITS = frozenset({"wait_for_partner", "fifo_open"})


def _waits_on_fifo(pid: int) -> bool:
    """Whether a thread of ``pid`` is blocked opening a FIFO (Linux ``/proc``; elsewhere
    False, and the stall timeout decides)."""
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return False
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/wchan") as f:
                if f.read().strip() in _FIFO_WAITS:
                    return True
        except OSError:
            continue
    return False
