"""The terminal app (prompt_toolkit + rich); imported only by interactive mode on a terminal."""

from __future__ import annotations

import io
import sys

from hookline.agent.agent import Agent
from hookline.agent.setup import AgentBundle


class FollowStderr(io.StringIO):
    """Writes to whatever ``sys.stderr`` is now.

    Setup keeps the stream it is given for hook errors; while the app runs,
    ``sys.stderr`` prints above the app instead of over it.
    """

    def write(self, text: str) -> int:
        return sys.stderr.write(text)

    def flush(self) -> None:
        sys.stderr.flush()


async def run_tui(agent: Agent, bundle: AgentBundle) -> int:
    """Run the app until the user exits; the caller shuts the agent down."""
    from hookline.modes.tui.app import TuiApp

    return await TuiApp(agent, bundle).run()
