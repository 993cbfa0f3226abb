"""Bookmarks: ``/bookmark LABEL`` labels the latest entry (``/tree`` shows it),
``/unbookmark`` clears it, ``/bookmarks`` lists them.

The Python version of pi's bookmark example.
"""

from __future__ import annotations

from typing import Any

from hookline import HookAPI


def register(pi: HookAPI) -> None:
    @pi.register_command("bookmark", description="label the latest entry: /bookmark LABEL")
    def bookmark(args: str, ctx: Any) -> None:
        leaf = ctx.session_manager.get_leaf_id()
        if leaf is None:
            ctx.ui.notify("nothing to bookmark yet", "error")
            return
        label = args.strip() or "bookmark"
        pi.set_label(leaf, label)
        ctx.ui.notify(f"bookmarked {leaf} as {label!r}", "info")

    @pi.register_command("unbookmark", description="clear the latest entry's label")
    def unbookmark(args: str, ctx: Any) -> None:
        labels = ctx.session_manager.get_labels()
        target = args.strip() or next(reversed(labels), None)
        if target is None or target not in labels:
            ctx.ui.notify("no bookmark to clear", "error")
            return
        pi.set_label(target, None)

    @pi.register_command("bookmarks", description="list the bookmarks")
    def bookmarks(args: str, ctx: Any) -> None:
        labels = ctx.session_manager.get_labels()
        lines = [f"{entry_id}: {label}" for entry_id, label in labels.items()]
        ctx.ui.notify("\n".join(lines) or "no bookmarks", "info")
