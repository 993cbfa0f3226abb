"""The agent loop with a scripted model: turns per second, with and without hooks.

One prompt runs ``TURNS`` turns; each turn the scripted model calls a no-op
registered tool, then a last turn answers. The session is in memory, so this
is the loop itself: context building, the model call, the permission gate,
tool wrapping and every hook event. Rows:

- no hooks;
- 10 no-op hooks, each with handlers on ``tool_call``, ``tool_result``,
  ``turn_start``, ``turn_end``, ``context``, ``tool_execution_start`` and
  ``tool_execution_end`` (70 handlers, 7 events a turn);
- the same with an event listener that JSON-encodes every event (what
  ``--mode json`` and RPC add on top).

The ratio is each row's time per turn over the no-hook row's. Best of
``ROUNDS`` runs, each with a fresh agent. Loading a 100 000-entry session
file is measured by ``bench_session.py``. Nothing here asserts a time.
"""

from __future__ import annotations

import asyncio
import json
import tempfile
import time
from collections.abc import Callable
from typing import Any

from hookline.agent.agent import Agent
from hookline.agent.gate import PermissionGate
from hookline.agent.providers.scripted import ScriptedProvider
from hookline.core.api import HookAPI, LoadedHook
from hookline.core.messages import text
from hookline.core.runner import HookRunner
from hookline.core.tool import Tool, ToolResult
from hookline.session import SessionManager

TURNS = 200
HOOKS = 10
ROUNDS = 5
EVENTS = (
    "tool_call",
    "tool_result",
    "turn_start",
    "turn_end",
    "context",
    "tool_execution_start",
    "tool_execution_end",
)


async def _noop_handler(event: Any, ctx: Any) -> None:
    return None


async def _noop_execute(
    call_id: str, params: dict[str, Any], signal: Any = None, on_update: Any = None
) -> ToolResult:
    return ToolResult([text("ok")])


NOOP_TOOL = Tool("noop", "does nothing", {"type": "object", "properties": {}}, _noop_execute)


def _runner(cwd: str, hooks: int) -> HookRunner:
    runner = HookRunner(cwd=cwd)
    for i in range(hooks):
        hook = LoadedHook(path=f"bench-noop-{i}.py")
        api = HookAPI(hook, cwd)
        for event in EVENTS:
            api.on(event, _noop_handler)
        runner.add_hook(hook, api)
    return runner


def _turns() -> list[dict[str, Any]]:
    call = {"tool_calls": [{"name": "noop", "arguments": {}}]}
    return [*(call for _ in range(TURNS)), {"text": "done"}]


def _agent(cwd: str, hooks: int, listener: Callable[[dict[str, Any]], None] | None) -> Agent:
    runner = _runner(cwd, hooks)
    agent = Agent(
        provider=ScriptedProvider.from_turns(_turns(), name="bench"),
        runner=runner,
        session=SessionManager.in_memory(cwd),
        tools=[NOOP_TOOL],
        cwd=cwd,
        gate=PermissionGate(runner, mode="bypassPermissions", cwd=cwd),
        auto_compact=False,
    )
    if listener is not None:
        agent.subscribe(listener)
    return agent


async def _seconds_per_turn(
    cwd: str, hooks: int, listener: Callable[[dict[str, Any]], None] | None
) -> float:
    best = float("inf")
    for _ in range(ROUNDS):
        agent = _agent(cwd, hooks, listener)
        start = time.perf_counter()
        added = await agent.prompt("go", source="bench")
        elapsed = time.perf_counter() - start
        assert agent.turn_index == TURNS + 1, agent.turn_index
        assert len(added) == 2 * TURNS + 2  # user, then (assistant, tool) per turn, final
        best = min(best, elapsed / (TURNS + 1))
    return best


def _json_sink(payload: dict[str, Any]) -> None:
    json.dumps(payload, default=repr)


async def _bench(cwd: str) -> list[tuple[str, float]]:
    await _seconds_per_turn(cwd, HOOKS, _json_sink)  # warm-up: imports, caches
    return [
        ("no hooks", await _seconds_per_turn(cwd, 0, None)),
        (f"{HOOKS} no-op hooks x {len(EVENTS)} events", await _seconds_per_turn(cwd, HOOKS, None)),
        (f"{HOOKS} hooks + JSON event listener", await _seconds_per_turn(cwd, HOOKS, _json_sink)),
    ]


def main() -> None:
    with tempfile.TemporaryDirectory() as cwd:
        rows = asyncio.run(_bench(cwd))
    base = rows[0][1]
    print(f"agent loop: {TURNS} turns, each one no-op tool call; in-memory session")
    print(f"{'case':<36} {'per turn':>10} {'turns/s':>10} {'ratio':>7}")
    for label, seconds in rows:
        print(f"{label:<36} {seconds * 1e6:>8.1f}µs {1 / seconds:>10,.0f} {seconds / base:>6.2f}x")
    overhead = (rows[1][1] - base) * 1e6
    print(f"hook overhead: {overhead:.1f}µs a turn ({rows[1][1] / base:.2f}x the hook-free loop)")
    print("100 000-entry session file load: see bench_session")


if __name__ == "__main__":
    main()
