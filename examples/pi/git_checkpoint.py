"""pi's git-checkpoint example: a ``git stash`` checkpoint per turn, offered back on a fork.

Each ``tool_result`` notes the session's current entry (the assistant message
whose tool calls just ran); at the next ``turn_start`` the working tree is
captured with ``git stash create`` (which changes nothing) and kept under that
entry. Forking the session at such an entry (``session_before_fork``) offers
to put the code back as it was then; without a UI nothing is restored.

Two changes from pi's example: checkpoints are kept across runs (pi's clears
them at ``agent_end``, which leaves nothing to restore once a run is over, the
only time a fork can be asked for), and a restore first drops the working
tree's changes (``git checkout -- .``) because ``git stash apply`` refuses to
overwrite local changes to the files the stash touches.

    hookline --hook examples/pi/git_checkpoint.py
"""

from __future__ import annotations

from hookline import (
    HookAPI,
    HookContext,
    SessionBeforeForkEvent,
    ToolResultEvent,
    TurnStartEvent,
)

RESTORE = "Yes, restore code to that point"
KEEP = "No, keep current code"


def register(pi: HookAPI) -> None:
    checkpoints: dict[str, str] = {}  # entry id → the stash commit taken after it
    current: list[str] = []  # the entry the next checkpoint belongs to

    @pi.on("tool_result")
    def note_entry(event: ToolResultEvent, ctx: HookContext) -> None:
        leaf = ctx.session_manager.get_leaf_id()
        if leaf is not None:
            current[:] = [leaf]

    @pi.on("turn_start")
    async def checkpoint(event: TurnStartEvent, ctx: HookContext) -> None:
        ref = (await pi.exec("git", ["stash", "create"])).stdout.strip()
        if ref and current:
            checkpoints[current[0]] = ref

    @pi.on("session_before_fork")
    async def restore(event: SessionBeforeForkEvent, ctx: HookContext) -> None:
        ref = checkpoints.get(event.entry_id or "")
        if not ref or not ctx.has_ui:
            return
        choice = await ctx.ui.select("Restore code state?", [RESTORE, KEEP])
        if choice and choice.startswith("Yes"):
            await pi.exec("git", ["checkout", "--", "."])
            await pi.exec("git", ["stash", "apply", ref])
            ctx.ui.notify("Code restored to checkpoint", "info")
