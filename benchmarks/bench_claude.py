"""Claude settings hooks: what a command hook costs over the process it spawns.

Rows (best of ``ROUNDS``; the ratio is hookline over the floor in the same run;
the two sides alternate which runs first in every round, GC off for both):

- one PreToolUse command hook running ``true`` (selection, env, stdin JSON,
  its own process group, bounded output, outcome reading) vs the same
  ``bash -c true`` hookline starts, spawned raw with asyncio and the same JSON
  written to its stdin: what hookline adds, not what the shell costs;
- 10 matched hooks of ``sleep 0.2`` run in parallel vs one 200 ms sleep;
- the exec form (``"command": "true", "args": []``, no shell) vs the shell form
  (``bash -c true``): the same hook without the shell it no longer needs.

Nothing here asserts a time.
"""

from __future__ import annotations

import asyncio
import gc
import json
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from hookline.claude import HookEngine, HookSource
from hookline.claude.command import default_shell
from hookline.settings.models import CommandHookConfig, HookConfig, MatcherConfig

ROUNDS = 5
SPAWNS = 50
CALL = {"tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "t"}


def _hooks(project: str, *commands: str, exec_form: bool = False) -> HookEngine:
    args: list[str] | None = [] if exec_form else None
    specs: list[HookConfig] = [
        CommandHookConfig(type="command", command=c, args=args) for c in commands
    ]
    group = MatcherConfig(matcher="Bash", hooks=specs)
    return HookEngine(
        [HookSource("user", Path("/bench.json"), {"PreToolUse": [group]})], project_dir=project
    )


async def _best(fn: Callable[[], Awaitable[None]], repeat: int) -> float:
    """Best-of-ROUNDS mean seconds per call of ``fn``."""
    return (await _best_pair(fn, fn, repeat))[0]


async def _best_pair(
    ours: Callable[[], Awaitable[None]], floor: Callable[[], Awaitable[None]], repeat: int
) -> tuple[float, float]:
    """Best-of-ROUNDS mean seconds per call of each side, alternating which goes first."""
    best = [float("inf"), float("inf")]
    sides = [ours, floor]
    await ours()  # warm both: first spawns pay for imports and the child watcher
    await floor()
    gc.disable()
    try:
        for round_ in range(ROUNDS):
            order = (0, 1) if round_ % 2 else (1, 0)
            for side in order:
                gc.collect()  # the same clean heap before each side's timing
                start = time.perf_counter()
                for _ in range(repeat):
                    await sides[side]()
                best[side] = min(best[side], (time.perf_counter() - start) / repeat)
    finally:
        gc.enable()
    return best[0], best[1]


def _raw_spawn(argv: list[str], stdin: bytes) -> Callable[[], Awaitable[None]]:
    """The floor: spawn ``argv`` with asyncio, write ``stdin``, read both pipes to the end."""

    async def spawn() -> None:
        proc = await asyncio.create_subprocess_exec(
            *argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        await proc.communicate(stdin)

    return spawn


async def _bench(project: str) -> list[tuple[str, float, str, float]]:
    one = _hooks(project, "true")
    ten = _hooks(project, *(f"sleep 0.2; echo {i}" for i in range(10)))

    async def hook_true() -> None:
        await one.run("PreToolUse", dict(CALL))

    async def ten_hooks() -> None:
        await ten.run("PreToolUse", dict(CALL))

    async def sleep_200() -> None:
        await asyncio.sleep(0.2)

    # What the hook writes to the shell's stdin is about this size: the same bytes raw.
    payload = json.dumps({**CALL, "hook_event_name": "PreToolUse", "cwd": project}).encode()
    raw = _raw_spawn([default_shell(), "-c", "true"], payload)
    ours, floor = await _best_pair(hook_true, raw, SPAWNS)

    exec_one = _hooks(project, "true", exec_form=True)

    async def exec_true() -> None:
        await exec_one.run("PreToolUse", dict(CALL))

    exec_time, shell_time = await _best_pair(exec_true, hook_true, SPAWNS)

    return [
        ("1 command hook `true`", ours, "raw `bash -c true`", floor),
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
