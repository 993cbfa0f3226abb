"""Send user messages from commands: ``/ask`` starts a run, ``/steer`` interrupts the current
one after its tool call, ``/followup`` queues a prompt for when it ends.

The Python version of pi's send-user-message example.
"""

from __future__ import annotations

from typing import Any

from hookline import HookAPI


def register(pi: HookAPI) -> None:
    @pi.register_command("ask", description="send a user message (starts a run when idle)")
    def ask(args: str, ctx: Any) -> None:
        if not args.strip():
            return
        if not ctx.is_idle():  # without deliver_as a busy agent refuses the message
            ctx.ui.notify("the agent is busy: use /steer or /followup", "warning")
            return
        pi.send_user_message(args.strip())

    @pi.register_command("steer", description="interrupt the run after the current tool call")
    def steer(args: str, ctx: Any) -> None:
        if ctx.is_idle():
            ctx.ui.notify("nothing to steer: the agent is idle (use /ask)", "warning")
            return
        pi.send_user_message(args.strip(), deliver_as="steer")

    @pi.register_command("followup", description="queue a prompt for when the run ends")
    def followup(args: str, ctx: Any) -> None:
        pi.send_user_message(args.strip(), deliver_as="follow_up")
