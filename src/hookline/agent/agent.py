"""The reference agent: the loop of pi-hooks.md's lifecycle, emitting every event.

One ``Agent`` owns a session, a model, the wrapped tools and the hook runner,
and is the ``AgentHost`` hooks talk to. Session operations (switch, branch,
fork, tree, compaction) live in ``SessionOps``, which this class mixes in.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable, Coroutine
from typing import Any

from hookline.agent.gate import PermissionGate
from hookline.agent.provider import Provider
from hookline.agent.session_ops import SessionOps
from hookline.agent.steps import TurnSteps
from hookline.agent.todos import TodoList
from hookline.claude import ClaudeHooks
from hookline.core.events import (
    AgentEndEvent,
    AgentStartEvent,
    BeforeAgentStartEvent,
    Event,
    InputEvent,
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
from hookline.tools import wrap_tools

DEFAULT_SYSTEM_PROMPT = (
    "You are hookline's reference coding agent. Use the tools to read, search and change "
    "files in the working directory, and answer concisely."
)
#: How many times in a row a Stop hook may force the agent to continue.
MAX_STOP_CONTINUATIONS = 5
#: How many times the agent reminds the model of open todos before it may stop.
MAX_TODO_REMINDERS = 1

Listener = Callable[[dict[str, Any]], None]


class Agent(TurnSteps, SessionOps):
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
    ) -> None:
        self.provider = provider
        self.runner = runner
        self.session = session
        self.cwd = cwd
        self.base_system_prompt = system_prompt
        self.system_prompt = system_prompt
        self.gate = gate or PermissionGate(runner, cwd=cwd)
        self.gate.emit = self.emit
        self.max_retries = max_retries
        self.retry_base_delay = retry_base_delay
        self.context_window = context_window
        self.auto_compact = auto_compact
        self.compact_threshold = compact_threshold
        self.turn_index = 0
        self.turn_leaves: dict[int, str | None] = {}
        self.extra_env: dict[str, str] = {}
        self.claude: ClaudeHooks | None = None
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
        self.rebuild_tools()
        runner.bind_host(self)
        runner.set_session_file(session.get_session_file())
        runner.context.session_manager = session
        runner.context.model = provider.model_id

    # -- wiring ----------------------------------------------------------------

    def rebuild_tools(self) -> None:
        """Hook tools replace built-ins of the same name; every tool is gated and wrapped."""
        merged = {t.name: t for t in self._raw_tools}
        merged.update(self.runner.get_registered_tools())
        gated = [self.gate.wrap(t) for t in merged.values()]
        self.tools = {t.name: t for t in wrap_tools(gated, self.runner)}

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Receive every event (hook events and stream events) as a JSON-ready dict."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def publish(self, payload: dict[str, Any]) -> None:
        for listener in list(self._listeners):
            listener(payload)

    async def emit(self, event: Event) -> Any:
        """Tell listeners, then hooks; returns the hooks' combined result."""
        if self._listeners:
            self.publish(event.to_dict())
        if self.runner.has_handlers(event.type):
            return await self.runner.emit(event)
        return None

    @property
    def is_streaming(self) -> bool:
        return not self._idle.is_set()

    # -- AgentHost ---------------------------------------------------------------

    def send_message(self, message: CustomMessage, trigger_turn: bool) -> None:
        """Persist a hook message; while streaming it waits for the end of the turn, so it
        never lands between a tool call and its result."""
        msg: CustomMessage = {**message, "timestamp": time.time()}  # type: ignore[typeddict-item]
        if self.is_streaming:
            self._queue.append((msg, trigger_turn))
            return
        self._append(msg)
        if trigger_turn:
            self._spawn(self._run([]))

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
        self.runner.abandon_inflight()  # hung hooks stop now: a tool_call's call is blocked

    async def _run(
        self, new: list[Message], prompt: str = "", images: list[Content] | None = None
    ) -> list[Message]:
        """One run, then auto-compaction and the runs of messages queued meanwhile.

        The agent is idle (``wait_for_idle``) only after all of it.
        """
        self._idle.clear()
        try:
            added = await self._run_once(new, prompt, images)
            await self.maybe_auto_compact()
            while self._queue and not self._abort.is_set():
                queued, self._queue = self._queue, []
                if not any(trigger for _, trigger in queued):
                    for message, _ in queued:
                        self._append(message)
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
        added: list[Message] = []
        self.system_prompt = self.base_system_prompt
        before = await self.emit(
            BeforeAgentStartEvent(
                prompt=prompt, images=list(images or []), system_prompt=self.system_prompt
            )
        )
        for msg in new:
            added.append(self._append(msg))
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
            added.append(self._append(injected))
        for extra in self.take_pending_context():
            added.append(self._append(extra))
        await self.emit(AgentStartEvent())
        await self._loop(added)
        await self.emit(AgentEndEvent(messages=added))
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

    def take_pending_context(self) -> list[Message]:
        """Context that settings hooks (SessionStart, async hooks) left for the next run."""
        if self.claude is None:
            return []
        text = self.claude.take_pending_context()
        if not text:
            return []
        message: CustomMessage = {
            "role": "custom",
            "custom_type": "hook_context",
            "content": text,
            "display": False,
            "timestamp": time.time(),
        }
        return [message]

    def _hook_stop(self) -> bool:
        """A settings hook answered ``continue: false``: end the run now."""
        if self.claude is None or self.claude.stop_reason is None:
            return False
        self.claude.stop_reason = None
        return True

    def _append(self, msg: Message) -> Message:
        self.session.append_message(msg)
        self.publish({"type": "message", "message": msg})
        return msg

    async def _loop(self, added: list[Message]) -> None:
        stop_continuations = 0
        ttsr_used = False
        reminders = 0
        while not self._abort.is_set():
            index = self.turn_index
            self.turn_index += 1
            self.turn_leaves[index] = self.session.get_leaf_id()
            await self.emit(TurnStartEvent(turn_index=index, timestamp=time.time()))
            assistant = await self._call_model()
            added.append(self._append(assistant))
            results: list[ToolResultMessage] = []
            for call in tool_calls(assistant):
                if self._abort.is_set():
                    break
                result = await self._run_tool(call)
                results.append(result)
                added.append(self._append(result))
            await self.emit(TurnEndEvent(turn_index=index, message=assistant, tool_results=results))
            if self._hook_stop():
                return
            if assistant.get("stop_reason") in ("error", "aborted") or self._abort.is_set():
                return
            # Sent while streaming: persisted now, seen by the model at its next call.
            queued, self._queue = self._queue, []
            added.extend(self._append(m) for m, _ in queued)
            if results or any(trigger for _, trigger in queued):
                continue
            if not ttsr_used and not content_text(assistant["content"]).strip():
                ttsr_used = True
                await self.emit(TtsrTriggeredEvent(turn_index=index, message=assistant))
                added.append(
                    self._append(user_message("Your last response was empty. Please continue."))
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
                added.append(self._append(user_message(reason, time.time())))
                continue
            return

    async def _todo_reminder(self, added: list[Message], attempt: int) -> bool:
        """Before stopping with open todos: ``todo_reminder``, then one more turn."""
        open_items = self.todos.open_items()
        if not open_items or attempt > MAX_TODO_REMINDERS:
            return False
        await self.emit(TodoReminderEvent(todos=open_items, attempt=attempt))
        listing = "\n".join(f"- {t['content']} ({t['status']})" for t in open_items)
        added.append(self._append(user_message(f"You still have open todos:\n{listing}")))
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
        done = await run_process(["bash", "-c", command], cwd=cwd, env=full_env, merge_stderr=True)
        text = done.stdout + (f"\n(exit code {done.code})" if done.code else "")
        return ToolResult([{"type": "text", "text": text}], {"exit_code": done.code})

    async def set_model(self, provider: Provider, source: str = "set") -> None:
        previous = self.provider.model_id
        self.provider = provider
        self.runner.context.model = provider.model_id
        self.session.append_model_change(provider.model_id, previous)
        await self.emit(
            ModelSelectEvent(model=provider.model_id, previous_model=previous, source=source)
        )
