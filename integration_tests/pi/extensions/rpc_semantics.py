"""Run semantics as a hookline hook: every instance records what it saw; CASE picks the rule."""

import json
import os
from pathlib import Path
from typing import Any

CASE = os.environ.get("CASE")


def register(pi: Any) -> None:
    path = Path(os.environ["RECORD"])
    seen = path.read_text() if path.exists() else ""
    instance = sum('"factory"' in line for line in seen.splitlines()) + 1

    def record(x: dict[str, Any]) -> None:
        with path.open("a") as f:
            f.write(json.dumps({"instance": instance, **x}) + "\n")

    record({"event": "factory"})

    @pi.on("session_start")
    async def session_start(event: Any, ctx: Any) -> None:
        record({"event": "session_start", "reason": event.reason})

    @pi.on("session_shutdown")
    async def session_shutdown(event: Any, ctx: Any) -> None:
        record({"event": "session_shutdown", "reason": event.reason})

    @pi.on("session_before_compact")
    async def before_compact(event: Any, ctx: Any) -> Any:
        record({"event": "session_before_compact"})
        return {"cancel": True} if CASE == "cancel_compact" else None

    @pi.on("session_before_fork")
    async def before_fork(event: Any, ctx: Any) -> None:
        record({"event": "session_before_fork", "entryId": event.entry_id})

    @pi.on("model_select")
    async def model_select(event: Any, ctx: Any) -> None:
        model = event.model
        record(
            {
                "event": "model_select",
                "provider": model["provider"],
                "id": model["id"],
                "source": event.source,
            }
        )

    @pi.on("turn_end")
    async def broken(event: Any, ctx: Any) -> None:
        if CASE == "error":
            raise RuntimeError("rule is broken")

    @pi.register_command("hello", description="say hello")
    async def hello(args: str, ctx: Any) -> None:
        record({"event": "command", "name": "hello", "args": args})
        ctx.ui.notify("hello " + args, "info")
