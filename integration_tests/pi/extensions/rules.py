"""The differential rules as a hookline hook: CASE picks the rule, RECORD gets what it saw."""

import json
import os
from typing import Any

CASE = os.environ.get("CASE")


def record(x: Any) -> None:
    with open(os.environ["RECORD"], "a") as f:
        f.write(json.dumps(x) + "\n")


def register(pi: Any) -> None:
    @pi.on("session_start")
    async def session_start(event: Any, ctx: Any) -> None:
        if CASE == "session_start":
            record({"event": "session_start"})

    @pi.on("input")
    async def transform(event: Any, ctx: Any) -> Any:
        if CASE != "input":
            return None
        record({"event": "input", "text": event.text, "source": event.source})
        if event.text.startswith("?quick "):
            return {"text": "Respond briefly: " + event.text[7:]}
        return None

    @pi.on("before_agent_start")
    async def system_prompt(event: Any, ctx: Any) -> None:
        if CASE != "before_agent_start":
            return
        record({"event": "before_agent_start", "prompt": event.prompt})
        ctx.set_system_prompt(event.system_prompt + "\nRULE-42: answer in French.")

    @pi.on("tool_call")
    async def block(event: Any, ctx: Any) -> Any:
        if CASE != "tool_call":
            return None
        record({"event": "tool_call", "toolName": event.tool_name, "input": event.input})
        if event.tool_name == "bash" and "rm " in event.input["command"]:
            return {"block": True, "reason": "no rm here"}
        return None

    @pi.on("tool_result")
    async def rewrite(event: Any, ctx: Any) -> Any:
        if CASE != "tool_result":
            return None
        text = "".join(c.get("text", "") for c in event.content)
        record({"event": "tool_result", "toolName": event.tool_name, "text": text})
        return {"content": [{"type": "text", "text": "REDACTED"}]}

    @pi.on("tool_call")
    async def dialog(event: Any, ctx: Any) -> Any:
        if CASE != "dialog":
            return None
        ctx.ui.set_status("guard", "checking")
        ok = await ctx.ui.confirm("Run bash?", event.input["command"], timeout=20)
        record({"event": "dialog", "ok": ok})
        return None if ok else {"block": True, "reason": "not confirmed"}

    @pi.on("turn_end")
    async def broken(event: Any, ctx: Any) -> None:
        if CASE == "error":
            raise RuntimeError("rule is broken")
