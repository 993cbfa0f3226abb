"""Reload runtime: ``/reload-runtime`` reloads the hooks, skills, prompts and themes, and a
tool lets the model ask for it.

The Python version of pi's reload-runtime example. A command's ``ctx.reload()`` fires
``session_shutdown``, loads the hooks anew and fires ``session_start`` (and
``resources_discover``) with reason ``reload``. Code after it still runs in the old
module, so a command treats the reload as its last step. A tool's ``ctx`` cannot reload,
so ``reload_runtime`` queues ``/reload-runtime`` as a follow-up user message instead.

Run it: ``hookline --hook examples/pi/reload_runtime.py``, then ``/reload-runtime``.
"""

from __future__ import annotations

import asyncio

from pydantic import BaseModel

from hookline import CommandContext, HookAPI, Tool, ToolResult, ToolUpdate


class NoParams(BaseModel):
    pass


def register(pi: HookAPI) -> None:
    @pi.register_command(
        "reload-runtime", description="Reload extensions, skills, prompts, and themes"
    )
    async def reload_runtime(args: str, ctx: CommandContext) -> None:
        await ctx.reload()  # the last step: the hooks after it are the new ones

    async def queue_reload(
        tool_call_id: str,
        params: dict[str, object],
        signal: asyncio.Event | None = None,
        on_update: ToolUpdate | None = None,
    ) -> ToolResult:
        pi.send_user_message("/reload-runtime", deliver_as="follow_up")
        return ToolResult(
            [{"type": "text", "text": "Queued /reload-runtime as a follow-up command."}], {}
        )

    pi.register_tool(
        Tool(
            "reload_runtime",
            "Reload extensions, skills, prompts, and themes",
            NoParams,
            queue_reload,
            label="Reload Runtime",
        )
    )
