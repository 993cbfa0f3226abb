"""The example policy the image ships with: mount your own folder on /etc/hookline/hooks.

It denies a recursive delete of the filesystem root or the home folder and lets
everything else through to the agent's own permission rules.
"""

from __future__ import annotations

import re
from typing import Any

from hookline import HookAPI, HookContext, ToolCallEvent

_ROOT_DELETE = re.compile(r"\brm\s+(-[a-zA-Z]*[rR][a-zA-Z]*\s+)+(/|~|\$HOME)/?(\s|$)")


def register(pi: HookAPI) -> None:
    @pi.on("tool_call")
    def no_root_delete(event: ToolCallEvent, ctx: HookContext) -> dict[str, Any] | None:
        if event.tool_name != "bash":
            return None
        if _ROOT_DELETE.search(str(event.input.get("command", ""))):
            return {"block": True, "reason": "deleting / or the home folder is not allowed"}
        return None
