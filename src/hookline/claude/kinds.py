"""The kinds of Claude hook behind one type: how each runs, and what each may set.

A settings hook is a ``command``, ``http``, ``mcp_tool``, ``prompt`` or
``agent`` hook; code adds ``callback`` hooks. The engine asks a hook's kind
(``kind_of``) instead of testing the settings' type: ``run`` runs one hook,
and the settings any kind may leave out (``if``, ``statusMessage``,
``once``, ``onFailure``, ``asyncRewake``) read as "not set" on the kinds
that have none.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from hookline.claude.callbacks import run_callback_hook
from hookline.claude.command import run_command_hook
from hookline.claude.config import HookDefinition, HookSpec
from hookline.claude.http_hook import HttpHookPolicy, run_http_hook
from hookline.claude.mcp_hook import McpToolCaller, run_mcp_tool_hook
from hookline.claude.model_hooks import ModelRunner, run_model_hook
from hookline.claude.timeouts import hook_timeout
from hookline.settings.models import (
    AgentHookConfig,
    CommandHookConfig,
    HttpHookConfig,
    McpToolHookConfig,
    OnFailure,
    PromptHookConfig,
)

if TYPE_CHECKING:
    import asyncio

    from hookline.claude.async_hooks import AsyncHookRegistry
    from hookline.claude.outcome import Outcome

__all__ = ["HookKind", "HookRuntime", "kind_of"]


@dataclass(frozen=True, slots=True)
class HookRuntime:
    """What every hook of one event runs with: the engine's seams and the event's env."""

    project_dir: str
    env: dict[str, str]
    signal: asyncio.Event | None
    max_output: int
    shell: str | None
    registry: AsyncHookRegistry
    http_policy: HttpHookPolicy
    mcp_tools: McpToolCaller | None
    model_runner: ModelRunner | None


class HookKind(ABC):
    """One hook's kind: ``run`` is its own, the optional settings default to "not set"."""

    __slots__ = ()

    @property
    def condition(self) -> str | None:
        """The ``if`` rule a tool call must meet; ``None``: every call."""
        return None

    @property
    def status_message(self) -> str | None:
        return None

    @property
    def once(self) -> bool:
        """Runs at most once per session."""
        return False

    @property
    def on_failure(self) -> OnFailure | None:
        return None

    @property
    def async_rewake(self) -> bool:
        """Runs in the background, and its exit 2 wakes the model."""
        return False

    @abstractmethod
    async def run(
        self, hook: HookDefinition, payload: dict[str, Any], runtime: HookRuntime
    ) -> Outcome:
        """Run ``hook`` on ``payload``; an Outcome whatever happens."""


class _Written(Protocol):
    """The optional settings every kind written in a settings file has."""

    @property
    def if_(self) -> str | None: ...
    @property
    def status_message(self) -> str | None: ...
    @property
    def once(self) -> bool: ...


_Settings = TypeVar("_Settings", bound=_Written)


class _FromSettings(HookKind, Generic[_Settings]):
    """A kind written in a settings file: ``if``, ``statusMessage`` and ``once`` are its."""

    __slots__ = ("spec",)

    def __init__(self, spec: _Settings) -> None:
        self.spec = spec

    @property
    def condition(self) -> str | None:
        return self.spec.if_

    @property
    def status_message(self) -> str | None:
        return self.spec.status_message

    @property
    def once(self) -> bool:
        return self.spec.once


class CommandKind(_FromSettings[CommandHookConfig]):
    """A process: the input on stdin, the answer in its exit code and stdout."""

    __slots__ = ()

    @property
    def on_failure(self) -> OnFailure | None:
        return self.spec.on_failure

    @property
    def async_rewake(self) -> bool:
        return self.spec.async_rewake

    async def run(
        self, hook: HookDefinition, payload: dict[str, Any], runtime: HookRuntime
    ) -> Outcome:
        return await run_command_hook(
            hook,
            payload,
            project_dir=runtime.project_dir,
            cwd=payload.get("cwd"),
            env=runtime.env,
            signal=runtime.signal,
            max_output=runtime.max_output,
            registry=runtime.registry,
            shell=runtime.shell,
            timeout=hook_timeout(self.spec, hook.event, runtime.env),
        )


class HttpKind(_FromSettings[HttpHookConfig]):
    """A POST of the input to a URL the settings allow."""

    __slots__ = ()

    @property
    def on_failure(self) -> OnFailure | None:
        return self.spec.on_failure

    async def run(
        self, hook: HookDefinition, payload: dict[str, Any], runtime: HookRuntime
    ) -> Outcome:
        return await run_http_hook(
            hook,
            payload,
            timeout=hook_timeout(self.spec, hook.event, runtime.env),
            env=runtime.env,
            policy=runtime.http_policy,
            signal=runtime.signal,
            max_output=runtime.max_output,
        )


class McpToolKind(_FromSettings[McpToolHookConfig]):
    """A tool call on one of the session's MCP servers."""

    __slots__ = ()

    @property
    def on_failure(self) -> OnFailure | None:
        return self.spec.on_failure

    async def run(
        self, hook: HookDefinition, payload: dict[str, Any], runtime: HookRuntime
    ) -> Outcome:
        return await run_mcp_tool_hook(
            hook,
            payload,
            caller=runtime.mcp_tools,
            timeout=hook_timeout(self.spec, hook.event, runtime.env),
            signal=runtime.signal,
            max_output=runtime.max_output,
        )


class ModelKind(_FromSettings[PromptHookConfig | AgentHookConfig]):
    """A ``prompt`` or ``agent`` hook: the agent's model answers ``{ok, reason}``."""

    __slots__ = ()

    async def run(
        self, hook: HookDefinition, payload: dict[str, Any], runtime: HookRuntime
    ) -> Outcome:
        return await run_model_hook(hook, payload, runtime.model_runner)


class CallbackKind(HookKind):
    """A Python callable registered in code (``add_callback``)."""

    __slots__ = ()

    async def run(
        self, hook: HookDefinition, payload: dict[str, Any], runtime: HookRuntime
    ) -> Outcome:
        return await run_callback_hook(hook, payload, payload.get("tool_use_id"), runtime.signal)


#: A hook's ``type`` → its kind.
_KINDS: dict[str, Callable[[Any], HookKind]] = {
    "command": CommandKind,
    "http": HttpKind,
    "mcp_tool": McpToolKind,
    "prompt": ModelKind,
    "agent": ModelKind,
    "callback": lambda _spec: CallbackKind(),
}


def kind_of(spec: HookSpec) -> HookKind:
    """The kind of the hook ``spec`` configures."""
    return _KINDS[spec.type](spec)
