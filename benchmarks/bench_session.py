"""Loading a 100 000-entry session file vs the floor (read the lines, ``json.loads`` each).

The loader does one pass: ``json.loads`` per line, a type check and the id
index, with the cyclic GC paused (without the pause, the collections that
millions of new dicts trigger cost more than the parsing), so the floor is
shown both ways, each charged the one full GC pass a resumed GC then makes.
The table shows the best of several runs of each.
"""

from __future__ import annotations

import gc
import json
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hookline.session import SessionManager
from hookline.session.storage import encode_line

ENTRIES = 100_000
RUNS = 5


def _write_session(path: Path, count: int) -> None:
    """A realistic file: user → assistant (tool call) → tool result → assistant, repeated."""
    header = {"type": "session", "version": 1, "id": "bench", "cwd": "/x", "timestamp": "t"}
    chunks = [encode_line(header)]
    parent: str | None = None
    for i in range(count):
        kind = i % 4
        message: dict[str, Any]
        if kind == 0:
            message = {"role": "user", "content": [{"type": "text", "text": f"request {i} " * 12}]}
        elif kind == 1:
            call = {
                "type": "tool_call",
                "id": f"c{i}",
                "name": "read",
                "arguments": {"path": "a.py"},
            }
            message = {"role": "assistant", "content": [{"type": "text", "text": "Reading."}, call]}
        elif kind == 2:
            message = {
                "role": "tool",
                "tool_call_id": f"c{i - 1}",
                "tool_name": "read",
                "content": [{"type": "text", "text": "def f():\n    return 1\n" * 8}],
                "is_error": False,
            }
        else:
            message = {"role": "assistant", "content": [{"type": "text", "text": "Done. " * 10}]}
        entry_id = f"{i:08x}"
        entry = {
            "type": "message",
            "id": entry_id,
            "parent_id": parent,
            "timestamp": "2025-01-01T00:00:00.000Z",
            "message": message,
        }
        chunks.append(encode_line(entry))
        parent = entry_id
    path.write_bytes(b"".join(chunks))


def _floor(path: Path) -> int:
    with open(path, "rb") as f:
        return len([json.loads(line) for line in f.read().splitlines()])


def _settle() -> None:
    """Allocate past the GC threshold: the resumed GC makes the pass it owes, once."""
    _ = [[] for _ in range(2000)]


def _floor_no_gc(path: Path) -> int:
    """The floor parsed as the loader parses: GC paused, then the one full pass it defers."""
    gc.disable()
    try:
        with open(path, "rb") as f:
            parsed = [json.loads(line) for line in f.read().splitlines()]
    finally:
        gc.enable()
    _settle()
    return len(parsed)


def _load(path: Path) -> int:
    with SessionManager.open(path) as session:
        _settle()
        return len(session.get_entries())


def _context(path: Path) -> int:
    with SessionManager.open(path, read_only=True) as session:
        return len(session.build_context_messages())


def _context_again(session: SessionManager) -> Callable[[Path], int]:
    """A later turn: the path is cached, only the message list is rebuilt."""
    return lambda _: len(session.build_context_messages())


def _best(fn: Callable[[Path], int], path: Path) -> float:
    best = float("inf")
    for _ in range(RUNS):
        start = time.perf_counter()
        fn(path)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.jsonl"
        _write_session(path, ENTRIES)
        size_mb = path.stat().st_size / 1e6
        assert _load(path) == ENTRIES
        floor = _best(_floor, path)
        floor_no_gc = _best(_floor_no_gc, path)
        load = _best(_load, path)
        context = _best(_context, path)
        with SessionManager.open(path, read_only=True) as session:
            session.build_context_messages()
            again = _best(_context_again(session), path)
    rows = [
        ("floor: read lines + json.loads each", floor),
        ("floor, GC paused + its deferred pass", floor_no_gc),
        ("SessionManager.open + its deferred GC pass", load),
        ("open + build_context_messages", context),
        ("build_context_messages, later turn", again),
    ]
    print(f"{ENTRIES} entries, {size_mb:.1f} MB, best of {RUNS}; ratio vs the floor")
    print(f"{'what':<44}{'ms':>10}{'ratio':>10}")
    for name, seconds in rows:
        print(f"{name:<44}{seconds * 1e3:>10.1f}{seconds / floor:>10.2f}")


if __name__ == "__main__":
    main()
