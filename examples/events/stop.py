"""``stop``: keep the agent going once, to run the tests."""

from __future__ import annotations

from typing import Any

from hookline import HookAPI, HookContext, StopEvent


def register(pi: HookAPI) -> None:
    @pi.on("stop")
    def run_tests_first(event: StopEvent, ctx: HookContext) -> dict[str, Any] | None:
        if event.stop_hook_active:
            return None
        return {"block": True, "reason": "Run the tests, then stop."}
