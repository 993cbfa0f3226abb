"""The reference agent: the hook lifecycle loop, emitting every event.

One ``Agent`` owns a session, a model, the tools and the hook runner, and is
the ``AgentHost`` hooks talk to. It is composed of objects with one idea
each: ``ModelStep`` (a model call), ``ToolStep`` around the ``ToolPipeline``
(a tool call: hooks, permission stage, tool, result hooks),
``PermissionGate`` (the permission stage) and ``SessionLifecycle`` (switch,
branch, fork, tree, compaction).
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from hookline.agent.gate import PermissionGate
from hookline.agent.memory import MemoryFile
from hookline.agent.provider import Provider
from hookline.agent.session_ops import CompactionPolicy, SessionLifecycle
from hookline.agent.steps import ModelStep, RetryPolicy, ToolStep
from hookline.agent.stream import StreamShaper
from hookline.agent.todos import TodoList
from hookline.claude import ClaudeHooks
from hookline.core.events import (
    AgentEndEvent,
    AgentStartEvent,
    BeforeAgentStartEvent,
    Event,
    InputEvent,
    InstructionsLoadedEvent,
    ModelSelectEvent,
    StopEvent,
    TodoReminderEvent,
    TtsrTriggeredEvent,
    TurnEndEvent,
    TurnStartEvent,
    UserBashEvent,
)
from hookline.core.messages import (
    Content,
    CustomMessage,
    Message,
    ToolResultMessage,
    content_text,
    tool_calls,
    user_message,
)
from hookline.core.process import run_process
from hookline.core.results import BeforeAgentStartResult, StopResult, UserBashResult
from hookline.core.runner import HookRunner
from hookline.core.tool import Tool, ToolResult
from hookline.session import SessionManager
from hookline.tools.bash import bash_timeouts
from hookline.tools.leftovers import ToolLeftovers
from hookline.tools.pipeline import Denial, ToolPipeline

DEFAULT_SYSTEM_PROMPT = (
    "You are hookline's reference coding agent. Use the tools to read, search and change "
    "files in the working directory, and answer concisely."
)
#: How many times in a row a Stop hook may force the agent to continue.
MAX_STOP_CONTINUATIONS = 5
#: How many times the agent reminds the model of open todos before it may stop.
MAX_TODO_REMINDERS = 1

Listener = Callable[[dict[str, Any]], None]


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
    ) -> None:
        self.provider = provider
        self.runner = runner
        self.cwd = cwd
        self.base_system_prompt = system_prompt
        self.system_prompt = system_prompt
        self.gate = gate or PermissionGate(runner, cwd=cwd)
        self.gate.emit = self.emit
        self.pipeline = ToolPipeline(runner, authorize=self.gate.authorize, observe=self._observe)
        #: Tool calls that did not run in the current run (print/JSON modes summarise them).
        self.denials: list[Denial] = []
        #: Set by ``request_stop`` (a settings hook's ``continue: false``): end the run.
        self._stop_reason: str | None = None
        self.retry = RetryPolicy(max_retries, retry_base_delay)
        #: What the tools' bash calls left running or on disk; ended at shutdown.
        self.leftovers = leftovers
        self.compaction = CompactionPolicy(context_window, auto_compact, compact_threshold)
        self.sessions = SessionLifecycle(session, cwd, self.emit, self._attached, self.compaction)
        self.turn_index = 0
        self.extra_env: dict[str, str] = {}
        self.claude: ClaudeHooks | None = None
        #: The memory files in the system prompt, announced by ``start``.
        self.memory_files: list[MemoryFile] = []
        self.todos = TodoList()
        self._raw_tools = [*tools, self.todos.tool()]
        self.tools: dict[str, Tool] = {}
        self._listeners: list[Listener] = []
        #: Messages that arrived while streaming, with whether each asks for a turn.
        self._queue: list[tuple[Message, bool]] = []
        self._idle = asyncio.Event()
        self._idle.set()
        self._abort = asyncio.Event()
        self._background: set[asyncio.Task[Any]] = set()
        #: The JSON/RPC stream's shape (``verbose_context``: the full context on every call).
        self.stream = StreamShaper()
        self.model_step = ModelStep(
            runner, self.emit, self.publish, self._listening, self.retry, self.stream
        )
        self.tool_step = ToolStep(runner, self.pipeline, self.emit, self._listening, self._spawn)
        self.rebuild_tools()
        runner.bind_host(self)
        runner.set_session_file(session.get_session_file())
        runner.context.session_manager = session
        runner.context.model = provider.model_id

    # -- wiring ----------------------------------------------------------------

    def rebuild_tools(self) -> None:
        """Hook tools replace built-ins of the same name; every call goes through the pipeline."""
        merged = {t.name: t for t in self._raw_tools}
        merged.update(self.runner.get_registered_tools())
        self.tools = merged

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
        """Tell listeners, then hooks; returns the hooks' combined result."""
        if self._listeners:
            self.publish(self.stream.event(event))
        if self.runner.has_handlers(event.type):
            return await self.runner.emit(event)
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

    def _attached(self, session: SessionManager) -> None:
        self.runner.set_session_file(session.get_session_file())
        self.runner.context.session_manager = session
        self.sync_claude()

    async def start(self, source: str = "startup") -> None:
        """Announce the session (``session_start``): startup, resume, clear or compact;
        then each memory file in the system prompt (``instructions_loaded``)."""
        await self.sessions.start(source)
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
        """Start a fresh session file (``/new``, ``/clear``, a hook's ``new_session``)."""
        return await self.sessions.new_session(parent_session, setup, reason=reason)

    async def switch_session(self, path: str) -> bool:
        """Resume another session file."""
        return await self.sessions.switch_session(path)

    async def branch(self, turn_index: int | None = None, entry_id: str | None = None) -> bool:
        """Go back to the state before turn ``turn_index`` (or to ``entry_id``)."""
        return await self.sessions.branch(turn_index, entry_id)

    async def fork(self, entry_id: str | None = None) -> bool:
        """Copy the path up to ``entry_id`` into a new session file."""
        return await self.sessions.fork(entry_id)

    async def navigate_tree(self, target_id: str) -> bool:
        """Move the leaf to any entry; a hook may supply a summary of the branch left."""
        return await self.sessions.navigate_tree(target_id)

    async def compact(
        self, custom_instructions: str | None = None, trigger: str = "manual"
    ) -> bool:
        """Summarise old messages into a compaction entry; hooks may cancel or supply it."""
        return await self.sessions.compact(custom_instructions, trigger)

    async def maybe_auto_compact(self) -> None:
        await self.sessions.maybe_auto_compact()

    async def shutdown(self, reason: str = "exit") -> None:
        """``session_shutdown`` once, close the session; background settings hooks end too."""
        first = not self.sessions.shut_down
        try:
            await self.sessions.shutdown(reason)
        finally:
            if first and self.claude is not None:
                await self.claude.shutdown()
            if first and self.leftovers is not None:
                self.leftovers.close()

    # -- AgentHost ---------------------------------------------------------------

    def send_message(self, message: CustomMessage, trigger_turn: bool) -> None:
        """Persist a hook message; while streaming it waits for the end of the turn, so it
        never lands between a tool call and its result."""
        msg: CustomMessage = {**message, "timestamp": time.time()}  # type: ignore[typeddict-item]
        if self.is_streaming:
            self._queue.append((msg, trigger_turn))
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
            self._queue.append((user_message(content, time.time()), True))
        else:
            self._spawn(self.prompt(text, images=list(attachments or []), source="extension"))

    def append_entry(self, custom_type: str, data: Any) -> None:
        self.session.append_custom_entry(custom_type, data)

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
        if self.runner.has_handlers("input") or self._listeners:
            result = await self.emit(InputEvent(text=text, images=images, source=source))
            if result is not None:
                if result.handled:
                    return []
                text = result.text if result.text is not None else text
                images = result.images if result.images is not None else images
        if self.is_streaming:
            self._queue.append((user_message([{"type": "text", "text": text}, *images]), True))
            return []
        return await self._run(
            [user_message([{"type": "text", "text": text}, *images])], text, images
        )

    def abort(self) -> None:
        """Stop the current run: the model call and running tools are cancelled."""
        self._abort.set()

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
            while self._queue and not self._abort.is_set():
                queued, self._queue = self._queue, []
                if not any(trigger for _, trigger in queued):
                    for message, _ in queued:
                        await self._append(message)
                    break
                added = [*added, *await self._run_once([m for m, _ in queued])]
                await self.maybe_auto_compact()
        finally:
            self._idle.set()
        return added

    async def _run_once(
        self, new: list[Message], prompt: str = "", images: list[Content] | None = None
    ) -> list[Message]:
        self._abort = asyncio.Event()
        self._stop_reason = None
        added: list[Message] = []
        self.system_prompt = self.base_system_prompt
        before = await self.emit(
            BeforeAgentStartEvent(
                prompt=prompt, images=list(images or []), system_prompt=self.system_prompt
            )
        )
        for msg in new:
            added.append(await self._append(msg))
        if isinstance(before, BeforeAgentStartResult) and before.message is not None:
            m = before.message
            injected: CustomMessage = {
                "role": "custom",
                "custom_type": m.custom_type,
                "content": m.content,
                "display": m.display,
                "details": m.details,
                "timestamp": time.time(),
            }
            added.append(await self._append(injected))
        await self.emit(AgentStartEvent())
        await self._loop(added)
        await self.emit(AgentEndEvent(messages=added, denials=[d.to_dict() for d in self.denials]))
        return added

    def bind_claude(self, claude: ClaudeHooks) -> None:
        """Give settings hooks the session facts and let them feed context to runs."""
        self.claude = claude
        self.sync_claude()

    def set_permission_mode(self, mode: str) -> None:
        """Change the mode for later tool calls; command hooks see it as ``permission_mode``."""
        self.gate.mode = mode
        self.sync_claude()

    def sync_claude(self) -> None:
        if self.claude is not None:
            self.claude.set_session(
                session_id=self.session.get_session_id(),
                transcript_path=self.session.get_session_file() or "",
                permission_mode=self.gate.mode,
            )

    async def _append(self, msg: Message) -> Message:
        """Persist ``msg``; listeners hear of it once it is on disk (the fsync runs off-loop)."""
        self.session.append_message(msg)
        await self.session.flushed()
        self.publish({"type": "message", "message": msg})
        return msg

    async def _loop(self, added: list[Message]) -> None:
        stop_continuations = 0
        ttsr_used = False
        reminders = 0
        while not self._abort.is_set():
            index = self.turn_index
            self.turn_index += 1
            self.sessions.turn_leaves[index] = self.session.get_leaf_id()
            await self.emit(TurnStartEvent(turn_index=index, timestamp=time.time()))
            assistant = await self.model_step.call(
                self.provider,
                self.system_prompt,
                self.session.build_context_messages(),
                list(self.tools.values()),
                self._abort,
            )
            added.append(await self._append(assistant))
            results: list[ToolResultMessage] = []
            for call in tool_calls(assistant):
                if self._abort.is_set():
                    break
                result, denial = await self.tool_step.run(call, self.tools, self._abort)
                if denial is not None:
                    self.denials.append(denial)
                results.append(result)
                added.append(await self._append(result))
            await self.emit(TurnEndEvent(turn_index=index, message=assistant, tool_results=results))
            if self._stop_reason is not None:
                return
            if assistant.get("stop_reason") in ("error", "aborted") or self._abort.is_set():
                return
            # Sent while streaming: persisted now, seen by the model at its next call.
            queued, self._queue = self._queue, []
            for m, _ in queued:
                added.append(await self._append(m))
            if results or any(trigger for _, trigger in queued):
                continue
            if not ttsr_used and not content_text(assistant["content"]).strip():
                ttsr_used = True
                await self.emit(TtsrTriggeredEvent(turn_index=index, message=assistant))
                added.append(
                    await self._append(
                        user_message("Your last response was empty. Please continue.")
                    )
                )
                continue
            reminders += 1
            if await self._todo_reminder(added, reminders):
                continue
            stop = await self.emit(
                StopEvent(stop_hook_active=stop_continuations > 0, last_message=assistant)
            )
            if isinstance(stop, StopResult) and stop.block:
                if stop_continuations >= MAX_STOP_CONTINUATIONS:
                    self.runner.context.ui.notify(
                        f"Stop hooks blocked {MAX_STOP_CONTINUATIONS} times in a row; stopping",
                        "warning",
                    )
                    return
                stop_continuations += 1
                reason = stop.reason or "A stop hook asked the agent to continue."
                added.append(await self._append(user_message(reason, time.time())))
                continue
            return

    async def _todo_reminder(self, added: list[Message], attempt: int) -> bool:
        """Before stopping with open todos: ``todo_reminder``, then one more turn."""
        open_items = self.todos.open_items()
        if not open_items or attempt > MAX_TODO_REMINDERS:
            return False
        await self.emit(TodoReminderEvent(todos=open_items, attempt=attempt))
        listing = "\n".join(f"- {t['content']} ({t['status']})" for t in open_items)
        added.append(await self._append(user_message(f"You still have open todos:\n{listing}")))
        return True

    # -- the user's own shell command and the model switch ----------------------------

    async def run_user_bash(self, command: str) -> ToolResult:
        """``!command`` from the user: ``user_bash`` hooks may rewrite command, cwd and env."""
        cwd, env = self.cwd, None
        result = await self.emit(UserBashEvent(command=command, cwd=cwd))
        if isinstance(result, UserBashResult):
            command = result.command or command
            cwd = result.cwd or cwd
            env = result.env
        session_env = self.claude.session_env if self.claude is not None else {}
        full_env = {**os.environ, **session_env, **self.extra_env, **(env or {})}
        timeout, _ = bash_timeouts(full_env)  # the bash tool's default: a `!cmd` cannot hang
        done = await run_process(
            ["bash", "-c", command],
            cwd=cwd,
            env=full_env,
            merge_stderr=True,
            timeout=timeout,
            signal=self._abort,
        )
        text = done.stdout + (f"\n(exit code {done.code})" if done.code else "")
        if done.timed_out:
            text += f"\n(timed out after {timeout:g} s; the command was killed)"
        return ToolResult([{"type": "text", "text": text}], {"exit_code": done.code})

    async def set_model(self, provider: Provider, source: str = "set") -> None:
        previous = self.provider.model_id
        self.provider = provider
        self.runner.context.model = provider.model_id
        self.session.append_model_change(provider.model_id, previous)
        await self.emit(
            ModelSelectEvent(model=provider.model_id, previous_model=previous, source=source)
        )
