"""Dispatch cost of the engine core: ``HookRunner.emit`` next to the floor and pluggy.

Measured in one event loop with ``time.perf_counter_ns``, all handlers
no-ops. Every case runs in short batches of ``BATCH`` calls, the cases taking
turns and the order reversed every other round, GC off for all of them; each
case's figure is its best batch (the one least disturbed by other processes on
a busy machine), so a case and its floor are measured alike:

- ``tool_call`` through 1 and 10 async handlers as wrapped tools call it
  (``emit_tool_call``: the fail-closed path; handlers are awaited inline and
  only one that suspends meets a timer);
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
import gc
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
#: Calls per batch, and batches per case, of the interleaved measurement.
BATCH = 100
BATCHES = 300

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


async def _interleaved(cases: dict[str, Callable[[], Awaitable[None]]]) -> dict[str, float]:
    """Best-batch nanoseconds per call of each case, the cases taking turns (see above)."""
    for body in cases.values():
        for _ in range(BATCH):
            await body()
    best = dict.fromkeys(cases, float("inf"))
    order = list(cases.items())
    gc.disable()
    try:
        for round_ in range(BATCHES):
            for label, body in order if round_ % 2 else reversed(order):
                start = time.perf_counter_ns()
                for _ in range(BATCH):
                    await body()
                best[label] = min(best[label], (time.perf_counter_ns() - start) / BATCH)
    finally:
        gc.enable()
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

    tool_call_1 = _runner("tool_call", 1)
    tool_call_10 = _runner("tool_call", 10)
    turn_start_10 = _runner("turn_start", 10)

    async def tool_call_one() -> None:
        await tool_call_1.emit_tool_call(call)

    async def tool_call_ten() -> None:
        await tool_call_10.emit_tool_call(call)

    interleaved = await _interleaved(
        {
            "hookline tool_call, 1 handler": tool_call_one,
            "hookline tool_call, 10 handlers": tool_call_ten,
            "floor: loop awaiting 10 coroutines": floor,
            "hookline turn_start, 10 handlers": _emitter(turn_start_10, turn),
        }
    )
    rows = [
        *interleaved.items(),
        ("pluggy: 10 hookimpls", _best_sync_ns(_pluggy_caller(10))),
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
    for label, goal in (
        ("hookline tool_call, 10 handlers", 1.3),
        ("hookline turn_start, 10 handlers", 1.6),
    ):
        ns = by_label[label]
        print(
            f"{label:<40} hookline/floor {ns / floor:>5.2f}x (goal ≤ {goal}x)"
            f"   hookline/pluggy {ns / plug:>5.2f}x"
        )
    suspending = by_label["hookline turn_start, 10 suspending"]
    suspending_floor = by_label["  floor: 10 suspending coroutines"]
    print(
        f"{'hookline turn_start, 10 suspending':<40} "
        f"hookline/floor {suspending / suspending_floor:>5.2f}x (the deadline is paid here)"
    )


if __name__ == "__main__":
    main()
