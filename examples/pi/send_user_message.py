"""Send user messages from commands: messages that read as if the user typed them.

The Python version of pi's send-user-message example. Unlike ``pi.send_message`` (a
custom message), ``pi.send_user_message`` sends a user message, which always gets an
answer; it passes through the ``input`` hooks with ``source="extension"``.

- ``/ask TEXT`` starts a run (refused while one streams: use the next two);
- ``/steer TEXT`` lands after the current tool call (a plain message when idle);
- ``/followup TEXT`` waits for the run to end (a plain message when idle);
- ``/askwith TEXT`` sends structured content: several text blocks (images go there too).

Run it: ``hookline --hook examples/pi/send_user_message.py``, then ``/ask What is 2+2?``.
"""

from __future__ import annotations

from hookline import Content, HookAPI, HookContext


def register(pi: HookAPI) -> None:
    def usage(args: str, ctx: HookContext, name: str) -> bool:
        """True (and the usage shown) when no text was given."""
        if args.strip():
            return False
        ctx.ui.notify(f"Usage: /{name} <message>", "warning")
        return True

    @pi.register_command("ask", description="Send a user message to the agent")
    def ask(args: str, ctx: HookContext) -> None:
        if usage(args, ctx, "ask"):
            return
        if not ctx.is_idle():  # without deliver_as a streaming agent refuses it
            ctx.ui.notify("Agent is busy. Use /steer or /followup instead.", "warning")
            return
        pi.send_user_message(args)

    @pi.register_command(
        "steer", description="Send a steering message (interrupts current processing)"
    )
    def steer(args: str, ctx: HookContext) -> None:
        if usage(args, ctx, "steer"):
            return
        if ctx.is_idle():
            pi.send_user_message(args)
        else:
            pi.send_user_message(args, deliver_as="steer")

    @pi.register_command(
        "followup", description="Queue a follow-up message (waits for current processing)"
    )
    def followup(args: str, ctx: HookContext) -> None:
        if usage(args, ctx, "followup"):
            return
        if ctx.is_idle():
            pi.send_user_message(args)
        else:
            pi.send_user_message(args, deliver_as="follow_up")
            ctx.ui.notify("Follow-up queued", "info")

    @pi.register_command("askwith", description="Send a user message with structured content")
    def askwith(args: str, ctx: HookContext) -> None:
        if usage(args, ctx, "askwith"):
            return
        if not ctx.is_idle():
            ctx.ui.notify("Agent is busy", "warning")
            return
        blocks: list[Content] = [
            {"type": "text", "text": f"User request: {args}"},
            {"type": "text", "text": "Please respond concisely."},
        ]
        pi.send_user_message(blocks)
