"""``grep`` over a generated tree of 50 000 files: ripgrep scanning vs the pure-Python scan.

Both sides run the same tool on the same tree (the same Python walk, ``.gitignore``
and all), alternating which goes first, with the garbage collector collected before
each; the ratio is pure-Python time over ripgrep time. ``find`` walks in Python on
both paths, so it is timed once for reference.
"""

from __future__ import annotations

import asyncio
import gc
import tempfile
import time
from pathlib import Path
from typing import Any

from hookline.tools import _ripgrep
from hookline.tools.search import create_find_tool, create_grep_tool

FILES = 50_000
ROUNDS = 3


def _tree(root: Path) -> None:
    """1 000 directories of 50 files, 20 lines each; one line in 500 holds the needle."""
    n = 0
    for d in range(FILES // 50):
        folder = root / f"pkg{d // 100}" / f"mod{d}"
        folder.mkdir(parents=True)
        for f in range(50):
            lines = [f"line {i} of file {n}: some ordinary text here" for i in range(20)]
            if n % 25 == 0:
                lines[7] = f"def needle_{n}(): return {n}"
            (folder / f"f{f}.py").write_text("\n".join(lines) + "\n")
            n += 1
    (root / ".gitignore").write_text("pkg9/\n")


async def _time(tool: Any, params: dict[str, Any]) -> float:
    gc.collect()
    start = time.perf_counter()
    await tool.execute("b", params, None, None)
    return time.perf_counter() - start


async def _bench(root: str) -> None:
    params = {"pattern": r"needle_\d+", "limit": 1_000_000}
    rg_tool, py_tool = create_grep_tool(root), create_grep_tool(root, ripgrep=False)
    rg_times, py_times = [], []
    for i in range(ROUNDS):
        order = [(rg_tool, rg_times), (py_tool, py_times)]
        for tool, times in order if i % 2 == 0 else reversed(order):
            times.append(await _time(tool, params))
    rg, py = min(rg_times), min(py_times)
    find = min([await _time(create_find_tool(root), {"pattern": "*.py", "limit": 10**6})])
    print(f"{'what':<44}{'pure Python':>14}{'ripgrep':>12}{'ratio':>9}")
    print(f"{'grep, 50 000 files, 2 000 hits':<44}{py * 1e3:>11.0f} ms{rg * 1e3:>9.0f} ms")
    print(f"{'':<44}{'':>14}{'':>12}{py / rg:>8.1f}×")
    print(f"{'find *.py, 50 000 files (Python walk)':<44}{find * 1e3:>11.0f} ms")


def main() -> None:
    if _ripgrep.find_ripgrep() is None:
        print("ripgrep not installed: nothing to compare")
        return
    with tempfile.TemporaryDirectory(prefix="hookline-bench-search-") as tmp:
        print(f"building {FILES} files ...", flush=True)
        _tree(Path(tmp))
        asyncio.run(_bench(tmp))


if __name__ == "__main__":
    main()
