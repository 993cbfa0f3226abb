"""Dynamic tools: register tools after start-up, from ``session_start`` and from a command.

The Python version of pi's dynamic-tools example: a tool registered late is
offered to the model from its next call on, no reload needed. The echo tool
declares its parameters as a pydantic model: the model is sent the schema
generated from it, and a call with a wrong argument is refused before ``run``.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from pydantic import BaseModel, Field

from hookline import (
    HookAPI,
    HookContext,
    SessionStartEvent,
    Tool,
    ToolResult,
    ToolUpdate,
    parse_arguments,
)


class EchoParams(BaseModel):
    text: str = Field("", description="The text to echo")


async def clock(
    tool_call_id: str,
    params: dict[str, Any],
    signal: asyncio.Event | None,
    on_update: ToolUpdate | None,
    ctx: HookContext,
) -> ToolResult:
    now = time.strftime("%Y-%m-%d %H:%M:%S")
    return ToolResult([{"type": "text", "text": f"{now} (cwd {ctx.cwd})"}])


def echo_tool(name: str, prefix: str) -> Tool:
    async def run(
        tool_call_id: str,
        params: dict[str, Any],
        signal: asyncio.Event | None,
        on_update: ToolUpdate | None,
    ) -> ToolResult:
        args = parse_arguments(name, EchoParams, params)
        return ToolResult([{"type": "text", "text": f"{prefix}{args.text}"}])

    return Tool(
        name=name,
        description=f"Echo a text with the prefix {prefix!r}.",
        parameters=EchoParams,
        execute=run,
        prompt_snippet=f"echo a text prefixed with {prefix!r}",
    )


def register(pi: HookAPI) -> None:
    @pi.on("session_start")
    def add_clock(event: SessionStartEvent, ctx: HookContext) -> None:
        pi.register_tool(
            Tool("clock", "The local date and time.", {"type": "object"}, execute=clock)
        )

    @pi.register_command("add-echo", description="add an echo tool: /add-echo NAME PREFIX")
    def add_echo(args: str, ctx: Any) -> None:
        name, _, prefix = args.strip().partition(" ")
        if not name:
            ctx.ui.notify("usage: /add-echo NAME PREFIX", "error")
            return
        pi.register_tool(echo_tool(name, prefix))
        ctx.ui.notify(f"tool {name} added", "info")
