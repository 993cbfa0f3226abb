"""``grep`` and ``find`` over a generated tree of 50 000 files: ripgrep vs pure Python.

Both sides run the same tool on the same tree, alternating which goes first, with
the garbage collector collected before each; the ratio is pure-Python time over
ripgrep time. ``grep``: ripgrep scans the files the Python walk lists. ``find``:
ripgrep walks (``rg --files``) and Python completes the list with folders and
links; timed once with the tree's one-line ``.gitignore`` and once with a
120-line one (a typical template's size and shapes), where judging every entry in Python
costs most.
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


async def _pair(rg_tool: Any, py_tool: Any, params: dict[str, Any]) -> tuple[float, float]:
    """Best of ``ROUNDS`` for each side, alternating which runs first."""
    rg_times, py_times = [], []
    for i in range(ROUNDS):
        order = [(rg_tool, rg_times), (py_tool, py_times)]
        for tool, times in order if i % 2 == 0 else reversed(order):
            times.append(await _time(tool, params))
    return min(py_times), min(rg_times)


def _row(what: str, py: float, rg: float) -> None:
    print(f"{what:<48}{py * 1e3:>11.0f} ms{rg * 1e3:>9.0f} ms{py / rg:>8.1f}×")


#: A long .gitignore in the shapes of the common templates (plain names, ``*.ext``,
#: classes, anchored and ``**`` paths); none matches the tree, so each entry tries them all.
_LONG_GITIGNORE = "".join(
    f"cache{i}/\n*.ext{i}\n*.py[cod]{i}\n/out{i}/\n**/tmp{i}/**\ndata{i}_*.csv\n" for i in range(20)
)


async def _bench(root: str) -> None:
    print(f"{'what':<48}{'pure Python':>14}{'ripgrep':>12}{'ratio':>9}")
    grep = {"pattern": r"needle_\d+", "limit": 1_000_000}
    py, rg = await _pair(create_grep_tool(root), create_grep_tool(root, ripgrep=False), grep)
    _row("grep, 50 000 files, 2 000 hits", py, rg)
    find = {"pattern": "*.py", "limit": 1_000_000}
    rg_find, py_find = create_find_tool(root), create_find_tool(root, ripgrep=False)
    py, rg = await _pair(rg_find, py_find, find)
    _row("find *.py, 50 000 files, 1-line .gitignore", py, rg)
    gitignore = Path(root) / ".gitignore"
    gitignore.write_text(gitignore.read_text() + _LONG_GITIGNORE)
    py, rg = await _pair(rg_find, py_find, find)
    _row("find *.py, 50 000 files, 121-line .gitignore", py, rg)


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
