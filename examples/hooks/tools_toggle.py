"""Tools toggle: ``/tools`` turns tools on and off; the choice is kept in the session.

The Python version of pi's tools example (its list UI is a select dialog here).
"""

from __future__ import annotations

from typing import Any

from hookline import HookAPI, HookContext, SessionStartEvent

ENTRY = "tools-toggle"


def register(pi: HookAPI) -> None:
    @pi.register_command("tools", description="enable or disable a tool: /tools [NAME]")
    async def toggle(args: str, ctx: Any) -> None:
        active = set(pi.get_active_tools())
        names = [t.name for t in pi.get_all_tools()]
        name = args.strip()
        if not name:
            options = [f"{n} [{'on' if n in active else 'off'}]" for n in names]
            picked = await ctx.ui.select("Toggle a tool", options)
            if picked is None:
                return
            name = picked.split(" ", 1)[0]
        if name not in names:
            ctx.ui.notify(f"no tool {name!r}", "error")
            return
        active ^= {name}
        chosen = [n for n in names if n in active]
        pi.set_active_tools(chosen)
        pi.append_entry(ENTRY, {"active": chosen})
        ctx.ui.notify(f"{name} {'on' if name in active else 'off'}", "info")

    @pi.on("session_start")
    def restore(event: SessionStartEvent, ctx: HookContext) -> None:
        known = {t.name for t in pi.get_all_tools()}
        for entry in reversed(ctx.session_manager.get_entries()):
            if entry["type"] == "custom" and entry["custom_type"] == ENTRY:
                pi.set_active_tools([n for n in entry["data"]["active"] if n in known])
                return
