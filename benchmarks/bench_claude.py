"""Claude settings hooks: what a command hook costs over the process it spawns.

Rows (best of ``ROUNDS``; the ratio is hookline over the floor in the same run):

- one PreToolUse command hook running ``true`` (selection, stdin JSON, the
  shell, outcome reading) vs a raw asyncio spawn of ``true``;
- 10 matched hooks of ``sleep 0.2`` run in parallel vs one 200 ms sleep;
- the exec form (``"command": "true", "args": []``, no shell) vs the shell form
  (``bash -c true``): the same hook without the shell it no longer needs. The two
  are measured in alternating order each round, with the garbage collector
  collected before and off during each timing.

Nothing here asserts a time.
"""

from __future__ import annotations

import asyncio
import gc
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from hookline.claude import ClaudeHooks, HookSource
from hookline.settings.models import CommandHookConfig, HookConfig, MatcherConfig

ROUNDS = 5
SPAWNS = 50
CALL = {"tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "t"}


def _hooks(project: str, *commands: str, exec_form: bool = False) -> ClaudeHooks:
    args: list[str] | None = [] if exec_form else None
    specs: list[HookConfig] = [
        CommandHookConfig(type="command", command=c, args=args) for c in commands
    ]
    group = MatcherConfig(matcher="Bash", hooks=specs)
    return ClaudeHooks(
        [HookSource("user", Path("/bench.json"), {"PreToolUse": [group]})], project_dir=project
    )


async def _best(fn: Callable[[], Awaitable[None]], repeat: int) -> float:
    """Best-of-ROUNDS mean seconds per call of ``fn``."""
    best = float("inf")
    for _ in range(ROUNDS):
        start = time.perf_counter()
        for _ in range(repeat):
            await fn()
        best = min(best, (time.perf_counter() - start) / repeat)
    return best


async def _timed(fn: Callable[[], Awaitable[None]], repeat: int) -> float:
    gc.collect()
    gc.disable()
    try:
        start = time.perf_counter()
        for _ in range(repeat):
            await fn()
        return (time.perf_counter() - start) / repeat
    finally:
        gc.enable()


async def _best_pair(
    a: Callable[[], Awaitable[None]], b: Callable[[], Awaitable[None]], repeat: int
) -> tuple[float, float]:
    """Best-of-ROUNDS for two functions measured in alternating order."""
    best_a = best_b = float("inf")
    for i in range(ROUNDS):
        if i % 2:
            best_b = min(best_b, await _timed(b, repeat))
            best_a = min(best_a, await _timed(a, repeat))
        else:
            best_a = min(best_a, await _timed(a, repeat))
            best_b = min(best_b, await _timed(b, repeat))
    return best_a, best_b


async def _raw_true() -> None:
    proc = await asyncio.create_subprocess_exec(
        "true",
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    await proc.communicate()


async def _bench(project: str) -> list[tuple[str, float, str, float]]:
    one = _hooks(project, "true")
    ten = _hooks(project, *(f"sleep 0.2; echo {i}" for i in range(10)))

    async def hook_true() -> None:
        await one.run("PreToolUse", dict(CALL))

    async def ten_hooks() -> None:
        await ten.run("PreToolUse", dict(CALL))

    async def sleep_200() -> None:
        await asyncio.sleep(0.2)

    exec_one = _hooks(project, "true", exec_form=True)

    async def exec_true() -> None:
        await exec_one.run("PreToolUse", dict(CALL))

    exec_time, shell_time = await _best_pair(exec_true, hook_true, SPAWNS)

    return [
        (
            "1 command hook `true`",
            await _best(hook_true, SPAWNS),
            "raw spawn `true`",
            await _best(_raw_true, SPAWNS),
        ),
        (
            "10 parallel 200 ms hooks",
            await _best(ten_hooks, 1),
            "one 200 ms sleep",
            await _best(sleep_200, 1),
        ),
        ("exec form `true` (no shell)", exec_time, "shell form `true`", shell_time),
    ]


def main() -> None:
    with tempfile.TemporaryDirectory() as project:
        rows = asyncio.run(_bench(project))
    print(f"{'case':<28}{'hookline':>12}  {'floor':<20}{'floor time':>12}{'ratio':>8}")
    for name, ours, floor_name, floor in rows:
        print(
            f"{name:<28}{ours * 1000:>10.2f}ms  {floor_name:<20}"
            f"{floor * 1000:>10.2f}ms{ours / floor:>8.2f}x"
        )


if __name__ == "__main__":
    main()
