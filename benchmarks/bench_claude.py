"""Claude settings hooks: what a command hook costs over the process it spawns.

Warm, in this process, as a running agent pays them: each side is run
``SPAWNS`` times per round for ``ROUNDS`` rounds, the two sides alternating
which goes first, the GC left on for both (as in the agent) and collected
before each side. A row shows the median of the rounds' means and the range of
the per-round ratios (hookline over the floor in the same round):

- one PreToolUse command hook running ``true`` (selection, env, stdin JSON,
  its own process group, bounded output, outcome reading) vs the same
  ``bash -c true`` spawned raw: the same event loop, the same environment,
  working directory and new session, the same JSON written to its stdin, both
  pipes read to the end through a bare protocol — what hookline adds, not
  what the shell or the spawn costs;
- 10 matched hooks of ``sleep 0.2`` run in parallel vs one 200 ms sleep;
- the exec form (``"command": "true", "args": []``, no shell) vs the shell form
  (``bash -c true``): the same hook without the shell it no longer needs.

Nothing here asserts a time.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import statistics
import subprocess
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from hookline.claude import HookEngine, HookSource
from hookline.claude.command import default_shell
from hookline.settings.models import CommandHookConfig, HookConfig, MatcherConfig

ROUNDS = 7
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


class Pair:
    """Two sides' per-round means (seconds per call): medians and the per-round ratio range."""

    def __init__(self, ours: list[float], floor: list[float]) -> None:
        self.ours = statistics.median(ours)
        self.floor = statistics.median(floor)
        ratios = [o / f for o, f in zip(ours, floor, strict=True)]
        self.low, self.high = min(ratios), max(ratios)


async def _pair(
    ours: Callable[[], Awaitable[None]], floor: Callable[[], Awaitable[None]], repeat: int
) -> Pair:
    """Per-round mean seconds per call of each side, alternating which goes first."""
    rounds: tuple[list[float], list[float]] = ([], [])
    sides = [ours, floor]
    await ours()  # warm both: first spawns pay for imports and the child watcher
    await floor()
    for round_ in range(ROUNDS):
        for side in (0, 1) if round_ % 2 else (1, 0):
            gc.collect()  # the same clean heap before each side's timing
            start = time.perf_counter()
            for _ in range(repeat):
                await sides[side]()
            rounds[side].append((time.perf_counter() - start) / repeat)
    return Pair(*rounds)


class _Drain(asyncio.SubprocessProtocol):
    """Reads both pipes to the end; done once the process exited and both pipes closed."""

    def __init__(self) -> None:
        self.done = asyncio.get_running_loop().create_future()
        self.chunks: list[bytes] = []
        self._open = 3  # stdout, stderr, the exit

    def pipe_data_received(self, fd: int, data: bytes) -> None:
        self.chunks.append(data)

    def pipe_connection_lost(self, fd: int, exc: Exception | None) -> None:
        if fd != 0:
            self._closed()

    def process_exited(self) -> None:
        self._closed()

    def _closed(self) -> None:
        self._open -= 1
        if not self._open:
            self.done.set_result(None)


def _raw_spawn(
    argv: list[str], stdin: bytes, env: dict[str, str], cwd: str
) -> Callable[[], Awaitable[None]]:
    """The floor: the spawn hookline makes (new session, env, cwd), done bare."""

    async def spawn() -> None:
        loop = asyncio.get_running_loop()
        transport, proto = await loop.subprocess_exec(
            _Drain,
            *argv,
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        pipe = transport.get_pipe_transport(0)
        assert isinstance(pipe, asyncio.WriteTransport)
        pipe.write(stdin)
        pipe.close()
        await proto.done
        transport.close()

    return spawn


async def _bench(project: str) -> list[tuple[str, Pair, str]]:
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
    env = {**os.environ, "CLAUDE_PROJECT_DIR": project, "HOOKLINE_PROJECT_DIR": project}
    raw = _raw_spawn([default_shell(), "-c", "true"], payload, env, project)
    one_hook = await _pair(hook_true, raw, SPAWNS)

    exec_one = _hooks(project, "true", exec_form=True)

    async def exec_true() -> None:
        await exec_one.run("PreToolUse", dict(CALL))

    return [
        ("1 command hook `true`", one_hook, "raw `bash -c true`"),
        ("10 parallel 200 ms hooks", await _pair(ten_hooks, sleep_200, 1), "one 200 ms sleep"),
        ("exec form `true` (no shell)", await _pair(exec_true, hook_true, SPAWNS), "shell form"),
    ]


def main() -> None:
    with tempfile.TemporaryDirectory() as project:
        rows = asyncio.run(_bench(project))
    print(
        f"warm, in one process; medians of {ROUNDS} rounds of {SPAWNS} calls; "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    print(f"{'case':<28}{'hookline':>12}  {'floor':<20}{'floor time':>12}{'ratio':>8}  per round")
    for name, pair, floor_name in rows:
        print(
            f"{name:<28}{pair.ours * 1000:>10.2f}ms  {floor_name:<20}"
            f"{pair.floor * 1000:>10.2f}ms{pair.ours / pair.floor:>8.2f}x"
            f"  {pair.low:.2f}–{pair.high:.2f}x"
        )


if __name__ == "__main__":
    main()
