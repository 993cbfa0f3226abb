"""Dispatch cost of the engine core: ``HookRunner.emit`` next to the floor and pluggy.

Measured in one event loop with ``time.perf_counter_ns`` over many emits
(best of several rounds), all handlers no-ops:

- ``tool_call`` through 1 and 10 async handlers (the fail-closed path; a handler that
  answers at once meets no timer, the same lazy deadline as notifications);
- the floor: a plain loop awaiting 10 trivial coroutines;
- pluggy calling 10 hookimpls (sync; pluggy has no async hooks);
- ``turn_start`` through 10 handlers: a notification event, which runs under
  ``hook_timeout``. Handlers that answer without suspending never get a
  timer (the lazy deadline), so it should cost about what ``tool_call`` does;
  next to it, what a deadline per handler would cost (an ``asyncio.timeout``
  scope each, and ``asyncio.wait_for`` each), and handlers that really
  suspend once (``await asyncio.sleep(0)``), where the deadline is paid.

Nothing here asserts a time.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

import pluggy

from hookline.core.api import HookAPI, LoadedHook
from hookline.core.context import HookContext
from hookline.core.events import Event, ToolCallEvent, TurnStartEvent
from hookline.core.runner import HookRunner

ITERATIONS = 20_000
ROUNDS = 5

Handler = Callable[[Any, Any], Awaitable[None]]


async def _noop(event: Any, ctx: Any) -> None:
    return None


async def _suspends(event: Any, ctx: Any) -> None:
    await asyncio.sleep(0)


def _runner(event: str, count: int, handler: Handler = _noop) -> HookRunner:
    runner = HookRunner(cwd=".")
    for i in range(count):
        hook = LoadedHook(path=f"bench{i}.py")
        api = HookAPI(hook, ".")
        api.on(event, handler)
        runner.add_hook(hook, api)
    return runner


async def _best_ns(body: Callable[[], Awaitable[None]], iterations: int = ITERATIONS) -> float:
    """Best-of-``ROUNDS`` nanoseconds per call of ``body``."""
    for _ in range(200):
        await body()
    best = float("inf")
    for _ in range(ROUNDS):
        start = time.perf_counter_ns()
        for _ in range(iterations):
            await body()
        best = min(best, (time.perf_counter_ns() - start) / iterations)
    return best


def _best_sync_ns(body: Callable[[], object], iterations: int = ITERATIONS) -> float:
    for _ in range(200):
        body()
    best = float("inf")
    for _ in range(ROUNDS):
        start = time.perf_counter_ns()
        for _ in range(iterations):
            body()
        best = min(best, (time.perf_counter_ns() - start) / iterations)
    return best


def _emitter(runner: HookRunner, event: Event) -> Callable[[], Awaitable[None]]:
    async def body() -> None:
        await runner.emit(event)

    return body


def _pluggy_caller(count: int) -> Callable[[], object]:
    spec = pluggy.HookspecMarker("bench")
    impl = pluggy.HookimplMarker("bench")

    class Spec:
        @spec
        def tool_call(self, event: Any) -> None:
            """The hook specification."""

    class Impl:
        @impl
        def tool_call(self, event: Any) -> None:
            return None

    pm = pluggy.PluginManager("bench")
    pm.add_hookspecs(Spec)
    for _ in range(count):
        pm.register(Impl())
    event = ToolCallEvent(tool_name="bash", tool_call_id="c", input={"command": "ls"})
    hook = pm.hook.tool_call
    return lambda: hook(event=event)


async def _bench() -> list[tuple[str, float]]:
    ctx = HookContext(".")
    call = ToolCallEvent(tool_name="bash", tool_call_id="c", input={"command": "ls"})
    turn = TurnStartEvent(turn_index=0, timestamp=0.0)
    ten: list[Handler] = [_noop] * 10
    ten_suspending: list[Handler] = [_suspends] * 10

    async def floor() -> None:
        for fn in ten:
            await fn(call, ctx)

    async def floor_suspending() -> None:
        for fn in ten_suspending:
            await fn(turn, ctx)

    async def timeout_each() -> None:
        for fn in ten:
            async with asyncio.timeout(30):
                await fn(turn, ctx)

    async def wait_for_each() -> None:
        for fn in ten:
            await asyncio.wait_for(fn(turn, ctx), 30)

    rows = [
        ("hookline tool_call, 1 handler", await _best_ns(_emitter(_runner("tool_call", 1), call))),
        (
            "hookline tool_call, 10 handlers",
            await _best_ns(_emitter(_runner("tool_call", 10), call)),
        ),
        ("floor: loop awaiting 10 coroutines", await _best_ns(floor)),
        ("pluggy: 10 hookimpls", _best_sync_ns(_pluggy_caller(10))),
        (
            "hookline turn_start, 10 handlers",
            await _best_ns(_emitter(_runner("turn_start", 10), turn)),
        ),
        ("  eager: asyncio.timeout per handler", await _best_ns(timeout_each)),
        ("  eager: asyncio.wait_for per handler", await _best_ns(wait_for_each, ITERATIONS // 10)),
        (
            "hookline turn_start, 10 suspending",
            await _best_ns(_emitter(_runner("turn_start", 10, _suspends), turn), ITERATIONS // 10),
        ),
        ("  floor: 10 suspending coroutines", await _best_ns(floor_suspending, ITERATIONS // 10)),
    ]
    return rows


def main() -> None:
    rows = asyncio.run(_bench())
    by_label = dict(rows)
    print(f"{'case':<40} {'ns/emit':>10} {'µs/emit':>9}")
    for label, ns in rows:
        print(f"{label:<40} {ns:>10.0f} {ns / 1000:>9.2f}")
    floor = by_label["floor: loop awaiting 10 coroutines"]
    plug = by_label["pluggy: 10 hookimpls"]
    print()
    for label in ("hookline tool_call, 10 handlers", "hookline turn_start, 10 handlers"):
        ns = by_label[label]
        print(
            f"{label:<40} hookline/floor {ns / floor:>5.2f}x   hookline/pluggy {ns / plug:>5.2f}x"
        )
    suspending = by_label["hookline turn_start, 10 suspending"]
    suspending_floor = by_label["  floor: 10 suspending coroutines"]
    print(
        f"{'hookline turn_start, 10 suspending':<40} "
        f"hookline/floor {suspending / suspending_floor:>5.2f}x (the deadline is paid here)"
    )


if __name__ == "__main__":
    main()
