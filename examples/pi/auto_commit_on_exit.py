"""pi's auto-commit-on-exit example: commit the work when the agent exits.

At ``session_shutdown``, when ``git status --porcelain`` lists changes, every
change is staged and committed with a message made from the first line of the
last assistant message: ``[pi] <first 50 characters>...`` ("Work in progress"
when there is none). Outside a git repository, or with nothing changed, it does
nothing; with a UI it says what it committed.

    hookline --hook examples/pi/auto_commit_on_exit.py
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from hookline import HookAPI, HookContext, SessionShutdownEvent

LIMIT = 50


def last_assistant_text(entries: Sequence[Mapping[str, Any]]) -> str:
    """The text blocks of the session's last assistant message, joined by newlines."""
    for entry in reversed(entries):
        message = entry.get("message") if entry.get("type") == "message" else None
        if isinstance(message, Mapping) and message.get("role") == "assistant":
            content = message.get("content")
            if not isinstance(content, list):
                return ""
            return "\n".join(
                str(block.get("text", ""))
                for block in content
                if isinstance(block, Mapping) and block.get("type") == "text"
            )
    return ""


def commit_message(text: str) -> str:
    first = text.split("\n")[0] or "Work in progress"
    return f"[pi] {first[:LIMIT]}{'...' if len(first) > LIMIT else ''}"


def register(pi: HookAPI) -> None:
    @pi.on("session_shutdown")
    async def commit(event: SessionShutdownEvent, ctx: HookContext) -> None:
        status = await pi.exec("git", ["status", "--porcelain"])
        if status.code != 0 or not status.stdout.strip():
            return  # not a git repository, or nothing changed
        message = commit_message(last_assistant_text(ctx.session_manager.get_entries()))
        await pi.exec("git", ["add", "-A"])
        done = await pi.exec("git", ["commit", "-m", message])
        if done.code == 0 and ctx.has_ui:
            ctx.ui.notify(f"Auto-committed: {message}", "info")
