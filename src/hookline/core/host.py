"""What a hook can ask of the agent that hosts it, and the stand-in used without one."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from hookline.core.messages import Content, CustomMessage


class AgentHost(Protocol):
    """The agent side of ``send``, ``send_message``, ``append_entry`` and command actions.

    The reference agent implements it; an embedding agent implements it to
    give hooks the same powers.
    """

    def send_message(self, message: CustomMessage, trigger_turn: bool) -> None: ...
    def send(self, text: str, attachments: list[Content] | None) -> None: ...
    def append_entry(self, custom_type: str, data: Any) -> None: ...
    def get_system_prompt(self) -> str: ...
    def set_system_prompt(self, prompt: str) -> None: ...
    def request_stop(self, reason: str) -> None: ...
    async def wait_for_idle(self) -> None: ...
    async def new_session(
        self,
        parent_session: str | None,
        setup: Callable[[Any], Awaitable[None] | None] | None,
    ) -> bool: ...


class DetachedHost:
    """The host before (or without) an agent: it keeps what hooks sent so nothing is lost.

    When an agent binds itself to the runner, ``HookRunner.bind_host`` replays
    the kept messages and entries into it in order.
    """

    def __init__(self) -> None:
        self.pending: list[tuple[str, tuple[Any, ...]]] = []
        self.system_prompt = ""

    def send_message(self, message: CustomMessage, trigger_turn: bool) -> None:
        self.pending.append(("send_message", (message, trigger_turn)))

    def send(self, text: str, attachments: list[Content] | None) -> None:
        self.pending.append(("send", (text, attachments)))

    def append_entry(self, custom_type: str, data: Any) -> None:
        self.pending.append(("append_entry", (custom_type, data)))

    def get_system_prompt(self) -> str:
        return self.system_prompt

    def set_system_prompt(self, prompt: str) -> None:
        self.system_prompt = prompt

    def request_stop(self, reason: str) -> None:
        """No run to stop before an agent is bound."""

    async def wait_for_idle(self) -> None:
        return None

    async def new_session(
        self,
        parent_session: str | None,
        setup: Callable[[Any], Awaitable[None] | None] | None,
    ) -> bool:
        raise RuntimeError("new_session() needs an agent: bind one with HookRunner.bind_host()")

    def replay_into(self, host: AgentHost) -> None:
        """Hand every kept call to ``host`` in the order it was made."""
        pending, self.pending = self.pending, []
        for name, args in pending:
            getattr(host, name)(*args)
