"""The ``/handoff`` command (oh-my-pi's handoff example): start a fresh session that carries on.

It waits for the agent to be idle, then opens a new session whose parent is
the current one and seeds it with a first message.
"""

from __future__ import annotations

import time
from typing import Any

from hookline import CommandContext, HookAPI


def register(pi: HookAPI) -> None:
    @pi.register_command("handoff", description="Create a new session with setup message")
    async def handoff(args: str, ctx: CommandContext) -> None:
        await ctx.wait_for_idle()

        def setup(sm: Any) -> None:
            sm.append_message(
                {
                    "role": "user",
                    "content": [{"type": "text", "text": "Continue from prior session summary."}],
                    "timestamp": time.time(),
                }
            )

        await ctx.new_session(parent_session=ctx.session_manager.get_session_file(), setup=setup)
