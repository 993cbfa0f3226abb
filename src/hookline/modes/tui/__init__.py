"""The terminal app (prompt_toolkit + rich); imported only by interactive mode on a terminal.

Start reading at ``app`` (``TuiApp`` wires the parts and owns the keys), then
``activity`` (agent events in, screen state out), ``transcript`` and
``live_area`` (how that state is drawn). ``ui`` and ``commands`` talk to the
app through the protocols in ``host``; ``launch`` draws the app before the
agent exists.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hookline.agent.agent import Agent
    from hookline.agent.setup import AgentBundle


async def run_tui(agent: Agent, bundle: AgentBundle, prompt: str | None = None) -> int:
    """Run the app for a built agent until the user exits; the caller shuts the agent down.

    (The command line draws the app first and builds the agent meanwhile: ``launch``.)
    """
    from hookline.modes.tui.app import TuiApp
    from hookline.modes.tui.footer import model_label

    app = TuiApp(agent.cwd, model_label(agent.provider.model_id))
    await app.start()
    return await app.serve(agent, bundle, prompt)
