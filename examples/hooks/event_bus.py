"""Event bus: hooks talk over ``pi.events`` channels, apart from the agent's events.

The Python version of pi's event-bus example: one part announces each finished
run on ``run:done``, another (here the same file; usually another hook)
listens and keeps a count.
"""

from __future__ import annotations

from typing import Any

from hookline import AgentEndEvent, HookAPI, HookContext

CHANNEL = "run:done"


def register(pi: HookAPI) -> None:
    runs: list[dict[str, Any]] = []

    def heard(data: Any) -> None:
        runs.append(dict(data))

    pi.events.on(CHANNEL, heard)

    @pi.on("agent_end")
    def announce(event: AgentEndEvent, ctx: HookContext) -> None:
        pi.events.emit(CHANNEL, {"messages": len(event.messages), "denials": len(event.denials)})

    @pi.register_command("runs", description="how many runs ended, as heard on the bus")
    def show(args: str, ctx: Any) -> None:
        ctx.ui.notify(f"{len(runs)} runs ended; last: {runs[-1] if runs else None}", "info")
