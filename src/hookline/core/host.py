"""What a hook can ask of the agent that hosts it, and the stand-in used without one."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol

from hookline.core.messages import Content, CustomMessage, Message
from hookline.core.tool import ToolInfo

if TYPE_CHECKING:
    import asyncio


#: How the agent runs, as hooks read it in ``ctx.mode`` (``--mode``; ``serve`` answers
#: another agent's events).
RunMode = Literal["interactive", "rpc", "json", "print", "serve"]


def agent_env(mode: RunMode, environ: Mapping[str, str]) -> dict[str, str]:
    """``environ`` as the agent's hooks and bash commands get it, marked as Claude Code marks
    its own: ``CLAUDECODE=1`` and ``CLAUDE_CODE_ENTRYPOINT``, ``cli`` in the terminal app and
    ``sdk-cli`` in every mode a program drives (print, json, rpc, serve), so a guard written
    for Claude Code tells hookline's runs apart the same way. An entrypoint already set (by
    an SDK that started this process) is kept, as Claude Code keeps it."""
    entrypoint = "cli" if mode == "interactive" else "sdk-cli"
    return {"CLAUDE_CODE_ENTRYPOINT": entrypoint, **environ, "CLAUDECODE": "1"}


class SessionView(Protocol):
    """``ctx.session_manager``: the session's read methods, and nothing that writes.

    The agent's is ``hookline.session.ReadonlySession``; entries are the session
    file's JSON objects (``hookline.session.SessionEntry`` spells out their keys).
    """

    def get_session_file(self) -> str | None: ...
    def get_session_id(self) -> str: ...
    def get_cwd(self) -> str: ...
    def get_header(self) -> Mapping[str, Any]: ...
    def get_entries(self) -> Sequence[Mapping[str, Any]]: ...
    def get_entry(self, entry_id: str) -> Mapping[str, Any] | None: ...
    def get_leaf_id(self) -> str | None: ...
    def get_branch(self, leaf: str | None = None) -> Sequence[Mapping[str, Any]]: ...
    def get_tree(self) -> Mapping[str | None, Sequence[str]]: ...
    def get_session_name(self) -> str | None: ...
    def get_labels(self) -> Mapping[str, str]: ...
    def build_context_messages(self) -> Sequence[Message]: ...


class EmptySession:
    """The session a hook sees with no agent (or before one has a session): nothing in it."""

    __slots__ = ()

    def get_session_file(self) -> str | None:
        return None

    def get_session_id(self) -> str:
        return ""

    def get_cwd(self) -> str:
        return ""

    def get_header(self) -> Mapping[str, Any]:
        return {}

    def get_entries(self) -> Sequence[Mapping[str, Any]]:
        return ()

    def get_entry(self, entry_id: str) -> Mapping[str, Any] | None:
        return None

    def get_leaf_id(self) -> str | None:
        return None

    def get_branch(self, leaf: str | None = None) -> Sequence[Mapping[str, Any]]:
        return ()

    def get_tree(self) -> Mapping[str | None, Sequence[str]]:
        return {}

    def get_session_name(self) -> str | None:
        return None

    def get_labels(self) -> Mapping[str, str]:
        return {}

    def build_context_messages(self) -> Sequence[Message]:
        return ()


#: The one empty session (it holds nothing, so one serves every host).
EMPTY_SESSION = EmptySession()


@dataclass(frozen=True, slots=True)
class ContextUsage:
    """How full the model's context window is; ``tokens``/``percent`` are None when unknown."""

    tokens: int | None
    context_window: int
    percent: float | None


@dataclass(frozen=True, slots=True)
class ModelInfo:
    """The current model as hooks see it; ``spec`` is what ``--model`` takes."""

    provider: str
    id: str
    context_window: int

    @property
    def spec(self) -> str:
        return f"{self.provider}:{self.id}"


class NamedModel(Protocol):
    """Anything that names a model by its spec: ``ModelInfo``, a registry's ``ModelEntry``."""

    @property
    def spec(self) -> str: ...


class ModelRegistryView(Protocol):
    """``ctx.model_registry``: the models a hook may call and the credentials each call would
    send (pi's ``ModelRegistry``). The agent's is ``hookline.agent.model_registry.ModelRegistry``;
    its models are ``ModelEntry`` objects, which ``complete()`` takes."""

    def get_all(self) -> Sequence[Any]: ...
    def get_available(self) -> Sequence[Any]: ...
    def find(self, provider: str, model_id: str) -> Any | None: ...
    def get_api_key(self, model: Any) -> str | None: ...
    def get_api_key_and_headers(self, model: Any) -> Any: ...
    def get_api_key_for_provider(self, provider: str) -> str | None: ...
    def has_configured_auth(self, model: Any) -> bool: ...
    def register_provider(self, name: str, config: Any, hook_path: str = "") -> None: ...
    def unregister_provider(self, name: str) -> None: ...
    async def login(self, provider: str, callbacks: Any) -> Any: ...


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
    def get_active_tools(self) -> list[str]: ...
    def get_all_tools(self) -> list[ToolInfo]: ...
    def set_active_tools(self, names: list[str]) -> None: ...
    def deliver(self, message: Message, deliver_as: str | None, trigger_turn: bool) -> None: ...
    def set_session_name(self, name: str) -> None: ...
    def get_session_name(self) -> str | None: ...
    def set_label(self, entry_id: str, label: str | None) -> None: ...
    # -- control flow (``ctx``) --
    def is_idle(self) -> bool: ...
    def abort(self) -> None: ...
    def has_pending_messages(self) -> bool: ...
    def request_shutdown(self) -> None: ...
    def start_compaction(self, custom_instructions: str | None) -> asyncio.Task[bool]:
        """Compact once idle; the task's result says whether a compaction was written."""

    def get_context_usage(self) -> ContextUsage | None: ...
    def get_signal(self) -> asyncio.Event | None: ...
    def get_model_info(self) -> ModelInfo | None: ...
    async def select_model(self, spec: str) -> bool: ...
    def get_model_registry(self) -> ModelRegistryView: ...
    def get_thinking_level(self) -> str: ...
    def set_thinking_level(self, level: str) -> None: ...
    # -- session facts (``ctx.session_file`` ...: asked at each read, never copied) --
    def get_session_file(self) -> str | None: ...
    def get_session_manager(self) -> SessionView: ...
    def get_mode(self) -> RunMode: ...
    def get_permission_mode(self) -> str | None: ...
    # -- command context --
    async def fork(self, entry_id: str | None) -> bool: ...
    async def navigate_tree(
        self,
        target_id: str,
        *,
        summarize: bool = False,
        custom_instructions: str | None = None,
        replace_instructions: bool = False,
        label: str | None = None,
    ) -> bool: ...
    async def switch_session(self, path: str) -> bool: ...
    async def reload(self) -> None: ...


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

    def get_active_tools(self) -> list[str]:
        return []

    def get_all_tools(self) -> list[ToolInfo]:
        return []

    def set_active_tools(self, names: list[str]) -> None:
        self.pending.append(("set_active_tools", (names,)))

    def deliver(self, message: Message, deliver_as: str | None, trigger_turn: bool) -> None:
        self.pending.append(("deliver", (message, deliver_as, trigger_turn)))

    def set_session_name(self, name: str) -> None:
        self.pending.append(("set_session_name", (name,)))

    def get_session_name(self) -> str | None:
        return None

    def set_label(self, entry_id: str, label: str | None) -> None:
        self.pending.append(("set_label", (entry_id, label)))

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

    def is_idle(self) -> bool:
        return True

    def abort(self) -> None:
        """Nothing runs before an agent is bound."""

    def has_pending_messages(self) -> bool:
        return any(name in ("send", "send_message", "deliver") for name, _ in self.pending)

    def request_shutdown(self) -> None:
        self.pending.append(("request_shutdown", ()))

    def start_compaction(self, custom_instructions: str | None) -> asyncio.Task[bool]:
        raise RuntimeError("compact() needs an agent: bind one with HookRunner.bind_host()")

    def get_context_usage(self) -> ContextUsage | None:
        return None

    def get_signal(self) -> asyncio.Event | None:
        return None

    def get_model_info(self) -> ModelInfo | None:
        return None

    async def select_model(self, spec: str) -> bool:
        raise RuntimeError("set_model() needs an agent: bind one with HookRunner.bind_host()")

    def get_model_registry(self) -> ModelRegistryView:
        raise RuntimeError("model_registry needs an agent: bind one with HookRunner.bind_host()")

    def get_thinking_level(self) -> str:
        return "off"

    def set_thinking_level(self, level: str) -> None:
        self.pending.append(("set_thinking_level", (level,)))

    def get_session_file(self) -> str | None:
        return None

    def get_session_manager(self) -> SessionView:
        return EMPTY_SESSION

    def get_mode(self) -> RunMode:
        return "print"

    def get_permission_mode(self) -> str | None:
        return None

    async def fork(self, entry_id: str | None) -> bool:
        raise RuntimeError("fork() needs an agent: bind one with HookRunner.bind_host()")

    async def navigate_tree(
        self,
        target_id: str,
        *,
        summarize: bool = False,
        custom_instructions: str | None = None,
        replace_instructions: bool = False,
        label: str | None = None,
    ) -> bool:
        raise RuntimeError("navigate_tree() needs an agent: bind one with HookRunner.bind_host()")

    async def switch_session(self, path: str) -> bool:
        raise RuntimeError("switch_session() needs an agent: bind one with HookRunner.bind_host()")

    async def reload(self) -> None:
        raise RuntimeError("reload() needs an agent: bind one with HookRunner.bind_host()")

    def replay_into(self, host: AgentHost) -> None:
        """Hand every kept call to ``host`` in the order it was made."""
        pending, self.pending = self.pending, []
        for name, args in pending:
            getattr(host, name)(*args)
