"""The watchdog sees sync hook code holding the event loop, names the hook, and tells the
error listeners once the loop is back."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from typing import Any

from hookline.core.api import HookAPI, LoadedHook
from hookline.core.events import TurnStartEvent
from hookline.core.runner import HookError, HookRunner
from hookline.core.watchdog import LoopWatchdog, _event_of


def blocking_handler(event: Any, ctx: Any) -> None:
    time.sleep(0.6)  # the attack: sync code that never yields to the loop


def quick_handler(event: Any, ctx: Any) -> None:
    return None


async def _run_with_watchdog(handler: Any) -> tuple[list[HookError], bytes]:
    hook = LoadedHook(path="/x/blocking.py")
    HookAPI(hook).on("turn_start", handler)
    runner = HookRunner([hook], timeout=0.1)
    errors: list[HookError] = []
    runner.on_error(errors.append)
    read, write = os.pipe()
    os.set_blocking(read, False)
    watchdog = LoopWatchdog(runner, asyncio.get_running_loop(), 0.1, stderr_fd=write)
    watchdog.start()
    try:
        await runner.emit(TurnStartEvent(turn_index=0, timestamp=0.0))
        if handler is blocking_handler:
            deadline = time.monotonic() + 10
            while not errors:  # the listener report arrives through the loop
                assert time.monotonic() < deadline, "no report reached the listeners"
                await asyncio.sleep(0.01)
        else:
            # give the watchdog several heartbeats in which nothing blocks
            for _ in range(5):
                await asyncio.sleep(0.1)
    finally:
        watchdog.stop()
        os.close(write)
    try:
        said = os.read(read, 65536)
    except BlockingIOError:
        said = b""
    os.close(read)
    return errors, said


async def test_sync_code_holding_the_loop_is_reported_while_it_runs_and_after() -> None:
    errors, said = await _run_with_watchdog(blocking_handler)
    line = said.decode()
    assert line.startswith("hookline: hook /x/blocking.py is blocking the event loop ")
    assert "sync code in blocking_handler, line" in line
    (error,) = errors
    assert (error.hook_path, error.event) == ("/x/blocking.py", "turn_start")
    assert error.error.startswith("blocked the event loop for ")
    assert "sync code in blocking_handler" in error.error


async def test_a_loop_that_keeps_turning_is_never_reported() -> None:
    errors, said = await _run_with_watchdog(quick_handler)
    assert errors == []
    assert said == b""


def test_the_event_is_known_by_the_handlers_code() -> None:
    """No frame's locals are read: a helper's frame is named by the handler that called it,
    and a function that handles two events is named for both."""
    registered: dict[Any, list[str]] = {}

    def helper() -> str:
        return _event_of(sys._getframe(), registered)

    def handler(event: Any, ctx: Any) -> str:
        return helper()

    assert handler(None, None) == "sync code"
    registered[handler.__code__] = ["tool_call"]
    assert handler(None, None) == "tool_call"
    registered[handler.__code__] = ["tool_call", "tool_result"]
    assert handler(None, None) == "tool_call or tool_result"
