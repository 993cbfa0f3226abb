"""pi's dynamic-tools example: tools registered after start-up, from ``session_start`` and
from a command.

``echo_session`` is registered when the session starts; ``/add-echo-tool NAME``
registers another echo tool at run time (a name of lowercase letters, digits
and underscores, each once). A tool registered late is offered to the model
from its next call on, with its prompt snippet and guideline in the system
prompt. The parameters are a pydantic model: the model is sent the schema
generated from it, and a call with a wrong argument is refused before the
tool runs.

    hookline --hook examples/pi/dynamic_tools.py      then  /add-echo-tool shout
"""

from __future__ import annotations

import asyncio
import re
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

NAME = re.compile(r"[a-z0-9_]+")


class EchoParams(BaseModel):
    message: str = Field(description="Message to echo")


def normalize_tool_name(text: str) -> str | None:
    """``text`` as a tool name (trimmed, lowercased), or None when it is not one."""
    name = text.strip().lower()
    return name if NAME.fullmatch(name) else None


def echo_tool(name: str, label: str, prefix: str) -> Tool:
    async def run(
        tool_call_id: str,
        params: dict[str, Any],
        signal: asyncio.Event | None,
        on_update: ToolUpdate | None,
    ) -> ToolResult:
        args = parse_arguments(name, EchoParams, params)
        return ToolResult(
            [{"type": "text", "text": f"{prefix}{args.message}"}],
            details={"tool": name, "prefix": prefix},
        )

    return Tool(
        name=name,
        label=label,
        description=f"Echo a message with prefix: {prefix}",
        parameters=EchoParams,
        execute=run,
        prompt_snippet=f"Echo back user-provided text with {prefix.strip()} prefix",
        prompt_guidelines=["Use this tool when the user asks for exact echo output."],
    )


def register(pi: HookAPI) -> None:
    registered: set[str] = set()

    def register_echo_tool(name: str, label: str, prefix: str) -> bool:
        if name in registered:
            return False
        registered.add(name)
        pi.register_tool(echo_tool(name, label, prefix))
        return True

    @pi.on("session_start")
    def start(event: SessionStartEvent, ctx: HookContext) -> None:
        register_echo_tool("echo_session", "Echo Session", "[session] ")
        ctx.ui.notify("Registered dynamic tool: echo_session", "info")

    @pi.register_command(
        "add-echo-tool",
        description="Register a new echo tool dynamically: /add-echo-tool <tool_name>",
    )
    def add_echo_tool(args: str, ctx: HookContext) -> None:
        name = normalize_tool_name(args)
        if name is None:
            ctx.ui.notify(
                "Usage: /add-echo-tool <tool_name> (lowercase, numbers, underscores)", "warning"
            )
            return
        if not register_echo_tool(name, f"Echo {name}", f"[{name}] "):
            ctx.ui.notify(f"Tool already registered: {name}", "warning")
            return
        ctx.ui.notify(f"Registered dynamic tool: {name}", "info")
