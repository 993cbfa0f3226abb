"""``permission_request``: allow read-only tools without asking."""

from __future__ import annotations

from typing import Any

from hookline import HookAPI, HookContext, PermissionRequestEvent


def register(pi: HookAPI) -> None:
    @pi.on("permission_request")
    def allow_reads(event: PermissionRequestEvent, ctx: HookContext) -> dict[str, Any] | None:
        if event.tool_name in ("read", "ls", "grep", "find"):
            return {"decision": "allow"}
        return None
