"""pi's session-name example: ``/session-name NAME`` gives the session a friendly name.

The name is a session entry; ``/resume`` lists the session by it instead of
its first message. ``/session-name`` alone says the current name.

    hookline --hook examples/pi/session_name.py      then  /session-name auth work
"""

from __future__ import annotations

from hookline import CommandContext, HookAPI


def register(pi: HookAPI) -> None:
    @pi.register_command(
        "session-name", description="Set or show session name (usage: /session-name [new name])"
    )
    def session_name(args: str, ctx: CommandContext) -> None:
        name = args.strip()
        if name:
            pi.set_session_name(name)
            ctx.ui.notify(f"Session named: {name}", "info")
            return
        current = pi.get_session_name()
        ctx.ui.notify(f"Session: {current}" if current else "No session name set", "info")
