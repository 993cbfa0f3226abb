"""The terminal app (prompt_toolkit + rich); imported only by interactive mode on a terminal."""

from __future__ import annotations

from hookline.agent.agent import Agent
from hookline.agent.setup import AgentBundle


async def run_tui(agent: Agent, bundle: AgentBundle) -> int:
    """Run the app until the user exits; the caller shuts the agent down."""
    from hookline.modes.tui.app import TuiApp

    return await TuiApp(agent, bundle).run()
