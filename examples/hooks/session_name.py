"""Session name: ``/session-name NAME`` names the session (``/resume`` lists it by name);
the first prompt names an unnamed session.

The Python version of pi's session-name example.
"""

from __future__ import annotations

from typing import Any

from hookline import BeforeAgentStartEvent, HookAPI, HookContext

MAX_NAME = 60


def register(pi: HookAPI) -> None:
    @pi.register_command("session-name", description="name this session: /session-name NAME")
    def name(args: str, ctx: Any) -> None:
        if not args.strip():
            ctx.ui.notify(f"session name: {pi.get_session_name() or '(none)'}", "info")
            return
        pi.set_session_name(args.strip())

    @pi.on("before_agent_start")
    def auto(event: BeforeAgentStartEvent, ctx: HookContext) -> None:
        if pi.get_session_name() is None and event.prompt.strip():
            first_line = event.prompt.strip().splitlines()[0]
            pi.set_session_name(first_line[:MAX_NAME])
