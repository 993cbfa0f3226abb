"""The terminal app drawn before the agent exists: trust first, then the first frame.

Building the agent imports most of hookline (tools, the hook machinery, the
providers) and loads the hooks; drawing the app needs only prompt_toolkit. So
``hookline`` on a terminal opens a ``Launch``: an untrusted project's question
comes first, before anything from the project is used; then the app is drawn
and takes keys while the agent is imported and built; ``serve`` hands it over.
What is submitted meanwhile waits until the hooks are loaded.

Invalid settings files come before both (``settle_settings``): the settings
are read in a thread from the start; with a trust question to ask, they are
waited for and shown first, each as a screen of its own; otherwise the app is
drawn at once and they are shown in it, before the agent is built.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hookline.agent.agent import Agent
    from hookline.agent.setup import AgentBundle
    from hookline.modes.tui.app import TuiApp
    from hookline.settings.loader import LoadedSettings

#: The environment variable naming the model (``hookline.agent.model_choice.MODEL_ENV``).
_MODEL_ENV = "HOOKLINE_MODEL"


class Launch:
    """The app of one interactive run, from its first frame to the agent's arrival."""

    def __init__(
        self,
        cwd: str,
        *,
        model: str | None = None,
        trust_project: bool = False,
        settings_file: str | None = None,
    ) -> None:
        self.cwd = cwd
        #: Shown in the footer while loading: ``--model``, else ``HOOKLINE_MODEL`` (settings
        #: and API keys are read by the agent; until then the footer names no model).
        self.model = model or os.environ.get(_MODEL_ENV, "").strip()
        self.trust_project = trust_project
        #: ``--settings FILE``, read with the others.
        self.settings_file = settings_file
        #: Invalid settings files the user chose to go on without (``build_agent``'s).
        self.set_aside: frozenset[Path] = frozenset()
        self._settings: asyncio.Future[LoadedSettings] | None = None
        self._answer: bool | None = None
        self._app: TuiApp | None = None

    async def open(self) -> None:
        """Invalid settings and the trust question about an untrusted project with hooks
        (settings first), then draw the app (keys are read)."""
        from hookline.settings.trust import TrustStore, project_has_hooks

        self._settings = asyncio.ensure_future(asyncio.to_thread(self._read_settings))
        if (
            not self.trust_project
            and project_has_hooks(self.cwd)
            and not TrustStore().is_trusted(self.cwd)
        ):
            from hookline.modes.tui.trust import ask_trust

            await self.settle_settings()
            self._answer = await ask_trust(self.cwd)
        from hookline.modes.tui.app import TuiApp

        self._app = TuiApp(self.cwd, self.model)
        await self._app.start()

    def _read_settings(self) -> LoadedSettings:
        from hookline.settings.loader import load_settings

        cli = Path(self.settings_file) if self.settings_file else None
        return load_settings(Path(self.cwd), cli_settings=cli)

    async def settle_settings(self) -> None:
        """Each invalid settings file shown (once): the user goes on without it, or exits.

        Exiting, or a file that cannot be used at all (not JSON, unreadable, invalid
        managed settings), raises setup's error: nothing is started.
        """
        if self._settings is None:
            return
        read, self._settings = self._settings, None
        settings = await read
        if not settings.errors:
            return
        from hookline.agent.setup import unusable_settings

        if settings.stops:
            raise unusable_settings([str(file.error) for file in settings.stops])
        from hookline.modes.tui.settings_error import settings_error_dialog

        for file in settings.files:
            if file.may_set_aside:
                go_on = await self._ask(settings_error_dialog(file, self.cwd))
                if go_on is not True:
                    raise unusable_settings([str(file.error)])
                self.set_aside |= {file.path}

    async def _ask(self, dialog: Any) -> Any:
        """In the app once it is drawn, else as a screen of its own."""
        if self._app is not None:
            return await self._app.ask(dialog)
        from hookline.modes.tui.dialogs import run_alone

        return await run_alone(dialog)

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
