"""The ``context`` chain on a long conversation: 10 000 messages, 5 handlers returning lists.

Beside it, the floor: the same 5 handlers called in a plain loop, each
building its list the same way, with no engine around them — the handlers'
own work, so the ratio is what the engine costs over cheap filters. Goal:
≤ 5 ms per chain. Warm, in one process and one event loop, as a running agent
pays it: the two sides alternate, the garbage collector on for both (as in
the agent) and collected before each; medians of the rounds, with the range of
the per-round ratios.
"""

from __future__ import annotations

import asyncio
import gc
import os
import statistics
import time
from collections.abc import Callable
from typing import Any

from hookline.core.api import HookAPI, LoadedHook
from hookline.core.runner import HookRunner

MESSAGES = 10_000
HANDLERS = 5
ROUNDS = 15


def _conversation() -> list[Any]:
    out: list[Any] = []
    for i in range(MESSAGES // 2):
        out.append({"role": "user", "content": [{"type": "text", "text": f"question {i}"}]})
        out.append({"role": "assistant", "content": [{"type": "text", "text": f"answer {i}"}]})
    return out


def _handler(event: Any, ctx: Any) -> dict[str, Any]:
    # A typical filter: every message but the first (a new list each time).
    return {"messages": event.messages[1:] + event.messages[:1]}


def _runner() -> HookRunner:
    runner = HookRunner(cwd=".")
    for i in range(HANDLERS):
        hook = LoadedHook(path=f"context{i}.py")
        api = HookAPI(hook, ".")
        api.on("context", _handler)
        runner.add_hook(hook, api)
    return runner


class _Event:
    __slots__ = ("messages",)

    def __init__(self, messages: list[Any]) -> None:
        self.messages = messages


def _floor(messages: list[Any]) -> list[Any]:
    current = messages
    for _ in range(HANDLERS):
        current = _handler(_Event(current), None)["messages"]
    return current


def _time(body: Callable[[], Any]) -> float:
    started = time.perf_counter()
    body()
    return (time.perf_counter() - started) * 1000


def main() -> None:
    messages = _conversation()
    runner = _runner()
    loop = asyncio.new_event_loop()
    hookline_ms: list[float] = []
    floor_ms: list[float] = []
    try:
        loop.run_until_complete(runner.emit_context(messages))  # warm: first-call paths
        _floor(messages)
        for round_ in range(ROUNDS):
            sides = [
                ("hookline", lambda: loop.run_until_complete(runner.emit_context(messages))),
                ("floor", lambda: _floor(messages)),
            ]
            if round_ % 2:
                sides.reverse()
            for name, body in sides:
                gc.collect()
                (hookline_ms if name == "hookline" else floor_ms).append(_time(body))
    finally:
        loop.close()
    ours, base = statistics.median(hookline_ms), statistics.median(floor_ms)
    ratios = [o / f for o, f in zip(hookline_ms, floor_ms, strict=True)]
    print(
        f"context chain, {MESSAGES} messages x {HANDLERS} handlers, warm "
        f"(medians of {ROUNDS} rounds; load average {os.getloadavg()[0]:.1f})"
    )
    print(f"  hookline  {ours:8.2f} ms   (goal <= 5 ms)")
    print(f"  floor     {base:8.2f} ms   (the handlers' own work)")
    print(f"  ratio     {ours / base:8.2f}x  (per round {min(ratios):.2f}–{max(ratios):.2f}x)")


if __name__ == "__main__":
    main()
