"""Git checkpoints (pi's "Git Checkpointing" example): a stash ref per turn, restored on branch.

At every ``turn_start`` the working tree is captured with ``git stash create``
(which changes nothing); when the user branches back to a turn, the hook
offers to put the code back as it was then.

Two changes from pi's example: checkpoints are kept across runs (pi's clears
them on ``agent_end``, which leaves nothing to restore when the user branches
after a run), and the restore first drops the working tree's changes
(``git checkout -- .``) because ``git stash apply`` refuses to overwrite
local changes to the files the stash touches.
"""

from __future__ import annotations

from hookline import HookAPI, HookContext, SessionBeforeBranchEvent, TurnStartEvent

#: turn index → the stash commit taken when that turn started.
CHECKPOINTS: dict[int, str] = {}
#: (ref, exit code of ``git stash apply``) for every restore, newest last.
RESTORED: list[tuple[str, int | None]] = []


def register(pi: HookAPI) -> None:
    @pi.on("turn_start")
    async def checkpoint(event: TurnStartEvent, ctx: HookContext) -> None:
        result = await ctx.exec("git", ["stash", "create"])
        ref = result.stdout.strip()
        if ref:
            CHECKPOINTS[event.turn_index] = ref

    @pi.on("session_before_branch")
    async def restore(event: SessionBeforeBranchEvent, ctx: HookContext) -> None:
        ref = CHECKPOINTS.get(event.target_turn_index)
        if not ref:
            return
        choice = await ctx.ui.select(
            "Restore code state?", ["Yes, restore code to that point", "No, keep current code"]
        )
        if choice and choice.startswith("Yes"):
            await ctx.exec("git", ["checkout", "--", "."])
            applied = await ctx.exec("git", ["stash", "apply", ref])
            RESTORED.append((ref, applied.code))
            ctx.ui.notify("Code restored to checkpoint", "info")
