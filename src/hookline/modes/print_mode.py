"""Print mode (``-p``) and JSON mode (``--mode json``): one prompt, then exit.

Print writes the final answer to stdout; JSON writes every event as one JSON
line. Hook UI calls get the no-UI answers; notifications and hook errors go
to stderr so that stdout stays the answer.
"""

from __future__ import annotations

import json
import sys
from typing import Any, TextIO

from hookline.agent.agent import Agent
from hookline.core.messages import content_text
from hookline.core.ui import NotifyType, NoUI


class StderrUI(NoUI):
    """No UI, but notifications are shown on stderr (print and JSON modes)."""

    def __init__(self, stream: TextIO | None = None) -> None:
        super().__init__()
        self._stream = stream

    def notify(self, message: str, type: NotifyType = "info") -> None:
        super().notify(message, type)
        stream = self._stream or sys.stderr
        print(f"[{type}] {message}", file=stream, flush=True)


def _json_default(value: Any) -> Any:
    if hasattr(value, "model_dump"):
        return value.model_dump(exclude_none=True)
    if hasattr(value, "__dataclass_fields__"):
        return {k: getattr(value, k) for k in value.__dataclass_fields__}
    return repr(value)


def dumps(payload: dict[str, Any]) -> str:
    """One JSON line; objects that are not JSON are shown, never fatal."""
    return json.dumps(payload, default=_json_default, ensure_ascii=False)


async def run_print(agent: Agent, prompt: str, *, json_mode: bool = False) -> int:
    """Run ``prompt`` once; returns the exit code (1 when the model failed)."""
    out = sys.stdout
    if json_mode:
        agent.subscribe(lambda payload: print(dumps(payload), file=out, flush=True))
    try:
        await agent.start()
        added = await agent.prompt(prompt, source="print")
        await agent.wait_for_idle()
    finally:
        await agent.shutdown("exit")
    final = next((m for m in reversed(added) if m["role"] == "assistant"), None)
    if final is None:
        return 0
    if not json_mode:
        print(content_text(final["content"]), file=out, flush=True)
    return 1 if final.get("stop_reason") == "error" else 0
