"""Tool wrapping overhead: ``read`` of a 1 MB file, raw vs wrapped with no-op hooks.

The wrapped tool has one no-op ``tool_call`` and one no-op ``tool_result``
handler, so both events are built and emitted on every call; the ratio shows
what hooks cost next to real tool work. The no-op tool declared with a pydantic
model (``GrepParams``) shows, beside the dict-declared one, what checking a
call's arguments against its model costs in the pipeline.
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from pathlib import Path
from typing import Any

from hookline.core.api import HookAPI, LoadedHook
from hookline.core.messages import text
from hookline.core.runner import HookRunner
from hookline.core.tool import Tool, ToolResult
from hookline.core.wrapping import wrap_tool
from hookline.tools import GrepParams, create_read_tool

ROUNDS = 200


def _runner(cwd: str) -> HookRunner:
    hook = LoadedHook(path="bench-noop.py")
    api = HookAPI(hook, cwd)

    async def noop_call(event: Any, ctx: Any) -> None:
        return None

    async def noop_result(event: Any, ctx: Any) -> None:
        return None

    api.on("tool_call", noop_call)
    api.on("tool_result", noop_result)
    runner = HookRunner(cwd=cwd)
    runner.add_hook(hook, api)
    return runner


async def _time(tool: Tool, params: dict[str, Any]) -> float:
    """Best-of-3 mean seconds per call over ``ROUNDS`` calls."""
    await tool.execute("warm", params, None, None)
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for i in range(ROUNDS):
            await tool.execute(f"c{i}", params, None, None)
        best = min(best, (time.perf_counter() - start) / ROUNDS)
    return best


async def _noop_execute(
    call_id: str, params: dict[str, Any], signal: Any = None, on_update: Any = None
) -> ToolResult:
    return ToolResult([text("ok")])


async def _bench(cwd: str) -> list[tuple[str, float, float]]:
    line = "x" * 99 + "\n"
    Path(cwd, "one_mb.txt").write_text(line * (1024 * 1024 // len(line)))
    runner = _runner(cwd)
    read = create_read_tool(cwd)
    noop = Tool("noop", "does nothing", {"type": "object"}, _noop_execute)
    checked = Tool("noop", "does nothing", GrepParams, _noop_execute)
    grep_args = {"pattern": "x", "path": "src", "ignoreCase": True, "limit": 5}
    rows = []
    for label, tool, params in (
        ("read 1 MB", read, {"path": "one_mb.txt"}),
        ("no-op tool (pure wrapper cost)", noop, {}),
        ("no-op tool, model-checked args", checked, grep_args),
    ):
        raw = await _time(tool, params)
        wrapped = await _time(wrap_tool(tool, runner), params)
        rows.append((label, raw, wrapped))
    return rows


def main() -> None:
    with tempfile.TemporaryDirectory() as cwd:
        rows = asyncio.run(_bench(cwd))
    print(f"{'case':<32} {'raw':>11} {'wrapped':>11} {'ratio':>8} {'overhead':>11}")
    for label, raw, wrapped in rows:
        print(
            f"{label:<32} {raw * 1e6:>9.1f}µs {wrapped * 1e6:>9.1f}µs "
            f"{wrapped / raw:>7.2f}x {(wrapped - raw) * 1e6:>9.1f}µs"
        )
    print("wrapped = one no-op tool_call and one no-op tool_result handler")


if __name__ == "__main__":
    main()
