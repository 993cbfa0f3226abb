"""Sessions: resume, later model calls, a million entries, appends — each beside its floor.

- resume 100 000 entries to the first model call (``open`` + the context) vs
  reading the file and ``json.loads`` of every line, the GC treated the same
  way (paused while parsing, the result frozen);
- a later model call (one append + the context) vs copying a list of the
  context's size;
- a million entries, each side in a fresh process (time and peak RSS);
- an append as the event loop pays it vs a raw ``os.write`` of the same line
  (and, for reference, the write + fsync an append used to make).

Sides alternate their order run by run; the best run of each is shown.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hookline.core.messages import user_message
from hookline.session import SessionManager
from hookline.session.storage import encode_line

ENTRIES = 100_000
BIG = 1_000_000
RUNS = 3
APPENDS = 2_000


def _templates() -> list[bytes]:
    """One line per kind (user → assistant with a tool call → tool result → assistant),
    with ``%(...)s`` holes for the id, parent, timestamp and a number."""
    messages: list[dict[str, Any]] = [
        {"role": "user", "content": [{"type": "text", "text": "request N " * 12}]},
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "Reading."},
                {"type": "tool_call", "id": "cN", "name": "read", "arguments": {"path": "a.py"}},
            ],
        },
        {
            "role": "tool",
            "tool_call_id": "cN",
            "tool_name": "read",
            "content": [{"type": "text", "text": "def f():\n    return 1\n" * 8}],
            "is_error": False,
        },
        {"role": "assistant", "content": [{"type": "text", "text": "Done N. " * 10}]},
    ]
    out = []
    for message in messages:
        entry = {"type": "message", "id": "@I", "parent_id": "@P", "timestamp": "@T"}
        line = encode_line({**entry, "message": message}).replace(b"%", b"%%")
        line = line.replace(b'"@P"', b"%(parent)s").replace(b"@I", b"%(id)s")
        line = line.replace(b"@T", b"%(ts)s").replace(b" N", b" %(n)d").replace(b"cN", b"c%(n)d")
        out.append(line)
    return out


def write_session(path: Path, count: int) -> None:
    """A realistic file: four kinds of message in turn, unique ids and timestamps."""
    templates = _templates()
    header = {"type": "session", "version": 1, "id": "bench", "cwd": "/x", "timestamp": "t"}
    with open(path, "wb") as f:
        f.write(encode_line(header))
        chunk: list[bytes] = []
        parent = b"null"
        for i in range(count):
            entry_id = b"%08x" % i
            ms = i * 7
            ts = b"2025-01-%02dT%02d:%02d:%02d.%03dZ" % (
                1 + ms // 86_400_000,
                ms // 3_600_000 % 24,
                ms // 60_000 % 60,
                ms // 1000 % 60,
                ms % 1000,
            )
            chunk.append(
                templates[i % 4] % {b"id": entry_id, b"parent": parent, b"ts": ts, b"n": i}
            )
            parent = b'"' + entry_id + b'"'
            if len(chunk) == 10_000:
                f.write(b"".join(chunk))
                chunk = []
        f.write(b"".join(chunk))


# -- the sides --------------------------------------------------------------------


def floor_load(path: str) -> int:
    """``json.loads`` of every line, GC paused while parsing and the result frozen."""
    gc.disable()
    try:
        with open(path, "rb") as f:
            parsed = [json.loads(line) for line in f]
        gc.freeze()
    finally:
        gc.enable()
    return len(parsed)


def hookline_resume(path: str) -> int:
    """Resume for writing and build the first model call's context."""
    with SessionManager.open(path) as session:
        return len(session.build_context_messages())


def _alternate(sides: list[Callable[[], object]], runs: int) -> list[float]:
    """Best time of each side; the order flips each run so neither always goes first."""
    best = [float("inf")] * len(sides)
    for run in range(runs):
        order = range(len(sides)) if run % 2 == 0 else reversed(range(len(sides)))
        for i in order:
            gc.collect()
            start = time.perf_counter()
            sides[i]()
            best[i] = min(best[i], time.perf_counter() - start)
    return best


def _later_call(session: SessionManager) -> Callable[[], object]:
    def call() -> object:
        session.append_message(user_message("one more"))
        return session.build_context_messages()

    return call


def _copy(items: list[Any]) -> Callable[[], object]:
    return lambda: list(items)


def _child(side: str, path: Path) -> tuple[float, float]:
    """(seconds, peak RSS in MiB) of one side loading ``path`` in a fresh process."""
    code = (
        "import sys, time, resource; sys.path.insert(0, sys.argv[3]); import bench_session as b; "
        "t = time.perf_counter(); getattr(b, sys.argv[1])(sys.argv[2]); "
        "print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, side, str(path), str(Path(__file__).parent)],
        capture_output=True,
        text=True,
        check=True,
    )
    seconds, peak_kb = done.stdout.split()
    return float(seconds), int(peak_kb) / 1024


def _appends(folder: Path) -> tuple[float, float, float, float, int]:
    """Per-append seconds on the caller: raw os.write, hookline, write+fsync; and
    append + ``await flushed()`` (the acknowledged round trip), and fsyncs made."""
    line = encode_line(
        {
            "type": "message",
            "id": "00000000",
            "parent_id": "00000000",
            "timestamp": "2025-01-01T00:00:00.000Z",
            "message": user_message("x" * 300),
        }
    )
    raw = folder / "raw.jsonl"
    synced = folder / "synced.jsonl"

    def raw_writes() -> None:
        fd = os.open(raw, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            for _ in range(APPENDS):
                os.write(fd, line)
        finally:
            os.close(fd)

    def fsynced_writes() -> None:
        fd = os.open(synced, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            for _ in range(APPENDS // 10):
                os.write(fd, line)
                os.fsync(fd)
        finally:
            os.close(fd)

    sessions: list[SessionManager] = []

    def hookline_appends() -> None:
        session = SessionManager.create(folder, session_dir=folder)
        sessions.append(session)
        for _ in range(APPENDS):
            session.append_message(user_message("x" * 300))

    floor, hookline, fsynced = _alternate([raw_writes, hookline_appends, fsynced_writes], RUNS)
    for session in sessions:
        session.close()

    async def acknowledged() -> tuple[float, int]:
        with SessionManager.create(folder, session_dir=folder) as session:
            start = time.perf_counter()
            for _ in range(APPENDS // 10):
                session.append_message(user_message("x" * 300))
                await session.flushed()
            seconds = (time.perf_counter() - start) / (APPENDS // 10)
            committer = session._committer
            return seconds, committer.syncs if committer else 0

    ack, _ = asyncio.run(acknowledged())
    with SessionManager.create(folder, session_dir=folder) as session:
        for _ in range(APPENDS):
            session.append_message(user_message("x" * 300))
        session.flush()
        syncs = session._committer.syncs if session._committer else 0
    return floor / APPENDS, hookline / APPENDS, fsynced / (APPENDS // 10), ack, syncs


def _row(what: str, mine: float, floor: float, unit: str, goal: str) -> None:
    scale = 1e3 if unit == "ms" else 1e6 if unit == "µs" else 1.0
    print(
        f"{what:<46}{mine * scale:>10.2f}{floor * scale:>10.2f} {unit:<3}"
        f"{mine / floor:>7.2f}×  {goal}"
    )


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        path = folder / "100k.jsonl"
        write_session(path, ENTRIES)
        small_mb = path.stat().st_size / 1e6
        assert hookline_resume(str(path)) == ENTRIES
        resume, floor = _alternate(
            [lambda: hookline_resume(str(path)), lambda: floor_load(str(path))], RUNS
        )
        with SessionManager.open(path) as session:
            context = session.build_context_messages()
            later, copy = _alternate([_later_call(session), _copy(context)], RUNS * 5)

        big = folder / "1m.jsonl"
        write_session(big, BIG)
        size_mb = big.stat().st_size / 1e6
        big_floor, floor_mb = _child("floor_load", big)
        big_mine, mine_mb = _child("hookline_resume", big)

        per_floor, per_append, per_fsync, per_ack, syncs = _appends(folder)

    print(f"100k: {small_mb:.0f} MB file, 1M: {size_mb:.0f} MB; best of {RUNS} alternating runs")
    print(f"{'what':<46}{'hookline':>10}{'floor':>10} {'':<3}{'ratio':>8}  goal")
    _row("resume 100k: open + first context", resume, floor, "s", "≤ 0.6 s")
    _row("later model call: append + context (100k)", later, copy, "ms", "≤ 2 ms")
    _row("resume 1M: open + first context", big_mine, big_floor, "s", "≤ 4 s")
    _row("resume 1M: peak RSS (MiB)", mine_mb, floor_mb, "", "≤ 1.2 GB (1144 MiB)")
    _row("append, time on the caller", per_append, per_floor, "µs", "never blocks the loop")
    print(f"{'  for reference: write + fsync per append':<46}{per_fsync * 1e6:>10.2f} µs")
    print(
        f"{'  append + await flushed() (acknowledged)':<46}{per_ack * 1e6:>10.2f} µs"
        f"  ({APPENDS} appends then one flush: {syncs} fsyncs)"
    )


if __name__ == "__main__":
    main()
