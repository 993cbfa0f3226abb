"""Provider payload: log every request sent to the model and the answer's status, and cap
``max_tokens``.

The Python version of pi's provider-payload example. The log is JSON lines in
``$HOOKLINE_PAYLOAD_LOG`` (default ``.hookline/payloads.jsonl`` in the project).

Run it: ``hookline --hook examples/pi/provider_payload.py -p "hi"``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from hookline import (
    AfterProviderResponseEvent,
    BeforeProviderRequestEvent,
    HookAPI,
    HookContext,
)

MAX_TOKENS = 4096


def _log(ctx: HookContext, record: dict[str, Any]) -> None:
    path = Path(
        os.environ.get("HOOKLINE_PAYLOAD_LOG") or Path(ctx.cwd, ".hookline", "payloads.jsonl")
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as f:
        f.write(json.dumps(record, default=str) + "\n")


def register(pi: HookAPI) -> None:
    @pi.on("before_provider_request")
    def cap(event: BeforeProviderRequestEvent, ctx: HookContext) -> dict[str, Any]:
        payload = dict(event.payload)
        for key in ("max_tokens", "max_completion_tokens"):
            if isinstance(payload.get(key), int) and payload[key] > MAX_TOKENS:
                payload[key] = MAX_TOKENS
        _log(ctx, {"kind": "request", "provider": event.provider, "payload": payload})
        return payload

    @pi.on("after_provider_response")
    def status(event: AfterProviderResponseEvent, ctx: HookContext) -> None:
        _log(
            ctx,
            {
                "kind": "response",
                "provider": event.provider,
                "status": event.status,
                "request_id": event.request_id,
            },
        )
