"""pi's hello example: the smallest custom tool, ``hello`` greets the name it is given.

A tool is a name, a description, the JSON Schema of its parameters and an
``execute``; its result carries text for the model and ``details`` for UIs and
hooks (here the name greeted).

    hookline --hook examples/pi/hello.py -p "greet Ada with the hello tool"
"""

from __future__ import annotations

import asyncio
from typing import Any

from hookline import HookAPI, HookContext, Tool, ToolResult, ToolUpdate

PARAMETERS = {
    "type": "object",
    "properties": {"name": {"type": "string", "description": "Name to greet"}},
    "required": ["name"],
}


async def hello(
    tool_call_id: str,
    params: dict[str, Any],
    signal: asyncio.Event | None,
    on_update: ToolUpdate | None,
    ctx: HookContext,
) -> ToolResult:
    name = params["name"]
    return ToolResult([{"type": "text", "text": f"Hello, {name}!"}], details={"greeted": name})


def register(pi: HookAPI) -> None:
    pi.register_tool(
        Tool(
            name="hello",
            label="Hello",
            description="A simple greeting tool",
            parameters=PARAMETERS,
            execute=hello,
        )
    )
