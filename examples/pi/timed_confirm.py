"""pi's timed-confirm example: dialogs that close themselves, with a live countdown.

- ``/timed``: a confirm that answers "no" after 5 seconds (``timeout=``);
- ``/timed-select``: a select that answers nothing after 10 seconds;
- ``/timed-signal``: a confirm closed by an ``asyncio.Event`` the hook sets after
  5 seconds (``signal=``), for a hook that decides itself when a dialog ends.

Each says how its dialog ended. Timeouts are in seconds (pi's are milliseconds).

    hookline --hook examples/pi/timed_confirm.py      then  /timed
"""

from __future__ import annotations

import asyncio

from hookline import CommandContext, HookAPI

CONFIRM_SECONDS = 5.0
SELECT_SECONDS = 10.0
TITLE = "Timed Confirmation"
QUESTION = "This dialog will auto-cancel in 5 seconds. Confirm?"


def register(pi: HookAPI) -> None:
    @pi.register_command(
        "timed", description="Show a timed confirmation dialog (auto-cancels in 5s with countdown)"
    )
    async def timed(args: str, ctx: CommandContext) -> None:
        if await ctx.ui.confirm(TITLE, QUESTION, timeout=CONFIRM_SECONDS):
            ctx.ui.notify("Confirmed by user!", "info")
        else:
            ctx.ui.notify("Cancelled or timed out", "info")

    @pi.register_command(
        "timed-select",
        description="Show a timed select dialog (auto-cancels in 10s with countdown)",
    )
    async def timed_select(args: str, ctx: CommandContext) -> None:
        options = ["Option A", "Option B", "Option C"]
        choice = await ctx.ui.select("Pick an option", options, timeout=SELECT_SECONDS)
        if choice:
            ctx.ui.notify(f"Selected: {choice}", "info")
        else:
            ctx.ui.notify("Selection cancelled or timed out", "info")

    @pi.register_command(
        "timed-signal", description="Show a timed confirm using a signal (manual approach)"
    )
    async def timed_signal(args: str, ctx: CommandContext) -> None:
        signal = asyncio.Event()
        timer = asyncio.get_running_loop().call_later(CONFIRM_SECONDS, signal.set)
        ctx.ui.notify("Dialog will auto-cancel in 5 seconds...", "info")
        try:
            confirmed = await ctx.ui.confirm(TITLE, QUESTION, signal=signal)
        finally:
            timer.cancel()
        if confirmed:
            ctx.ui.notify("Confirmed by user!", "info")
        elif signal.is_set():
            ctx.ui.notify("Dialog timed out (auto-cancelled)", "warning")
        else:
            ctx.ui.notify("Cancelled by user", "info")
