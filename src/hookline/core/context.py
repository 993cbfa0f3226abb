"""``ctx``: what a handler sees of the agent besides the event."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from hookline.core.host import AgentHost, DetachedHost
from hookline.core.process import ExecResult, run_process
from hookline.core.ui import HookUI, NoUI


class HookContext:
    """One object per runner, kept current by the agent (UI, session file, model).

    Handlers must not keep it past their call expecting the same values: the
    agent updates it as the session moves.
    """

    def __init__(self, cwd: str, host: AgentHost | None = None) -> None:
        self.cwd = cwd
        self.ui: HookUI = NoUI()
        self.has_ui = False
        self.session_file: str | None = None
        self.session_manager: Any = None
        self.model: str | None = None
        self.host: AgentHost = host if host is not None else DetachedHost()

    async def exec(
        self,
        command: str,
        args: Sequence[str] = (),
        *,
        timeout: float | None = None,
        signal: asyncio.Event | None = None,
        cwd: str | None = None,
    ) -> ExecResult:
        """Run ``command args...`` in ``cwd``; ``timeout`` in seconds kills its process group."""
        return await run_process(
            [command, *args], cwd=cwd or self.cwd, timeout=timeout, signal=signal
        )

    def get_system_prompt(self) -> str:
        return self.host.get_system_prompt()

    def set_system_prompt(self, prompt: str) -> None:
        """Replace the system prompt for this run (reset every run, never cumulative)."""
        self.host.set_system_prompt(prompt)


class CommandContext(HookContext):
    """The context of a slash command handler: it may also wait and start sessions.

    It reads through to the runner's live context, so after ``new_session``
    ``session_file`` and ``session_manager`` are the new session's.
    """

    def __init__(self, base: HookContext) -> None:
        object.__setattr__(self, "_base", base)

    def __getattr__(self, name: str) -> Any:
        return getattr(object.__getattribute__(self, "_base"), name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(object.__getattribute__(self, "_base"), name, value)

    async def wait_for_idle(self) -> None:
        """Return once the agent is not streaming."""
        await self.host.wait_for_idle()

    async def new_session(
        self,
        *,
        parent_session: str | None = None,
        setup: Callable[[Any], Awaitable[None] | None] | None = None,
    ) -> bool:
        """Start a fresh session; ``setup(session_manager)`` may seed it. False if cancelled."""
        return await self.host.new_session(parent_session, setup)
