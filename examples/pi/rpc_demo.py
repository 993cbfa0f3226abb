"""RPC demo: every dialog and display call a hook can make, for an RPC client to answer.

The Python version of pi's rpc-demo example. Under ``--mode rpc`` each ``ctx.ui`` call
is an ``extension_ui_request`` line; a dialog waits for the client's
``extension_ui_response``:

- ``set_title``, ``set_widget`` and ``set_status`` at session start, ``set_status`` on
  each turn;
- ``select`` for a dangerous ``bash`` command (``rm -rf``, ``sudo``), blocked without a UI;
- ``confirm`` before ``/new`` clears the session;
- ``input``, ``editor`` and ``set_editor_text`` from ``/rpc-input``, ``/rpc-editor``
  and ``/rpc-prefill``;
- ``notify`` after each dialog.

Run it: ``hookline --mode rpc --hook examples/pi/rpc_demo.py`` (with an RPC client).
"""

from __future__ import annotations

import re
from typing import Any

from hookline import (
    HookAPI,
    HookContext,
    SessionBeforeSwitchEvent,
    SessionBeforeSwitchResult,
    ToolCallEvent,
    ToolCallResult,
)

DANGEROUS = (re.compile(r"\brm\s+(-rf?|--recursive)", re.I), re.compile(r"\bsudo\b", re.I))


def register(pi: HookAPI) -> None:
    turns = 0

    @pi.on("session_start")
    def start(event: Any, ctx: HookContext) -> None:
        ctx.ui.set_title("hookline RPC Demo")
        ctx.ui.set_widget("rpc-demo", ["--- RPC Extension UI Demo ---", "Loaded and ready."])
        ctx.ui.set_status("rpc-demo", f"Turns: {turns}")

    @pi.on("session_switch")
    def switch(event: Any, ctx: HookContext) -> None:
        nonlocal turns
        turns = 0
        ctx.ui.set_title("hookline RPC Demo (new session)")
        ctx.ui.set_status("rpc-demo", f"Turns: {turns}")

    @pi.on("turn_start")
    def turn_start(event: Any, ctx: HookContext) -> None:
        nonlocal turns
        turns += 1
        ctx.ui.set_status("rpc-demo", f"Turn {turns} running...")

    @pi.on("turn_end")
    def turn_end(event: Any, ctx: HookContext) -> None:
        ctx.ui.set_status("rpc-demo", f"Turn {turns} done")

    @pi.on("tool_call")
    async def dangerous(event: ToolCallEvent, ctx: HookContext) -> ToolCallResult | None:
        if event.tool_name != "bash":
            return None
        command = str(event.input.get("command", ""))
        if not any(p.search(command) for p in DANGEROUS):
            return None
        if not ctx.has_ui:
            return ToolCallResult(block=True, reason="Dangerous command blocked (no UI)")
        choice = await ctx.ui.select(f"Dangerous command: {command}", ["Allow", "Block"])
        if choice != "Allow":
            ctx.ui.notify("Command blocked by user", "warning")
            return ToolCallResult(block=True, reason="Blocked by user")
        ctx.ui.notify("Command allowed", "info")
        return None

    @pi.on("session_before_switch")
    async def clear(
        event: SessionBeforeSwitchEvent, ctx: HookContext
    ) -> SessionBeforeSwitchResult | None:
        if event.reason != "new" or not ctx.has_ui:
            return None
        if not await ctx.ui.confirm("Clear session?", "All messages will be lost."):
            ctx.ui.notify("Clear cancelled", "info")
            return SessionBeforeSwitchResult(cancel=True)
        return None

    @pi.register_command(
        "rpc-input", description="Prompt for text input (demonstrates ctx.ui.input in RPC)"
    )
    async def rpc_input(args: str, ctx: HookContext) -> None:
        value = await ctx.ui.input("Enter a value", "type something...")
        ctx.ui.notify(f"You entered: {value}" if value else "Input cancelled", "info")

    @pi.register_command(
        "rpc-editor", description="Open multi-line editor (demonstrates ctx.ui.editor in RPC)"
    )
    async def rpc_editor(args: str, ctx: HookContext) -> None:
        text = await ctx.ui.editor("Edit some text", "Line 1\nLine 2\nLine 3")
        if text:
            ctx.ui.notify(f"Editor submitted ({len(text.splitlines())} lines)", "info")
        else:
            ctx.ui.notify("Editor cancelled", "info")

    @pi.register_command(
        "rpc-prefill", description="Prefill the input editor (demonstrates set_editor_text in RPC)"
    )
    def rpc_prefill(args: str, ctx: HookContext) -> None:
        ctx.ui.set_editor_text("This text was set by the rpc-demo extension.")
        ctx.ui.notify("Editor prefilled", "info")
