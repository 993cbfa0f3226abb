"""pi's event-bus example: hooks talk over ``pi.events`` channels, apart from the agent's
events.

One part listens on ``my:notification`` and shows what it hears; ``/emit
[MESSAGE]`` and the session's start emit on it. Here both ends are in one file;
usually the emitter is another hook, which needs nothing but the channel's
name. The listener has no context of its own, so it keeps the one
``session_start`` handed over.

    hookline --hook examples/pi/event_bus.py      then  /emit hi
"""

from __future__ import annotations

from typing import Any

from hookline import HookAPI, HookContext, SessionStartEvent

CHANNEL = "my:notification"


def register(pi: HookAPI) -> None:
    current: list[HookContext] = []  # the context to notify through, once the session started

    @pi.on("session_start")
    def keep_context(event: SessionStartEvent, ctx: HookContext) -> None:
        current[:] = [ctx]

    def heard(data: Any) -> None:
        for ctx in current:
            ctx.ui.notify(f"Event from {data['from']}: {data['message']}", "info")

    pi.events.on(CHANNEL, heard)

    @pi.register_command("emit", description="Emit my:notification event (usage: /emit message)")
    def emit(args: str, ctx: HookContext) -> None:
        pi.events.emit(CHANNEL, {"message": args.strip() or "hello", "from": "/emit command"})

    @pi.on("session_start")
    def announce(event: SessionStartEvent, ctx: HookContext) -> None:
        pi.events.emit(CHANNEL, {"message": "Session started", "from": "event-bus-example"})
