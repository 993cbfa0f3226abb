"""Shutdown command: ``/quit`` and two tools end hookline cleanly with ``ctx.shutdown()``.

The Python version of pi's shutdown-command example. ``ctx.shutdown()`` asks for a
graceful exit: after the current run (at once when idle), with ``session_shutdown``, so
a tool may call it and still have its result reach the model first.
``finish_and_exit`` does only that; ``deploy_and_exit`` reports progress through
``on_update`` and returns the environment it deployed to.

Run it: ``hookline --hook examples/pi/shutdown_command.py``, then ``/quit``.
"""

from __future__ import annotations

import asyncio

from pydantic import BaseModel, Field

from hookline import HookAPI, HookContext, Tool, ToolResult, ToolUpdate


class NoParams(BaseModel):
    pass


class DeployParams(BaseModel):
    environment: str = Field(description="Target environment (e.g., production, staging)")


def said(words: str, details: dict[str, str] | None = None) -> ToolResult:
    return ToolResult([{"type": "text", "text": words}], details or {})


def register(pi: HookAPI) -> None:
    @pi.register_command("quit", description="Exit hookline cleanly")
    def quit_(args: str, ctx: HookContext) -> None:
        ctx.shutdown()

    async def finish_and_exit(
        tool_call_id: str,
        params: dict[str, object],
        signal: asyncio.Event | None,
        on_update: ToolUpdate | None,
        ctx: HookContext,
    ) -> ToolResult:
        ctx.shutdown()  # deferred until the run is over: this result still reaches the model
        return said("Shutdown requested. Exiting after this response.")

    async def deploy_and_exit(
        tool_call_id: str,
        params: dict[str, object],
        signal: asyncio.Event | None,
        on_update: ToolUpdate | None,
        ctx: HookContext,
    ) -> ToolResult:
        environment = str(params["environment"])
        if on_update is not None:
            on_update(said(f"Deploying to {environment}..."))
            on_update(said("Deployment complete, exiting..."))
        ctx.shutdown()
        return said("Done! Shutdown requested.", {"environment": environment})

    pi.register_tool(
        Tool(
            "finish_and_exit",
            "Complete a task and exit hookline",
            NoParams,
            finish_and_exit,
            label="Finish and Exit",
        )
    )
    pi.register_tool(
        Tool(
            "deploy_and_exit",
            "Deploy the application and exit hookline",
            DeployParams,
            deploy_and_exit,
            label="Deploy and Exit",
        )
    )
