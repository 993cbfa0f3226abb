"""Sessions: resume, later model calls, a million entries, appends — each beside its floor.

- resume 100 000 and 1 000 000 entries to the first model call (``open`` + the
  context), cold: every measurement is a fresh process, as a user's
  ``--resume`` is. Beside it, the floor: a fresh process that reads the file
  and ``json.loads`` every line, importing nothing of hookline, the GC treated
  the same way (paused while parsing, the result frozen). Two figures each:
  the load timed inside the process (after its imports) and the whole
  process (interpreter start, imports, load, exit), plus peak RSS. Medians
  of ``COLD_RUNS`` alternated pairs, with the range of the per-pair ratios;
- a later model call (one append + the context) vs copying a list of the
  context's size: warm, in this process, as a running agent pays it;
- an append as the event loop pays it vs a raw ``os.write`` of the same line
  (and, for reference, the write + fsync an append used to make): warm.

The warm sides alternate their order run by run; the best run of each is shown.
"""

from __future__ import annotations

import asyncio
import gc
import os
import statistics
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
#: Fresh-process pairs per cold resume row (100k, then 1M).
COLD_RUNS = (7, 3)
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

#: The floor, run as ``python -c``: nothing of hookline imported. Prints seconds and peak KiB.
_FLOOR = """
import gc, json, resource, sys, time
t = time.perf_counter()
gc.disable()
with open(sys.argv[1], "rb") as f:
    parsed = [json.loads(line) for line in f]
gc.freeze()
gc.enable()
print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""

#: hookline's side, run as ``python -c``: resume for writing, build the first context.
_HOOKLINE = """
import resource, sys, time
from hookline.session import SessionManager
t = time.perf_counter()
with SessionManager.open(sys.argv[1]) as session:
    session.build_context_messages()
print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def hookline_resume(path: str) -> int:
    """Resume for writing and build the first model call's context (in this process)."""
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


def _child(code: str, path: Path) -> tuple[float, float, float]:
    """(load seconds timed inside, whole-process seconds, peak RSS MiB) of a fresh process."""
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True
    )
    whole = time.perf_counter() - start
    load, peak_kb = done.stdout.split()
    return float(load), whole, int(peak_kb) / 1024


class Cold:
    """A cold resume row: medians over fresh-process pairs, and the per-pair ratio range."""

    def __init__(self, path: Path, runs: int) -> None:
        ours: list[tuple[float, float, float]] = []
        floor: list[tuple[float, float, float]] = []
        for run in range(runs):
            sides = [(_HOOKLINE, ours), (_FLOOR, floor)]
            for code, into in sides if run % 2 == 0 else reversed(sides):
                into.append(_child(code, path))
        self.load = statistics.median(o[0] for o in ours)
        self.floor_load = statistics.median(f[0] for f in floor)
        self.whole = statistics.median(o[1] for o in ours)
        self.floor_whole = statistics.median(f[1] for f in floor)
        self.load_ratios = [o[0] / f[0] for o, f in zip(ours, floor, strict=True)]
        self.whole_ratios = [o[1] / f[1] for o, f in zip(ours, floor, strict=True)]
        self.peak = statistics.median(o[2] for o in ours)
        self.floor_peak = statistics.median(f[2] for f in floor)


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


def _cold_rows(label: str, row: Cold, goal: str) -> None:
    def spread(ratios: list[float]) -> str:
        return f"per pair {min(ratios):.2f}–{max(ratios):.2f}×"

    _row(f"{label}: load, cold", row.load, row.floor_load, "s", goal)
    print(f"{'':<46}{spread(row.load_ratios)}")
    _row(f"{label}: whole process, cold", row.whole, row.floor_whole, "s", "")
    print(f"{'':<46}{spread(row.whole_ratios)}")
    _row(f"{label}: peak RSS (MiB)", row.peak, row.floor_peak, "", "")


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        path = folder / "100k.jsonl"
        write_session(path, ENTRIES)
        small_mb = path.stat().st_size / 1e6
        assert hookline_resume(str(path)) == ENTRIES
        small = Cold(path, COLD_RUNS[0])
        with SessionManager.open(path) as session:
            context = session.build_context_messages()
            later, copy = _alternate([_later_call(session), _copy(context)], RUNS * 5)

        big = folder / "1m.jsonl"
        write_session(big, BIG)
        size_mb = big.stat().st_size / 1e6
        large = Cold(big, COLD_RUNS[1])

        per_floor, per_append, per_fsync, per_ack, syncs = _appends(folder)

    load = os.getloadavg()
    print(f"100k: {small_mb:.0f} MB file, 1M: {size_mb:.0f} MB; load average {load[0]:.1f}")
    print(
        f"cold: medians of {COLD_RUNS[0]} (100k) and {COLD_RUNS[1]} (1M) alternated pairs of "
        "fresh processes; floor: json.loads per line, nothing of hookline imported"
    )
    print(f"warm: best of {RUNS * 5} alternating runs in this process")
    print(f"{'what':<46}{'hookline':>10}{'floor':>10} {'':<3}{'ratio':>8}  goal")
    _cold_rows("resume 100k", small, "≤ 0.6 s")
    _row("later model call: append + context (100k), warm", later, copy, "ms", "≤ 2 ms")
    _cold_rows("resume 1M", large, "≤ 4 s, ≤ 1.2 GB (1144 MiB)")
    _row("append, time on the caller, warm", per_append, per_floor, "µs", "never blocks the loop")
    print(f"{'  for reference: write + fsync per append':<46}{per_fsync * 1e6:>10.2f} µs")
    print(
        f"{'  append + await flushed() (acknowledged)':<46}{per_ack * 1e6:>10.2f} µs"
        f"  ({APPENDS} appends then one flush: {syncs} fsyncs)"
    )


if __name__ == "__main__":
    main()
