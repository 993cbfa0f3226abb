"""Status line: the turn's progress in the footer's status line, in the theme's colours.

The Python version of pi's status-line example: ``ctx.ui.theme.fg(name, text)``
colours each part (``accent`` while a turn runs, ``success`` once it ended, ``dim``
for the words); the terminal app draws the colours, print/JSON/RPC get plain text.
``/status-theme NAME`` switches the theme (``dark``, ``light`` or a custom one).
"""

from __future__ import annotations

from typing import Any

from hookline import HookAPI, HookContext, SessionSwitchEvent, TurnEndEvent, TurnStartEvent

KEY = "status-demo"


def register(pi: HookAPI) -> None:
    turns = 0

    def ready(ctx: HookContext) -> None:
        ctx.ui.set_status(KEY, ctx.ui.theme.fg("dim", "Ready"))

    @pi.on("session_start")
    def start(event: Any, ctx: HookContext) -> None:
        ready(ctx)

    @pi.on("turn_start")
    def turn_start(event: TurnStartEvent, ctx: HookContext) -> None:
        nonlocal turns
        turns += 1
        theme = ctx.ui.theme
        ctx.ui.set_status(KEY, theme.fg("accent", "●") + theme.fg("dim", f" Turn {turns}..."))

    @pi.on("turn_end")
    def turn_end(event: TurnEndEvent, ctx: HookContext) -> None:
        theme = ctx.ui.theme
        done = theme.fg("success", "✓") + theme.fg("dim", f" Turn {turns} complete")
        ctx.ui.set_status(KEY, done)

    @pi.on("session_switch")
    def switch(event: SessionSwitchEvent, ctx: HookContext) -> None:
        nonlocal turns
        if event.reason == "new":
            turns = 0
            ready(ctx)

    @pi.register_command("status-theme", description="switch the theme: /status-theme NAME")
    def status_theme(args: str, ctx: HookContext) -> None:
        result = ctx.ui.set_theme(args.strip() or "dark")
        if result.success:
            ready(ctx)
        else:
            ctx.ui.notify(f"theme not switched: {result.error}", "error")
