"""pi's bookmark example: ``/bookmark [LABEL]`` labels the last assistant message, so
``/tree`` shows where the good points of a session are; ``/unbookmark`` removes the
latest label.

Labels are session entries (``pi.set_label``), read back with
``ctx.session_manager.get_labels()``. Without a label the bookmark is named
``bookmark-<milliseconds since the epoch>``.

    hookline --hook examples/pi/bookmark.py      then  /bookmark good state
"""

from __future__ import annotations

import time
from collections.abc import Mapping

from hookline import HookAPI, HookContext


def register(pi: HookAPI) -> None:
    @pi.register_command("bookmark", description="Bookmark last message (usage: /bookmark [label])")
    def bookmark(args: str, ctx: HookContext) -> None:
        label = args.strip() or f"bookmark-{time.time_ns() // 1_000_000}"
        for entry in reversed(ctx.session_manager.get_entries()):
            message = entry.get("message") if entry.get("type") == "message" else None
            if isinstance(message, Mapping) and message.get("role") == "assistant":
                pi.set_label(entry["id"], label)
                ctx.ui.notify(f"Bookmarked as: {label}", "info")
                return
        ctx.ui.notify("No assistant message to bookmark", "warning")

    @pi.register_command("unbookmark", description="Remove bookmark from last labeled entry")
    def unbookmark(args: str, ctx: HookContext) -> None:
        labels = ctx.session_manager.get_labels()
        for entry in reversed(ctx.session_manager.get_entries()):
            label = labels.get(entry["id"])
            if label:
                pi.set_label(entry["id"], None)
                ctx.ui.notify(f"Removed bookmark: {label}", "info")
                return
        ctx.ui.notify("No bookmarked entry found", "warning")
