"""pi's run semantics as a hookline hook: CASE picks the case, RECORD gets what it saw."""

import asyncio
import json
import os
from typing import Any

CASE = os.environ.get("CASE")


def record(x: Any) -> None:
    with open(os.environ["RECORD"], "a") as f:
        f.write(json.dumps(x) + "\n")


def register(pi: Any) -> None:
    ends = 0

    @pi.on("agent_end")
    async def send_at_agent_end(event: Any, ctx: Any) -> None:
        nonlocal ends
        if CASE == "slow_turn_end":
            record({"event": "agent_end"})
        if CASE != "send_at_agent_end":
            return
        ends += 1
        record({"event": "agent_end", "idle": ctx.is_idle()})
        if ends == 1:
            pi.send_user_message("once more")

    @pi.on("tool_result")
    async def follow_up(event: Any, ctx: Any) -> None:
        if CASE == "follow_up":
            pi.send_user_message("after the answer", deliver_as="follow_up")

    @pi.on("turn_start")
    async def turn_start(event: Any, ctx: Any) -> None:
        if CASE == "turn_index":
            record({"event": "turn_start", "turnIndex": event.turn_index})

    @pi.on("turn_end")
    async def slow_turn_end(event: Any, ctx: Any) -> None:
        if CASE != "slow_turn_end":
            return
        record({"event": "turn_end", "turnIndex": event.turn_index, "phase": "start"})
        await asyncio.sleep(1.5)
        record({"event": "turn_end", "turnIndex": event.turn_index, "phase": "done"})
        if event.turn_index == 0:
            raise RuntimeError("slow rule is broken")

    @pi.on("context")
    async def context(event: Any, ctx: Any) -> Any:
        if CASE == "slow_turn_end":
            record({"event": "context"})
        if CASE != "drop_result":
            return None
        return {"messages": [m for m in event.messages if m["role"] != "tool"]}
