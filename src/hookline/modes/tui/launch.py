"""The terminal app drawn before the agent exists: trust first, then the first frame.

Building the agent imports most of hookline (tools, the hook machinery, the
providers) and loads the hooks; drawing the app needs only prompt_toolkit. So
``hookline`` on a terminal opens a ``Launch``: an untrusted project's question
comes first, before anything from the project is read; then the app is drawn
and takes keys while the agent is imported and built; ``serve`` hands it over.
What is submitted meanwhile waits until the hooks are loaded.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hookline.agent.agent import Agent
    from hookline.agent.setup import AgentBundle
    from hookline.modes.tui.app import TuiApp

#: The environment variable naming the model (``hookline.agent.model_choice.MODEL_ENV``).
_MODEL_ENV = "HOOKLINE_MODEL"


class Launch:
    """The app of one interactive run, from its first frame to the agent's arrival."""

    def __init__(self, cwd: str, *, model: str | None = None, trust_project: bool = False) -> None:
        self.cwd = cwd
        #: Shown in the footer while loading: ``--model``, else ``HOOKLINE_MODEL`` (settings
        #: and API keys are read by the agent; until then the footer names no model).
        self.model = model or os.environ.get(_MODEL_ENV, "").strip()
        self.trust_project = trust_project
        self._answer: bool | None = None
        self._app: TuiApp | None = None

    async def open(self) -> None:
        """Ask about an untrusted project with hooks, then draw the app (keys are read)."""
        from hookline.settings.trust import TrustStore, project_has_hooks

        if (
            not self.trust_project
            and project_has_hooks(self.cwd)
            and not TrustStore().is_trusted(self.cwd)
        ):
            from hookline.modes.tui.trust import ask_trust

            self._answer = await ask_trust(self.cwd)
        from hookline.modes.tui.app import TuiApp

        self._app = TuiApp(self.cwd, self.model)
        await self._app.start()

    async def ask_trust(self, cwd: str) -> bool:
        """Setup's trust question, answered before the app was drawn.

        Not asked then (the project gained hooks since): not trusted, said on stderr
        by setup, asked again next time. A question is never answered by keys meant
        for the editor.
        """
        return cwd == self.cwd and self._answer is True

    async def serve(self, agent: Agent, bundle: AgentBundle, prompt: str | None = None) -> int:
        """Run the app with the loaded agent until the user exits; the caller shuts it down.

        ``prompt`` (``hookline "..."``) is sent first."""
        assert self._app is not None, "open() first"
        return await self._app.serve(agent, bundle, prompt)

    async def close(self) -> None:
        """End the app when no agent comes (setup failed): the terminal is restored."""
        if self._app is not None:
            await self._app.close()
