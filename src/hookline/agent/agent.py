"""The reference agent: the hook lifecycle loop, emitting every event.

One ``Agent`` owns a session, a model, the tools and the hook runner, and is
the ``AgentHost`` hooks talk to. It is composed of objects with one idea
each: ``ModelStep`` (a model call), the ``ToolPipeline`` (a tool call: hooks,
permission stage, tool, result hooks) with ``ToolExecution`` around it (the
reply's tool-call block in, execution events out, the result message back),
``PermissionGate`` (the permission stage) and ``SessionLifecycle`` (switch,
branch, fork, tree, compaction).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hookline.agent.gate import PermissionGate
from hookline.agent.lagging import LaggingHandlers
from hookline.agent.memory import MemoryFile
from hookline.agent.prompt import compose_system_prompt
from hookline.agent.provider import THINKING_LEVELS as THINKING_LEVELS  # read here by modes
from hookline.agent.provider import Provider, ThinkingLevel
from hookline.agent.queues import QUEUE_MODES as QUEUE_MODES  # read here by modes
from hookline.agent.queues import MessageQueues, QueueMode
from hookline.agent.session_ops import CompactionPolicy, SessionLifecycle
from hookline.agent.steps import ModelStep, RetryPolicy, ToolExecution
from hookline.agent.stream import StreamShaper
from hookline.agent.subagents import AgentTypes
from hookline.agent.task_tool import task_tool
from hookline.agent.todos import TodoList
from hookline.claude.timeouts import STOP_HOOK_BLOCK_CAP, stop_block_cap
from hookline.core.api import StreamRule
from hookline.core.events import (
    AgentEndEvent,
    AgentStartEvent,
    BeforeAgentStartEvent,
    EmptyReplyNudgeEvent,
    Event,
    InputEvent,
    InstructionsLoadedEvent,
    ModelSelectEvent,
    ResourcesDiscoverEvent,
    SessionShutdownEvent,
    StopEvent,
    TodoReminderEvent,
    TtsrTriggeredEvent,
    TurnEndEvent,
    TurnStartEvent,
    UserBashEvent,
    UserPythonEvent,
)
from hookline.core.host import ContextUsage, ModelInfo, RunMode, agent_env
from hookline.core.messages import (
    AssistantMessage,
    Content,
    CustomMessage,
    Message,
    ToolCallContent,
    ToolResultMessage,
    content_text,
    tool_calls,
    user_message,
)
from hookline.core.paths import hookline_home
from hookline.core.pipeline import Denial, ToolPipeline
from hookline.core.process import run_process
from hookline.core.resources import ResourcePaths, Resources, SlashCommandInfo
from hookline.core.runner import HookRunner
from hookline.core.tool import Tool, ToolInfo, ToolResult
from hookline.core.tool_params import tool_json_schema
from hookline.core.vocabulary import PermissionMode
from hookline.core.wrapping import resolve_tools
from hookline.session import ReadonlySession, SessionManager, estimate_tokens
from hookline.tools.bash import bash_timeouts
from hookline.tools.leftovers import ToolLeftovers

DEFAULT_SYSTEM_PROMPT = (
    "You are hookline's reference coding agent. Use the tools to read, search and change "
    "files in the working directory, and answer concisely."
)
#: How many times in a row a Stop hook may force the agent to continue.
#: Consecutive Stop-hook blocks before the turn ends anyway (``CLAUDE_CODE_STOP_HOOK_BLOCK_CAP``).
MAX_STOP_CONTINUATIONS = STOP_HOOK_BLOCK_CAP
#: How many times the agent reminds the model of open todos before it may stop.
MAX_TODO_REMINDERS = 1
#: What a tool call skipped by a steering message returns to the model.
SKIPPED_BY_STEER = "Skipped: the user sent a message that interrupts the remaining tool calls."
#: Why a user message sent with no ``deliver_as`` while a run streams is refused (pi's
#: sentence, naming the Python option).
BUSY_REFUSAL = (
    "Agent is already processing. Specify deliver_as ('steer' or 'follow_up') to queue the message."
)
#: The ``custom_type`` of the system reminder a stream rule injects.
TTSR_CUSTOM_TYPE = "ttsr_reminder"

Listener = Callable[[dict[str, Any]], None]

if TYPE_CHECKING:
    from hookline.agent.model_catalog import ModelCatalog
    from hookline.agent.model_registry import ModelRegistry
    from hookline.claude.adapter import ClaudeHooks
    from hookline.core.results import BashOutput
    from hookline.tools.operations import BashOperations


#: Seconds a normal exit waits for a compaction a hook asked for.
_COMPACTION_GRACE = 30.0


def _run_by_hook(done: BashOutput) -> ToolResult:
    """The result of a ``!command`` or ``$code`` a ``user_bash``/``user_python`` hook ran."""
    return ToolResult(
        [{"type": "text", "text": done.output}], {"exit_code": done.exit_code, "from_hook": True}
    )


def _user_result(
    output: str, code: int | None, error: str | None, timed_out: bool, timeout: float
) -> ToolResult:
    """What the user sees of their own ``!command`` or ``$code``."""
    text = output + (f"\n(exit code {code})" if code else "")
    if error is not None:  # not started at all (python3 not on PATH, say)
        text = error
    if timed_out:
        text += f"\n(timed out after {timeout:g} s; the command was killed)"
    return ToolResult([{"type": "text", "text": text}], {"exit_code": code})


class Agent:
    """Runs prompts through the model and tools, emitting hook events at every step."""

    def __init__(
        self,
        *,
        provider: Provider,
        runner: HookRunner,
        session: SessionManager,
        tools: list[Tool],
        cwd: str,
        system_prompt: str = DEFAULT_SYSTEM_PROMPT,
        gate: PermissionGate | None = None,
        max_retries: int = 3,
        retry_base_delay: float = 0.5,
        context_window: int = 200_000,
        auto_compact: bool = True,
        compact_threshold: float = 0.8,
        leftovers: ToolLeftovers | None = None,
        mode: RunMode = "print",
        claude: ClaudeHooks | None = None,
        subagents: AgentTypes | None = None,
        make_provider: Callable[[str], Provider] | None = None,
        reloader: Callable[[], Awaitable[object]] | None = None,
        memory_files: Sequence[MemoryFile] = (),
        settings_stream_rules: Sequence[StreamRule] = (),
        verbose_context: bool = False,
        catalog: Callable[[], ModelCatalog] | None = None,
    ) -> None:
        """``claude``: the Claude settings hooks installed in ``runner``;
        ``subagents``: the types the ``task`` tool offers (no task tool without them).
        The rest is described where it is kept, below."""
        self.provider = provider
        #: The models hooks may call (``ctx.model_registry``), listed when first asked.
        self._catalog = catalog
        self._model_registry: ModelRegistry | None = None
        #: How the agent runs (``ctx.mode``): the mode that drives it says.
        self.mode: RunMode = mode
        self.runner = runner
        self.cwd = cwd
        self.base_system_prompt = system_prompt
        self.system_prompt = system_prompt
        #: Prompt templates, skills and themes: found at ``start`` and on ``reload``.
        self.resources = Resources()
        self.gate = gate or PermissionGate(runner, cwd=cwd)
        self.gate.emit = self.emit
        self.gate.tool_named = lambda name: self.tools.get(name)
        self.pipeline = ToolPipeline(runner, authorize=self.gate.authorize, observe=self._observe)
        #: Tool calls that did not run in the current run (print/JSON modes summarise them).
        self.denials: list[Denial] = []
        #: Set by ``request_stop`` (a settings hook's ``continue: false``): end the run.
        self._stop_reason: str | None = None
        self.retry = RetryPolicy(max_retries, retry_base_delay)
        #: What the tools' bash calls left running or on disk; ended at shutdown.
        self.leftovers = leftovers
        self.compaction = CompactionPolicy(context_window, auto_compact, compact_threshold)
        self.sessions = SessionLifecycle(session, cwd, self.emit, self.compaction)
        self.turn_index = 0
        self.extra_env: dict[str, str] = {}
        #: Settings hooks feed context to runs and answer for denied calls.
        self.claude = claude
        #: The memory files in the system prompt, announced by ``start``.
        self.memory_files = list(memory_files)
        self.todos = TodoList()
        own = [task_tool(self, subagents)] if subagents is not None else []
        self._raw_tools = [*tools, *own, self.todos.tool()]
        #: Tools from elsewhere (MCP servers), asked at every rebuild: a server that died
        #: takes its tools with it before the next model call.
        self._tool_sources: list[Callable[[], list[Tool]]] = []
        #: What ends with the session besides hooks and leftovers (MCP servers).
        self._closers: list[Callable[[], Awaitable[None]]] = []
        #: Compactions hooks asked for, waiting for the agent to be idle.
        self._compactions: set[asyncio.Task[Any]] = set()
        #: Every tool (built-ins, hook tools, wrappers applied), by name.
        self.tools: dict[str, Tool] = {}
        #: The names the model is offered (``set_active_tools``); None: all of them.
        self._active: set[str] | None = None
        self._known_tools: set[str] = set()
        self._listeners: list[Listener] = []
        #: Messages sent while a run streams, and ``deliver_as`` messages, until they land.
        self.queues = MessageQueues()
        #: Hook handlers the run goes on without (``turn_end``'s), until they finish.
        self.lagging = LaggingHandlers(runner, _settings_hook_path(claude))
        #: ``ctx.shutdown()``: set once the graceful shutdown is done (modes may exit).
        self.shutdown_requested = asyncio.Event()
        self._shutdown_wanted = False
        self.thinking_level: ThinkingLevel = "off"
        #: Builds a provider from a ``provider:name`` spec (``ctx.set_model``, a sub-agent
        #: type's ``model``).
        self.make_provider = make_provider
        #: Re-discovers and reloads the hooks into ``runner`` (``ctx.reload``).
        self.reloader = reloader
        #: Stream rules from the settings (``ttsrRules``), after the hooks' own.
        self.settings_stream_rules = list(settings_stream_rules)
        #: The last model call's context (``ctx.get_context_usage`` counts its tokens).
        self._last_context: list[Message] | None = None
        self._idle = asyncio.Event()
        self._idle.set()
        self._abort = asyncio.Event()
        self._background: set[asyncio.Task[Any]] = set()
        #: The JSON/RPC stream's shape (``verbose_context``: the full context on every call).
        self.stream = StreamShaper(verbose_context)
        self.model_step = ModelStep(
            runner, self.emit, self.publish, self._listening, self.retry, self.stream
        )
        self.tool_execution = ToolExecution(
            runner,
            self.pipeline,
            self.emit,
            self._listening,
            self._spawn,
            on_denied=self._permission_denied,
        )
        self.rebuild_tools()
        runner.bind_host(self)

    # -- wiring ----------------------------------------------------------------

    def rebuild_tools(self) -> None:
        """Hook tools replace built-ins of the same name, wrappers apply; every call goes
        through the pipeline. A tool registered since the last rebuild starts active."""
        raw = [*self._raw_tools, *(t for source in self._tool_sources for t in source())]
        merged = {t.name: t for t in resolve_tools(raw, self.runner)}
        new = merged.keys() - self._known_tools
        if self._active is not None and self._known_tools:
            self._active |= new
        self._known_tools = set(merged)
        self.tools = merged

    def add_tool_source(self, source: Callable[[], list[Tool]]) -> None:
        """Offer the tools ``source()`` returns (asked again at every rebuild)."""
        self._tool_sources.append(source)
        self.rebuild_tools()

    def on_shutdown(self, closer: Callable[[], Awaitable[None]]) -> None:
        """Run ``closer`` once when the session shuts down (after ``session_shutdown``)."""
        self._closers.append(closer)

    def active_tools(self) -> dict[str, Tool]:
        """The tools the model is offered now (and may call)."""
        if self._active is None:
            return self.tools
        return {name: t for name, t in self.tools.items() if name in self._active}

    def get_active_tools(self) -> list[str]:
        self.rebuild_tools()
        return list(self.active_tools())

    def get_all_tools(self) -> list[ToolInfo]:
        self.rebuild_tools()
        owners = self.runner.get_tool_owners()
        return [
            ToolInfo(t.name, t.description, tool_json_schema(t.parameters), owners.get(name))
            for name, t in self.tools.items()
        ]

    def set_active_tools(self, names: list[str]) -> None:
        """Offer only ``names`` from the next model call on; an unknown name raises."""
        self.rebuild_tools()
        unknown = [n for n in names if n not in self.tools]
        if unknown:
            raise ValueError(
                f"set_active_tools: unknown tool(s) {', '.join(map(repr, unknown))}; "
                f"known: {', '.join(self.tools)}"
            )
        self._active = set(names)

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Receive every event (hook events and stream events) as a JSON-ready dict."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def publish(self, payload: dict[str, Any]) -> None:
        for listener in list(self._listeners):
            listener(payload)

    def _listening(self) -> bool:
        return bool(self._listeners)

    def _observe(self, event: Event) -> None:
        """The pipeline's ``tool_call``/``tool_result`` events, for the JSON/RPC stream."""
        if self._listeners:
            self.publish(event.to_dict())

    async def emit(self, event: Event) -> Any:
        """Tell listeners, then hooks; returns the hooks' combined result. ``turn_end``'s
        handlers are not waited for, as in pi (``LaggingHandlers``)."""
        if self._listeners:
            self.publish(self.stream.event(event))
        if self.runner.has_handlers(event.type):
            return await self.lagging.emit(event)
        return None

    @property
    def is_streaming(self) -> bool:
        return not self._idle.is_set()

    # -- the session (SessionLifecycle does the work) ---------------------------------

    @property
    def session(self) -> SessionManager:
        return self.sessions.session

    @property
    def turn_leaves(self) -> dict[int, str | None]:
        return self.sessions.turn_leaves

    @property
    def context_window(self) -> int:
        return self.compaction.context_window

    @context_window.setter
    def context_window(self, value: int) -> None:
        self.compaction.context_window = value

    async def start(self, source: str | None = None) -> None:
        """Announce the session (``session_start``); the default source is ``resume`` for a
        session opened with entries (``--continue``/``--resume``/``--session``), else
        ``startup``. Then each memory file in the system prompt (``instructions_loaded``)."""
        await self.sessions.start(source)
        if source in (None, "startup", "resume"):
            await self.discover_resources("startup")
        for f in self.memory_files:
            reason = "compact" if source == "compact" and f.parent is None else f.load_reason
            await self.emit(
                InstructionsLoadedEvent(
                    file_path=str(f.path),
                    memory_type=f.memory_type,
                    load_reason=reason,
                    parent_file_path=str(f.parent) if f.parent is not None else None,
                )
            )

    async def new_session(
        self,
        parent_session: str | None = None,
        setup: Callable[[Any], Awaitable[None] | None] | None = None,
        *,
        reason: str = "new",
    ) -> bool:
        """Start a fresh session file (``/new``, ``/clear``, a hook's ``new_session``); the
        hooks are loaded again for it, as pi runs its extension factories again (an agent
        built without ``build_agent`` has no reloader and keeps the hooks it has)."""
        renew = self._reload_hooks if self.reloader is not None else None
        return await self.sessions.new_session(parent_session, setup, reason=reason, renew=renew)

    async def switch_session(self, path: str) -> bool:
        """Resume another session file."""
        return await self.sessions.switch_session(path)

    async def branch(self, turn_index: int | None = None, entry_id: str | None = None) -> bool:
        """Go back to the state before turn ``turn_index`` (or to ``entry_id``)."""
        return await self.sessions.branch(turn_index, entry_id)

    async def fork(self, entry_id: str | None = None) -> bool:
        """Copy the path up to ``entry_id`` into a new session file."""
        return await self.sessions.fork(entry_id)

    async def fork_before(self, user_entry_id: str) -> bool:
        """Fork from a user message as pi does: the new session ends just before it."""
        return await self.sessions.fork_before(user_entry_id)

    async def navigate_tree(
        self,
        target_id: str,
        *,
        summarize: bool = False,
        custom_instructions: str | None = None,
        replace_instructions: bool = False,
        label: str | None = None,
    ) -> bool:
        """Move the leaf to any entry; a hook may supply a summary of the branch left."""
        return await self.sessions.navigate_tree(
            target_id,
            summarize=summarize,
            custom_instructions=custom_instructions,
            replace_instructions=replace_instructions,
            label=label,
        )

    async def compact(
        self, custom_instructions: str | None = None, trigger: str = "manual"
    ) -> bool:
        """Summarise old messages into a compaction entry; hooks may cancel or supply it."""
        return await self.sessions.compact(custom_instructions, trigger)

    async def maybe_auto_compact(self) -> None:
        await self.sessions.maybe_auto_compact()

    async def shutdown(self, reason: str = "quit") -> None:
        """``session_shutdown`` once, close the session; background settings hooks end too.

        The end of a run is ``quit``, pi's name; ``exit`` (hookline's name before) is
        taken as ``quit``, so an embedding host that passes it keeps working."""
        if reason == "exit":
            reason = "quit"
        first = not self.sessions.shut_down
        if first and reason == "quit" and self._compactions:
            # A compaction a hook asked for (``ctx.compact()``) runs once the agent is idle:
            # a run that ends the process (print mode) still writes it before the end.
            await asyncio.wait(self._compactions, timeout=_COMPACTION_GRACE)
        try:
            await self.sessions.shutdown(reason)
        finally:
            if first and self.claude is not None:
                await self.claude.engine.shutdown()
            if first and self.leftovers is not None:
                self.leftovers.close()
            if first:
                for closer in self._closers:
                    with contextlib.suppress(Exception):  # a closer never hides the exit
                        await closer()

    # -- AgentHost ---------------------------------------------------------------

    def send_message(self, message: CustomMessage, trigger_turn: bool) -> None:
        """Persist a hook message; while streaming it waits for the end of the turn, so it
        never lands between a tool call and its result."""
        msg: CustomMessage = {**message, "timestamp": time.time()}  # type: ignore[typeddict-item]
        if self.is_streaming:
            self.queues.hold(msg, trigger_turn)
            return
        self.session.append_message(msg)
        self._spawn(self._acknowledge(msg, trigger_turn))

    async def _acknowledge(self, msg: Message, then_run: bool) -> None:
        await self.session.flushed()
        self.publish({"type": "message", "message": msg})
        if then_run:
            await self._run([])

    def send(self, text: str, attachments: list[Content] | None) -> None:
        content: list[Content] = [{"type": "text", "text": text}, *(attachments or [])]
        if self.is_streaming:
            self.queues.hold(user_message(content, time.time()), True)
        else:
            self._spawn(self.prompt(text, images=list(attachments or []), source="extension"))

    def append_entry(self, custom_type: str, data: Any) -> None:
        self.session.append_custom_entry(custom_type, data)

    def deliver(self, message: Message, deliver_as: str | None, trigger_turn: bool) -> None:
        """``send_message``/``send_user_message`` with ``deliver_as``: where it lands.

        Idle: ``next_turn`` waits for the next prompt; otherwise the message is
        appended and, with ``trigger_turn``, a run starts. While a run streams a
        user message without ``deliver_as`` is refused, as pi refuses it: reported
        as pi reports it (``<runtime>``: the agent cannot tell which hook sent it).
        """
        msg: Message = {**message, "timestamp": time.time()}  # type: ignore[assignment]
        if deliver_as is None and self.is_streaming:
            self.runner.report("<runtime>", "send_user_message", BUSY_REFUSAL)
        elif msg["role"] == "user" and not self.is_streaming and self._wants_input():
            self._spawn(self._deliver_input(msg, deliver_as, trigger_turn))
        else:
            self._land(msg, deliver_as, trigger_turn)

    def _wants_input(self) -> bool:
        return self.runner.has_handlers("input") or bool(self._listeners)

    async def _deliver_input(
        self, msg: Message, deliver_as: str | None, trigger_turn: bool
    ) -> None:
        """A hook's user message that starts a run goes through the ``input`` hooks first
        (``source="extension"``, as pi's ``sendUserMessage``): they may rewrite or handle
        it. One queued while a run streams is queued at once (``has_pending_messages``
        says so at the return), without them."""
        raw = msg["content"]
        blocks: list[Content] = list(raw) if isinstance(raw, list) else []  # type: ignore[arg-type]
        text = "\n".join(b["text"] for b in blocks if b["type"] == "text")
        images: list[Content] = [b for b in blocks if b["type"] == "image"]
        result = await self.emit(InputEvent(text=text, images=images, source="extension"))
        if result is not None:
            if result.handled:
                return
            if result.text is not None or result.images is not None:
                content: list[Content] = [
                    {"type": "text", "text": result.text if result.text is not None else text},
                    *(result.images if result.images is not None else images),
                ]
                msg = user_message(content, msg.get("timestamp"))
        self._land(msg, deliver_as, trigger_turn)

    def _land(self, msg: Message, deliver_as: str | None, trigger_turn: bool) -> None:
        """Where a delivered message goes: queued, appended, or the start of a run."""
        if deliver_as == "next_turn":
            self.queues.next_turn(msg)
        elif self.is_streaming:
            (self.queues.steer if deliver_as == "steer" else self.queues.follow_up)(msg)
        elif trigger_turn:
            self._spawn(self._run([msg]))
        else:
            self.session.append_message(msg)
            self._spawn(self._acknowledge(msg, False))

    def set_session_name(self, name: str) -> None:
        self.session.append_session_info(name)

    def get_session_name(self) -> str | None:
        return self.session.get_session_name()

    def set_label(self, entry_id: str, label: str | None) -> None:
        self.session.append_label(entry_id, label)

    def is_idle(self) -> bool:
        return not self.is_streaming

    def has_pending_messages(self) -> bool:
        return self.queues.pending_count() > 0

    def pending_message_count(self) -> int:
        """Messages waiting for delivery (steering, follow-ups, hook messages)."""
        return self.queues.pending_count()

    @property
    def steering_mode(self) -> QueueMode:
        return self.queues.steering_mode

    @property
    def follow_up_mode(self) -> QueueMode:
        return self.queues.follow_up_mode

    def set_queue_modes(self, steering: str | None = None, follow_up: str | None = None) -> None:
        """``all`` or ``one-at-a-time`` for steering and/or follow-up delivery."""
        self.queues.set_modes(steering, follow_up)

    def request_shutdown(self) -> None:
        """Shut down gracefully once the current run is over (at once when idle)."""
        self._shutdown_wanted = True
        if not self.is_streaming:
            self._spawn(self._graceful_shutdown())

    async def _graceful_shutdown(self) -> None:
        await self.shutdown("shutdown")
        self.shutdown_requested.set()

    def start_compaction(self, custom_instructions: str | None) -> asyncio.Task[bool]:
        task = self._spawn(self._compact_when_idle(custom_instructions))
        self._compactions.add(task)
        task.add_done_callback(self._compactions.discard)
        return task

    async def _compact_when_idle(self, custom_instructions: str | None) -> bool:
        await self._idle.wait()
        return await self.compact(custom_instructions)

    def get_context_usage(self) -> ContextUsage | None:
        window = self.context_window
        messages = self._last_context
        if messages is None:
            messages = self.session.build_context_messages()
        tokens = estimate_tokens(messages)
        percent = round(100 * tokens / window, 1) if window else None
        return ContextUsage(tokens, window, percent)

    def get_signal(self) -> asyncio.Event | None:
        return self._abort if self.is_streaming else None

    def get_model_info(self) -> ModelInfo:
        provider, _, name = self.provider.model_id.partition(":")
        return ModelInfo(provider, name, self.context_window)

    def get_model_registry(self) -> ModelRegistry:
        """``ctx.model_registry``: built at the first ask, around this agent's provider and
        its request hooks; the providers it builds close with the session."""
        if self._model_registry is None:
            from hookline.agent.model_catalog import ModelCatalog
            from hookline.agent.model_registry import ModelRegistry, RequestHooks

            step = self.model_step
            self._model_registry = registry = ModelRegistry(
                self._catalog() if self._catalog is not None else ModelCatalog(os.environ),
                cwd=self.cwd,
                current=lambda: self.provider,
                hooks=lambda: RequestHooks(step.payload_hook(), step.response_hook()),
            )
            self.on_shutdown(registry.aclose)
        return self._model_registry

    async def select_model(self, spec: str) -> bool:
        """``ctx.set_model``: build the provider and switch; False (and a notice) if it
        cannot be built."""
        if self.make_provider is None:
            raise RuntimeError("set_model: this agent has no provider factory")
        try:
            provider = self.make_provider(spec)
        except Exception as exc:
            self.runner.context.ui.notify(f"set_model({spec!r}): {exc}", "error")
            return False
        await self.set_model(provider)
        return True

    def get_thinking_level(self) -> str:
        return self.thinking_level

    def get_session_file(self) -> str | None:
        return self.session.get_session_file()

    def get_session_manager(self) -> ReadonlySession:
        return ReadonlySession(self.session)

    def get_mode(self) -> RunMode:
        return self.mode

    def get_permission_mode(self) -> str:
        return self.gate.mode

    def set_thinking_level(self, level: str) -> None:
        if level not in THINKING_LEVELS:
            raise ValueError(f"thinking level {level!r}: use one of {', '.join(THINKING_LEVELS)}")
        self.thinking_level = level

    async def reload(self) -> None:
        """``session_shutdown``, re-discover and reload the hooks, ``session_start`` with
        ``source="reload"``."""
        if self.reloader is None:
            raise RuntimeError("reload: this agent was not built with build_agent")
        await self.emit(SessionShutdownEvent(reason="reload"))
        await self._reload_hooks()
        await self.sessions.start("reload")
        await self.discover_resources("reload")

    async def discover_resources(self, reason: str) -> None:
        """Find the prompt templates, skills and themes again: on disk, and at the paths
        ``resources_discover`` handlers return (relative ones from ``cwd``)."""
        extra = ResourcePaths()
        if self.runner.has_handlers("resources_discover"):
            found = await self.emit(ResourcesDiscoverEvent(cwd=self.cwd, reason=reason))
            from hookline.core.results import ResourcesDiscoverResult  # loaded: hooks ran

            if isinstance(found, ResourcesDiscoverResult):
                where = Path(self.cwd)
                extra = ResourcePaths(
                    tuple(str(where / p) for p in found.skill_paths),
                    tuple(str(where / p) for p in found.prompt_paths),
                    tuple(str(where / p) for p in found.theme_paths),
                )
        self.resources = await asyncio.to_thread(Resources.load, self.cwd, hookline_home(), extra)

    def get_commands(self) -> list[SlashCommandInfo]:
        """The hooks' commands, then the prompt templates' and the skills'."""
        return [*self.runner.slash_commands(), *self.resources.commands()]

    async def _reload_hooks(self) -> None:
        """Discover and load the hooks again, and the tools they registered."""
        assert self.reloader is not None
        await self.reloader()
        self.rebuild_tools()

    def get_system_prompt(self) -> str:
        return self.system_prompt

    def request_stop(self, reason: str) -> None:
        """End the current run after the step in progress (Claude's ``continue: false``)."""
        if self.is_streaming:
            self._stop_reason = reason

    def set_system_prompt(self, prompt: str) -> None:
        self.system_prompt = prompt

    async def wait_for_idle(self) -> None:
        """Wait until no run is streaming and no run started by a hook is pending."""
        while True:
            await self._idle.wait()
            pending = [t for t in self._background if not t.done()]
            if not pending:
                return
            await asyncio.gather(*pending, return_exceptions=True)

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        return task

    # -- prompting -----------------------------------------------------------------

    async def prompt(
        self, text: str, *, images: list[Content] | None = None, source: str = "interactive"
    ) -> list[Message]:
        """Run one user prompt to the end; returns the messages it added."""
        images = images or []
        if self._wants_input():
            result = await self.emit(InputEvent(text=text, images=images, source=source))
            if result is not None:
                if result.handled:
                    return []
                text = result.text if result.text is not None else text
                images = result.images if result.images is not None else images
        if source != "extension":  # a hook's own message is sent as it is, as in pi
            text = self.resources.expand(text)
        if self.is_streaming:
            self.queues.hold(user_message([{"type": "text", "text": text}, *images]), True)
            return []
        pending = self.queues.take_next_turn()
        return await self._run(
            [*pending, user_message([{"type": "text", "text": text}, *images])], text, images
        )

    def abort(self) -> None:
        """Stop the current run: the model call and running tools are cancelled; a
        compaction or tree move asking its hooks is abandoned."""
        self._abort.set()
        self.sessions.abort()
        self.runner.close_dialogs()

    async def _run(
        self, new: list[Message], prompt: str = "", images: list[Content] | None = None
    ) -> list[Message]:
        """One run, then auto-compaction and the runs of messages queued meanwhile.

        The agent is idle (``wait_for_idle``) only after all of it.
        """
        self._idle.clear()
        self.denials = []
        try:
            added = await self._run_once(new, prompt, images)
            await self.maybe_auto_compact()
            # Sent after the run's last turn ended: another run (follow-ups last).
            while not self._abort.is_set():
                queued, turn = self.queues.take_steering()
                if not turn and self.queues.has_follow_ups:
                    queued, turn = [*queued, *self.queues.take_follow_up()], True
                if not turn:
                    for message in queued:
                        await self._append(message)
                    break
                added = [*added, *await self._run_once(queued)]
                await self.maybe_auto_compact()
        finally:
            self._idle.set()
            if self._shutdown_wanted and not self.sessions.shut_down:
                self._spawn(self._graceful_shutdown())
        return added

    async def _run_once(
        self, new: list[Message], prompt: str = "", images: list[Content] | None = None
    ) -> list[Message]:
        self._abort = asyncio.Event()
        self._stop_reason = None
        added: list[Message] = []
        self.system_prompt = self.resources.add_to_prompt(self.base_system_prompt)
        before = await self.emit(
            BeforeAgentStartEvent(
                prompt=prompt, images=list(images or []), system_prompt=self.system_prompt
            )
        )
        for msg in new:
            added.append(await self._append(msg))
        if before is not None:
            from hookline.core.results import BeforeAgentStartResult  # loaded: a hook answered

            if isinstance(before, BeforeAgentStartResult):
                if before.system_prompt is not None:
                    self.system_prompt = before.system_prompt
                injected_all = before.messages or ([before.message] if before.message else [])
                for m in injected_all:
                    injected: CustomMessage = {
                        "role": "custom",
                        "custom_type": m.custom_type,
                        "content": m.content,
                        "display": m.display,
                        "details": m.details,
                        "timestamp": time.time(),
                    }
                    if m.attribution is not None:
                        injected["attribution"] = m.attribution
                    added.append(await self._append(injected))
        # Turns are counted per run, as in pi: each run's first turn is 0.
        self.turn_index = 0
        self.sessions.turn_leaves.clear()
        await self.emit(AgentStartEvent())
        await self._loop(added)
        await self.emit(AgentEndEvent(messages=added, denials=[d.to_dict() for d in self.denials]))
        return added

    async def _permission_denied(self, denial: Denial, input: dict[str, Any]) -> bool:
        """Settings PermissionDenied hooks for a denied call; True: the model may retry."""
        if self.claude is None:
            return False
        return await self.claude.permission_denied(
            denial.tool_name, denial.tool_call_id, input, denial.reason, self.runner.context
        )

    def set_permission_mode(self, mode: PermissionMode) -> None:
        """Change the mode for later tool calls; command hooks see it as ``permission_mode``.
        ``bypassPermissions`` needs a session that may enter it (``ModeUnavailableError``)."""
        self.gate.set_mode(mode)

    async def _append(self, msg: Message) -> Message:
        """Persist ``msg``; listeners hear of it once it is on disk (the fsync runs off-loop)."""
        self.session.append_message(msg)
        await self.session.flushed()
        self.publish({"type": "message", "message": msg})
        return msg

    async def _loop(self, added: list[Message]) -> None:
        stop_continuations = 0
        nudged = False
        reminders = 0
        while not self._abort.is_set():
            index = self.turn_index
            self.turn_index += 1
            self.sessions.turn_leaves[index] = self.session.get_leaf_id()
            await self.emit(TurnStartEvent(turn_index=index, timestamp=time.time()))
            assistant = await self._model_turn(index, added)
            added.append(await self._append(assistant))
            results: list[ToolResultMessage] = []
            steered = False
            for call in tool_calls(assistant):
                if self._abort.is_set():
                    break
                if steered:
                    result = self._skipped(call)
                else:
                    await self.lagging.drain()  # pi's tool calls wait for its event queue
                    result, denial = await self.tool_execution.run(
                        call, self.active_tools(), self._abort
                    )
                    if denial is not None:
                        self.denials.append(denial)
                        if self._listeners:  # for audit logs and telemetry; not a hook event
                            self.publish({"type": "tool_denied", **denial.to_dict()})
                    steered = self.queues.steered
                results.append(result)
                added.append(await self._append(result))
            await self.emit(TurnEndEvent(turn_index=index, message=assistant, tool_results=results))
            if self._stop_reason is not None:
                return
            if assistant.get("stop_reason") in ("error", "aborted") or self._abort.is_set():
                return
            # Sent while streaming: persisted now, seen by the model at its next call.
            steering, turn = self.queues.take_steering()
            for m in steering:
                added.append(await self._append(m))
            if results or turn:
                continue
            if not nudged and not content_text(assistant["content"]).strip():
                nudged = True
                await self.emit(EmptyReplyNudgeEvent(turn_index=index, message=assistant))
                added.append(
                    await self._append(
                        user_message("Your last response was empty. Please continue.")
                    )
                )
                continue
            if self.queues.has_follow_ups:
                for m in self.queues.take_follow_up():
                    added.append(await self._append(m))
                continue
            reminders += 1
            if await self._todo_reminder(added, reminders):
                continue
            stop = await self.emit(
                StopEvent(stop_hook_active=stop_continuations > 0, last_message=assistant)
            )
            if stop is not None:
                from hookline.core.results import StopResult  # loaded: a hook answered

                if isinstance(stop, StopResult) and stop.block:
                    cap = stop_block_cap(self._bash_env())
                    if stop_continuations >= cap:
                        self.runner.context.ui.notify(
                            f"Stop hooks blocked {cap} times in a row; stopping",
                            "warning",
                        )
                        return
                    stop_continuations += 1
                    reason = stop.reason or "A stop hook asked the agent to continue."
                    added.append(await self._append(user_message(reason, time.time())))
                    continue
            return

    async def _model_turn(self, index: int, added: list[Message]) -> AssistantMessage:
        """One turn's model call; a stream rule that matches cuts the stream, its reminder is
        appended and the call is made again (each rule once per turn)."""
        fired: set[str] = set()
        while True:
            self.rebuild_tools()
            active = self.active_tools()
            messages = self.session.build_context_messages()
            self._last_context = messages  # counted only when a hook asks (get_context_usage)
            reply = await self.model_step.call(
                self.provider,
                compose_system_prompt(self.system_prompt, active.values()),
                messages,
                list(active.values()),
                self._abort,
                rules=[r for r in self.stream_rules() if r.name not in fired],
                thinking=self.thinking_level,
            )
            if reply.rule is None or self._abort.is_set():
                return reply.message
            fired.add(reply.rule.name)
            await self.emit(
                TtsrTriggeredEvent(
                    turn_index=index,
                    rules=[reply.rule.name],
                    pattern=reply.rule.pattern.pattern,
                    matched_text=reply.matched_text,
                    text=reply.rule.text,
                )
            )
            reminder: CustomMessage = {
                "role": "custom",
                "custom_type": TTSR_CUSTOM_TYPE,
                "content": f"<system-reminder>\n{reply.rule.text}\n</system-reminder>",
                "display": False,
                "details": {"rule": reply.rule.name},
                "timestamp": time.time(),
            }
            added.append(await self._append(reminder))

    def stream_rules(self) -> list[StreamRule]:
        """Hooks' ``register_stream_rule`` rules, then the settings' ``ttsrRules``."""
        return [*self.runner.get_stream_rules(), *self.settings_stream_rules]

    def _skipped(self, call: ToolCallContent) -> ToolResultMessage:
        return {
            "role": "tool",
            "tool_call_id": call["id"],
            "tool_name": call["name"],
            "content": [{"type": "text", "text": SKIPPED_BY_STEER}],
            "details": None,
            "is_error": True,
            "timestamp": time.time(),
        }

    async def _todo_reminder(self, added: list[Message], attempt: int) -> bool:
        """Before stopping with open todos: ``todo_reminder``, then one more turn."""
        open_items = self.todos.open_items()
        if not open_items or attempt > MAX_TODO_REMINDERS:
            return False
        await self.emit(
            TodoReminderEvent(todos=open_items, attempt=attempt, max_attempts=MAX_TODO_REMINDERS)
        )
        listing = "\n".join(f"- {t['content']} ({t['status']})" for t in open_items)
        added.append(await self._append(user_message(f"You still have open todos:\n{listing}")))
        return True

    # -- the user's own shell command and the model switch ----------------------------

    def _bash_env(self) -> dict[str, str]:
        """The environment of bash: marked as the agent's (``agent_env``), with the settings
        ``env`` and ``CLAUDE_ENV_FILE`` exports (scrubbed if asked)."""
        if self.claude is not None:
            return self.claude.engine.bash_env()
        return agent_env(self.mode, os.environ)

    async def run_user_bash(
        self, command: str, *, signal: asyncio.Event | None = None
    ) -> ToolResult:
        """``!command`` from the user: ``user_bash`` hooks may rewrite command, cwd and env.

        It stops on the run's abort, or on ``signal`` (RPC's ``abort_bash``) when given.
        """
        cwd, env, operations = self.cwd, None, None
        result = await self.emit(UserBashEvent(command=command, cwd=cwd))
        if result is not None:
            from hookline.core.results import UserBashResult  # loaded: a hook answered

            if isinstance(result, UserBashResult) and result.result is not None:
                return _run_by_hook(result.result)
            if isinstance(result, UserBashResult):
                command = result.command or command
                cwd = result.cwd or cwd
                env = result.env
                operations = result.operations
        if operations is not None:
            return await self._run_through(operations, command, cwd, env, signal)
        return await self._run_users(["bash", "-c", command], cwd, env, signal)

    async def _run_through(
        self,
        operations: BashOperations,
        command: str,
        cwd: str,
        env: dict[str, str] | None,
        signal: asyncio.Event | None,
    ) -> ToolResult:
        """The user's ``!command`` run by a hook's ``BashOperations`` (on another host, say),
        with the environment and timeout ``_run_users`` gives a local one."""
        full_env = {**self._bash_env(), **self.extra_env, **(env or {})}
        timeout, _ = bash_timeouts(full_env)
        chunks: list[bytes] = []
        timed_out = False
        code: int | None = None
        try:
            code = await operations.exec(
                command,
                cwd,
                on_data=chunks.append,
                signal=signal or self._abort,
                timeout=timeout,
                env=full_env,
            )
        except TimeoutError:
            timed_out = True
        output = b"".join(chunks).decode("utf-8", errors="replace")
        return _user_result(output, code, None, timed_out, timeout)

    async def run_user_python(
        self,
        code: str,
        *,
        exclude_from_context: bool = False,
        signal: asyncio.Event | None = None,
    ) -> ToolResult:
        """``$code`` from the user (``$$code``: ``exclude_from_context``): ``user_python``
        hooks may rewrite code, cwd and env, or run it themselves.

        It runs as ``python3 -c code``, the ``python3`` the user's ``PATH`` finds first.
        """
        cwd, env = self.cwd, None
        event = UserPythonEvent(code=code, cwd=cwd, exclude_from_context=exclude_from_context)
        result = await self.emit(event)
        if result is not None:
            from hookline.core.results import UserPythonResult  # loaded: a hook answered

            if isinstance(result, UserPythonResult) and result.result is not None:
                return _run_by_hook(result.result)
            if isinstance(result, UserPythonResult):
                code = result.code or code
                cwd = result.cwd or cwd
                env = result.env
        return await self._run_users(["python3", "-c", code], cwd, env, signal)

    async def _run_users(
        self,
        argv: list[str],
        cwd: str,
        env: dict[str, str] | None,
        signal: asyncio.Event | None,
    ) -> ToolResult:
        """The user's own command, in bash's environment with ``env`` added, under the bash
        tool's default timeout (it cannot hang); stopped by ``signal`` or the run's abort."""
        full_env = {**self._bash_env(), **self.extra_env, **(env or {})}
        timeout, _ = bash_timeouts(full_env)
        done = await run_process(
            argv,
            cwd=cwd,
            env=full_env,
            merge_stderr=True,
            timeout=timeout,
            signal=signal or self._abort,
        )
        error = None if done.error is None else f"could not run {argv[0]}: {done.error}"
        return _user_result(done.stdout, done.code, error, done.timed_out, timeout)

    async def set_model(self, provider: Provider, source: str = "set") -> None:
        # here: only a model change needs the catalog's facts (a registered model's too)
        from hookline.agent.model_catalog import ModelCatalog

        catalog = self._catalog() if self._catalog is not None else ModelCatalog(os.environ)
        previous = self.provider.model_id
        self.provider = provider
        self.session.append_model_change(provider.model_id, previous)
        await self.emit(
            ModelSelectEvent(
                model=catalog.entry(provider.model_id).to_pi(),
                spec=provider.model_id,
                previous_model=catalog.entry(previous).to_pi(),
                previous_spec=previous,
                source=source,
            )
        )


def _settings_hook_path(claude: ClaudeHooks | None) -> str | None:
    """The path of the settings hooks in the runner (always waited for), if installed."""
    if claude is None:
        return None
    from hookline.claude.adapter import SETTINGS_HOOK_PATH  # loaded: ``claude`` is installed

    return SETTINGS_HOOK_PATH
