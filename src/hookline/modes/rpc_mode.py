"""RPC mode: pi's RPC protocol, JSON lines in on stdin, JSON lines out on stdout.

Commands are ``{"type": ..., "id"?: ...}`` objects with pi's names
(``prompt``, ``steer``, ``follow_up``, ``get_state``, ``fork``, ...; fields in
camelCase); each gets a ``{"type": "response", "command", "id", "success",
"data"|"error"}``. ``prompt`` is answered as soon as it is accepted and its
events stream after (a run that then fails gets a second, error response with
the same id). Events are translated to pi's shapes (``rpc_wire``). Hook UI
calls become ``extension_ui_request`` lines; dialogs are answered by
``extension_ui_response`` lines with the same id. A hook error is an
``extension_error`` event. A bad line is answered with an error response; the
process stays up.

Every command runs as its own task, so reading never waits for one: an
``abort`` or a dialog answer is read while a prompt, a hook or a dialog
is still pending. The session's start (``session_start`` hooks) is such a
task too, begun before the first line is read; other commands wait for it.
EOF closes every dialog with its no-UI value, so a hook waiting on the host
never holds the process. ``abort`` closes open dialogs (``extension_ui_cancelled``,
they resolve as cancelled), lets the run end on the abort signal for
``ABORT_GRACE`` seconds, then cancels what is still running (a hung hook).
"""

from __future__ import annotations

import asyncio
import itertools
import os
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, TextIO

from hookline.agent.agent import QUEUE_MODES, THINKING_LEVELS, Agent
from hookline.agent.model_catalog import ModelCatalog, ModelEntry
from hookline.agent.permissions import PERMISSION_MODES
from hookline.core.calling import HookError
from hookline.core.messages import Content, content_text, user_message
from hookline.core.ui import NotifyType, StatusLine, WidgetContent, WidgetPlacement
from hookline.modes.print_mode import LineWriter, dumps
from hookline.modes.rpc_protocol import (
    MAX_LINE_BYTES,
    LineTooLong,
    open_stdin,
    parse_command,
    read_lines,
    ui_answer,
)
from hookline.modes.rpc_wire import PiWire, wire_message, wire_usage

Writer = Callable[[dict[str, Any]], None]

#: How long an aborted command may take to end on the abort signal before it is
#: cancelled, and again before a command that ignores cancellation is given up on.
ABORT_GRACE = 1.0
_ABORTED_TOOL = "Tool call aborted: the run was cancelled before the tool finished."


class RpcUI:
    """Hook UI over the RPC channel: dialogs are requests the host answers."""

    def __init__(self, write: Writer) -> None:
        self._write = write
        self._ids = itertools.count(1)
        self._pending: dict[str, asyncio.Future[dict[str, Any]]] = {}
        #: What each open dialog asked: its method and, for select, its options.
        self._asked: dict[str, tuple[str, tuple[str, ...]]] = {}
        self.status = StatusLine()
        self._editor_text = ""
        self.closed = False
        #: While an abort winds the run down, new dialogs are answered 'cancelled' at once.
        self.refusing = False

    def resolve(self, message: dict[str, Any]) -> str | None:
        """Answer an open dialog; returns why not, if the answer was refused.

        A malformed answer leaves the dialog open (the host may answer again,
        or abort): it never resolves to a yes.
        """
        request_id = str(message.get("id"))
        future = self._pending.get(request_id)
        if future is None or future.done():
            return f"no open UI request with id {request_id[:80]!r}"
        method, options = self._asked[request_id]
        try:
            answer = ui_answer(method, options, message)
        except ValueError as exc:
            return f"{exc}; the {method} dialog {request_id} is still open"
        del self._pending[request_id], self._asked[request_id]
        future.set_result(answer)
        return None

    def close_dialogs(self, reason: str) -> int:
        """Resolve every open dialog as cancelled and tell the host; returns how many."""
        open_ids = [i for i, f in self._pending.items() if not f.done()]
        for request_id in open_ids:
            self._pending[request_id].set_result({"cancelled": True})
            self._write({"type": "extension_ui_cancelled", "id": request_id, "reason": reason})
        self._pending.clear()
        self._asked.clear()
        return len(open_ids)

    def _close_one(self, request_id: str, reason: str) -> None:
        self._pending.pop(request_id, None)
        self._asked.pop(request_id, None)
        self._write({"type": "extension_ui_cancelled", "id": request_id, "reason": reason})

    def cancel_all(self) -> None:
        """The host is gone: every open and later dialog answers 'cancelled'."""
        self.closed = True
        for future in self._pending.values():
            if not future.done():
                future.set_result({"cancelled": True})
        self._pending.clear()
        self._asked.clear()

    async def _ask(
        self,
        method: str,
        *,
        signal: asyncio.Event | None = None,
        **fields: Any,
    ) -> dict[str, Any]:
        """Send the request and wait for its answer.

        A ``timeout`` (sent to the host in milliseconds) or a set ``signal``
        closes the dialog with its default answer; the host is told
        (``extension_ui_cancelled``, reason ``timeout`` or ``signal``) and a
        late answer is refused like any answer to a closed dialog.
        """
        if self.closed or self.refusing or (signal is not None and signal.is_set()):
            return {"cancelled": True}
        request_id = f"ui-{next(self._ids)}"
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        self._asked[request_id] = (method, tuple(fields.get("options") or ()))
        self._write({"type": "extension_ui_request", "id": request_id, "method": method, **fields})
        timeout = fields["timeout"] / 1000 if "timeout" in fields else None
        try:
            if timeout is None and signal is None:
                return await future
            waiters: set[asyncio.Future[Any]] = {future}
            stop = asyncio.ensure_future(signal.wait()) if signal is not None else None
            if stop is not None:
                waiters.add(stop)
            try:
                await asyncio.wait(waiters, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
            finally:
                if stop is not None:
                    stop.cancel()
            if future.done():
                return future.result()
            self._close_one(request_id, "signal" if stop is not None and stop.done() else "timeout")
            return {"cancelled": True}
        finally:
            if self._pending.pop(request_id, None) is not None:
                # The hook stopped waiting (cancelled, timed out): the dialog is gone.
                del self._asked[request_id]
                self._write(
                    {"type": "extension_ui_cancelled", "id": request_id, "reason": "withdrawn"}
                )

    async def select(
        self,
        title: str,
        options: Sequence[str],
        *,
        timeout: float | None = None,
        signal: asyncio.Event | None = None,
        descriptions: Mapping[str, str] | None = None,
    ) -> str | None:
        extra = {"descriptions": dict(descriptions)} if descriptions else {}
        answer = await self._ask(
            "select",
            title=title,
            options=list(options),
            signal=signal,
            **_timeout(timeout),
            **extra,
        )
        value = answer.get("value")
        return value if isinstance(value, str) and not answer.get("cancelled") else None

    async def confirm(
        self,
        title: str,
        message: str,
        *,
        timeout: float | None = None,
        signal: asyncio.Event | None = None,
    ) -> bool:
        answer = await self._ask(
            "confirm", title=title, message=message, signal=signal, **_timeout(timeout)
        )
        return bool(answer.get("confirmed", answer.get("value"))) and not answer.get("cancelled")

    async def input(
        self,
        title: str,
        placeholder: str | None = None,
        *,
        timeout: float | None = None,
        signal: asyncio.Event | None = None,
    ) -> str | None:
        answer = await self._ask(
            "input", title=title, placeholder=placeholder, signal=signal, **_timeout(timeout)
        )
        value = answer.get("value")
        return value if isinstance(value, str) and not answer.get("cancelled") else None

    async def editor(
        self,
        title: str,
        prefill: str | None = None,
        *,
        timeout: float | None = None,
        signal: asyncio.Event | None = None,
    ) -> str | None:
        answer = await self._ask(
            "editor", title=title, prefill=prefill, signal=signal, **_timeout(timeout)
        )
        value = answer.get("value")
        return value if isinstance(value, str) and not answer.get("cancelled") else None

    def notify(self, message: str, type: NotifyType = "info") -> None:
        self._write(
            {
                "type": "extension_ui_request",
                "id": f"ui-{next(self._ids)}",
                "method": "notify",
                "message": message,
                "notifyType": type,
            }
        )

    def set_status(self, key: str, text: str | None) -> None:
        self.status.set(key, text)
        self._write(
            {
                "type": "extension_ui_request",
                "id": f"ui-{next(self._ids)}",
                "method": "setStatus",
                "statusKey": key,
                "statusText": text,
            }
        )

    async def custom(self, factory: Callable[..., Any], *, overlay: bool = False) -> Any:
        """A hook component needs the terminal app: over RPC it is always ``None``."""
        return None

    def set_editor_text(self, text: str) -> None:
        self._editor_text = text
        self._write(
            {
                "type": "extension_ui_request",
                "id": f"ui-{next(self._ids)}",
                "method": "set_editor_text",
                "text": text,
            }
        )

    def get_editor_text(self) -> str:
        return self._editor_text

    def paste_to_editor(self, text: str) -> None:
        self.set_editor_text(self._editor_text + text)

    def set_widget(
        self, key: str, content: WidgetContent | None, *, placement: WidgetPlacement = "above"
    ) -> None:
        lines = None if content is None or callable(content) else [str(x) for x in content]
        self._write(
            {
                "type": "extension_ui_request",
                "id": f"ui-{next(self._ids)}",
                "method": "setWidget",
                "widgetKey": key,
                "widgetLines": lines,
                "widgetPlacement": "belowEditor" if placement == "below" else "aboveEditor",
            }
        )

    def set_working_message(self, text: str | None) -> None:
        return None

    def set_header(self, content: WidgetContent | None) -> None:
        """Replacing the terminal app's header and footer has no RPC equivalent."""
        return None

    def set_footer(self, content: WidgetContent | None) -> None:
        return None

    def set_title(self, title: str) -> None:
        self._write(
            {
                "type": "extension_ui_request",
                "id": f"ui-{next(self._ids)}",
                "method": "setTitle",
                "title": title,
            }
        )

    @property
    def theme(self) -> dict[str, Any]:
        return {}


def _timeout(seconds: float | None) -> dict[str, int]:
    """The request's ``timeout`` field (milliseconds, as pi sends it), when the hook gave one."""
    return {} if seconds is None else {"timeout": max(0, round(seconds * 1000))}


class RpcServer:
    """Reads commands, runs them on the agent, writes responses and events."""

    def __init__(
        self,
        agent: Agent,
        make_provider: Callable[[str], Any] | None = None,
        out: TextIO | None = None,
        catalog: ModelCatalog | None = None,
    ) -> None:
        self.agent = agent
        self.make_provider = make_provider
        #: The models ``get_available_models`` lists and ``cycle_model`` goes through.
        self.catalog = catalog or ModelCatalog(os.environ)
        self._out = LineWriter(out)
        self.ui = RpcUI(self.write)
        agent.runner.set_ui(self.ui, True)
        self._wire = PiWire()
        agent.subscribe(self._publish)
        agent.runner.on_error(self._hook_error)
        #: Running commands and their type.
        self._tasks: dict[asyncio.Task[Any], str] = {}
        #: The stop signals of running ``bash`` commands (``abort_bash`` sets them).
        self.bash_signals: set[asyncio.Event] = set()
        #: Commands an abort gave up on (they ignored cancellation).
        self._abandoned: set[asyncio.Task[Any]] = set()
        #: The session's start (``session_start`` hooks): commands but ``abort`` wait for it.
        self._started: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._started.set_result(None)

    def write(self, payload: dict[str, Any]) -> None:
        self._out(dumps(payload))

    def _publish(self, payload: dict[str, Any]) -> None:
        for line in self._wire.lines(payload):
            self.write(line)

    def _hook_error(self, error: HookError) -> None:
        """A hook failed: pi's ``extension_error`` event (the run goes on)."""
        self.write(
            {
                "type": "extension_error",
                "extensionPath": error.hook_path,
                "event": error.event,
                "error": error.error,
            }
        )

    def respond(
        self, command: str, request_id: Any, data: Any = None, error: str | None = None
    ) -> None:
        payload: dict[str, Any] = {"type": "response", "command": command, "success": error is None}
        if request_id is not None:
            payload["id"] = request_id
        if error is None:
            if data is not None:
                payload["data"] = data
        else:
            payload["error"] = error
        self.write(payload)

    async def serve(self, stdin: asyncio.StreamReader) -> int:
        """Read commands until EOF; the session starts alongside, so a ``session_start``
        dialog's answer, an ``abort`` and EOF are read while its hooks run."""
        self._started = asyncio.ensure_future(self.agent.start())
        self.track(self._started, "start")
        try:
            async for line in read_lines(stdin):
                if isinstance(line, LineTooLong):
                    self.respond(
                        "parse",
                        None,
                        error=f"line of {line.size} bytes is over the "
                        f"{MAX_LINE_BYTES // (1024 * 1024)} MiB limit; ignored",
                    )
                    continue
                text = line.decode("utf-8", errors="replace").strip()
                if text:
                    self.handle_line(text)
            # EOF: the host is gone; open and later dialogs answer as if there were no UI.
            self.ui.cancel_all()
            live = [t for t in self._tasks if t not in self._abandoned]
            if live:
                await asyncio.wait(live)
            if self._started.done() and not self._started.cancelled():
                self._started.result()  # a start-up that raised is the run's error
            if not self._abandoned:  # a run given up on never makes the agent idle
                await self.agent.wait_for_idle()
        except asyncio.CancelledError:
            # SIGTERM: stop the commands still running; the caller shuts the agent down.
            self.agent.abort()
            for task in list(self._tasks):
                task.cancel()
            if self._tasks:
                await asyncio.wait(list(self._tasks), timeout=ABORT_GRACE)
            raise
        finally:
            self.ui.cancel_all()
        await self.agent.shutdown("exit")
        return 0

    def handle_line(self, text: str) -> None:
        """Answer a dialog at once, or start the command as a task: never wait for one."""
        try:
            message = parse_command(text)
        except ValueError as exc:
            self.respond("parse", None, error=str(exc))
            return
        kind = message["type"]
        if kind == "extension_ui_response":
            error = self.ui.resolve(message)
            if error is not None:
                self.respond(kind, message.get("id"), error=error)
            return
        handler = _COMMANDS.get(kind)
        if handler is None:
            self.respond(
                kind[:80],
                message.get("id"),
                error=f"unknown command {kind[:80]!r}; known: " + ", ".join(sorted(_COMMANDS)),
            )
            return
        self.track(asyncio.ensure_future(self._run(kind, message, handler)), kind)

    def track(self, task: asyncio.Task[Any], kind: str) -> None:
        """A running command (or work it left running): abort and EOF wait for it."""
        self._tasks[task] = kind
        task.add_done_callback(self._forget)

    def _forget(self, task: asyncio.Task[Any]) -> None:
        self._tasks.pop(task, None)
        self._abandoned.discard(task)  # given up on, but it ended after all

    async def abort_running(self) -> dict[str, int]:
        """End every running command now, whatever it waits on.

        Open dialogs close as cancelled, the agent's abort signal stops the
        model and the tools; a command still running after ``ABORT_GRACE``
        (a hook that hangs) is cancelled, and one that ignores that too is
        given up on after another grace (its response says so).
        """
        me = asyncio.current_task()
        running = [t for t, kind in self._tasks.items() if t is not me and kind != "abort"]
        self.agent.abort()
        self.ui.refusing = True
        try:
            closed = self.ui.close_dialogs("abort")
            cancelled: set[asyncio.Task[Any]] = set()
            abandoned: set[asyncio.Task[Any]] = set()
            if running:
                _, cancelled = await asyncio.wait(running, timeout=ABORT_GRACE)
            for task in cancelled:
                task.cancel()
            if cancelled:
                _, abandoned = await asyncio.wait(cancelled, timeout=ABORT_GRACE)
            orphans = self.agent.runner.orphans  # never waited for at exit
            for task in abandoned:
                self._abandoned.add(task)
                orphans.add(task)
                task.add_done_callback(orphans.discard)
            if cancelled and not self.agent.is_streaming:
                self._close_cancelled_tool_calls()
        finally:
            self.ui.refusing = False
        return {
            "dialogsClosed": closed,
            "commandsCancelled": len(cancelled),
            "commandsAbandoned": len(abandoned),
        }

    def _close_cancelled_tool_calls(self) -> None:
        """A cancelled run may have left a tool call without result: answer it as aborted."""
        session = self.agent.session
        for entry_id in session.answer_open_tool_calls(_ABORTED_TOOL):
            entry = session.get_entry(entry_id)
            if entry is None or entry["type"] != "message":
                continue
            result = entry["message"]
            if result["role"] == "tool":
                self.agent.publish(
                    {
                        "type": "tool_execution_end",
                        "tool_name": result["tool_name"],
                        "tool_call_id": result["tool_call_id"],
                        # pi's AgentToolResult, as the agent publishes it
                        "result": {"content": result["content"], "details": None},
                        "result_text": _ABORTED_TOOL,
                        "is_error": True,
                    }
                )
            self.agent.publish({"type": "message", "message": result})

    async def _run(self, kind: str, message: dict[str, Any], handler: _Handler) -> None:
        request_id = message.get("id")
        try:
            if kind != "abort":  # commands follow session_start; abort may end it
                await asyncio.wait([self._started])
            data = await handler(self, message)
        except asyncio.CancelledError:
            self.respond(kind, request_id, error="aborted before it finished")
            raise
        except Exception as exc:
            self.respond(kind, request_id, error=f"{type(exc).__name__}: {exc}")
        else:
            if data is not _ANSWERED:
                self.respond(kind, request_id, data)


_Handler = Callable[[RpcServer, dict[str, Any]], Awaitable[Any]]


def _str(message: dict[str, Any], key: str) -> str:
    value = message.get(key)
    if not isinstance(value, str):
        raise ValueError(f'"{key}" must be a string')
    return value


def _opt_str(message: dict[str, Any], key: str) -> str | None:
    value = message.get(key)
    if value is not None and not isinstance(value, str):
        raise ValueError(f'"{key}" must be a string')
    return value


def _images(m: dict[str, Any]) -> list[Content]:
    """pi's ``images`` (``{"type": "image", "data", "mimeType"}``) as content blocks."""
    raw = m.get("images") or []
    if not isinstance(raw, list):
        raise ValueError('"images" must be an array of image objects')
    images: list[Content] = []
    for i, image in enumerate(raw):
        if not (
            isinstance(image, dict)
            and isinstance(image.get("data"), str)
            and isinstance(image.get("mimeType"), str)
        ):
            raise ValueError(f'"images"[{i}] needs string "data" and "mimeType"')
        images.append({"type": "image", "data": image["data"], "mime_type": image["mimeType"]})
    return images


#: A handler that answered its command itself (``prompt`` answers before its run ends).
_ANSWERED = object()


async def _prompt(s: RpcServer, m: dict[str, Any]) -> Any:
    """pi's ``prompt``: answered at once, events stream; a later failure is a second response.

    ``/name args`` runs a hook command (even while streaming); while a run
    streams, a plain prompt needs ``streamingBehavior`` ``steer`` or ``followUp``.
    """
    text, images = _str(m, "message"), _images(m)
    behavior = _opt_str(m, "streamingBehavior")
    if behavior not in (None, "steer", "followUp"):
        raise ValueError('"streamingBehavior" must be "steer" or "followUp"')
    name, _, args = text[1:].partition(" ")
    command = s.agent.runner.get_command(name) if text.startswith("/") else None
    if command is None and s.agent.is_streaming and behavior is None:
        raise ValueError(
            'the agent is streaming: send "streamingBehavior": "steer" or "followUp" '
            "(or use the steer / follow_up commands)"
        )
    s.respond("prompt", m.get("id"))
    if command is not None:
        await s.agent.runner.run_command(name, args)
    elif behavior == "followUp" and s.agent.is_streaming:
        await _follow_up(s, m)
    else:
        await s.agent.prompt(text, images=images, source="rpc")
    return _ANSWERED


async def _steer(s: RpcServer, m: dict[str, Any]) -> Any:
    """Delivered at the end of the current turn (a new run when idle)."""
    text, images = _str(m, "message"), _images(m)
    s.agent.send(text, images)
    return None


async def _follow_up(s: RpcServer, m: dict[str, Any]) -> Any:
    """Delivered when the agent would stop (``set_follow_up_mode``: all at once or one per
    stop); when idle, a run of its own."""
    text, images = _str(m, "message"), _images(m)
    if s.agent.is_streaming:
        content: list[Content] = [{"type": "text", "text": text}, *images]
        s.agent.deliver(user_message(content), "follow_up", True)
    else:
        s.track(
            asyncio.ensure_future(s.agent.prompt(text, images=images, source="rpc")), "follow_up"
        )
    return None


async def _abort(s: RpcServer, m: dict[str, Any]) -> Any:
    return await s.abort_running()


def _current(s: RpcServer) -> ModelEntry:
    return s.catalog.entry(s.agent.provider.model_id)


async def _state(s: RpcServer, m: dict[str, Any]) -> Any:
    a = s.agent
    state: dict[str, Any] = {
        "model": _current(s).to_pi(),
        "thinkingLevel": a.get_thinking_level(),
        "isStreaming": a.is_streaming,
        "isCompacting": False,
        "steeringMode": a.steering_mode,
        "followUpMode": a.follow_up_mode,
        "sessionFile": a.session.get_session_file(),
        "sessionId": a.session.get_session_id(),
        "autoCompactionEnabled": a.compaction.auto_compact,
        "messageCount": len(a.session.build_context_messages()),
        "pendingMessageCount": a.pending_message_count(),
        # hookline's own fields
        "autoRetryEnabled": a.retry.enabled,  # pi's AgentSession.autoRetryEnabled
        "leafId": a.session.get_leaf_id(),
        "permissionMode": a.gate.mode,
        "turnIndex": a.turn_index,
        # Disk full or a size limit: the run goes on in memory; these entries are not saved.
        "unsavedEntryIds": a.session.unsaved_entry_ids,
        "saveError": str(a.session.save_error) if a.session.save_error else None,
    }
    name = a.get_session_name()  # the name hooks give with pi.set_session_name, too
    if name is not None:
        state["sessionName"] = name
    return state


async def _messages(s: RpcServer, m: dict[str, Any]) -> Any:
    return {"messages": [wire_message(x) for x in s.agent.session.build_context_messages()]}


async def _new_session(s: RpcServer, m: dict[str, Any]) -> Any:
    parent = _opt_str(m, "parentSession")
    return {"cancelled": not await s.agent.new_session(parent)}


async def _switch(s: RpcServer, m: dict[str, Any]) -> Any:
    return {"cancelled": not await s.agent.switch_session(_str(m, "sessionPath"))}


async def _branch(s: RpcServer, m: dict[str, Any]) -> Any:
    turn = m.get("turnIndex")
    if turn is not None and (isinstance(turn, bool) or not isinstance(turn, int)):
        raise ValueError('"turnIndex" must be an integer')
    entry = _opt_str(m, "entryId")
    return {"cancelled": not await s.agent.branch(turn, entry)}


def _user_text(entry: Mapping[str, Any]) -> str | None:
    message = entry.get("message") if entry.get("type") == "message" else None
    if not isinstance(message, dict) or message.get("role") != "user":
        return None
    return content_text(message["content"])


async def _fork(s: RpcServer, m: dict[str, Any]) -> Any:
    """pi forks *before* a user message: the new session ends at its parent."""
    entry_id = _opt_str(m, "entryId")
    text = ""
    target = entry_id
    if entry_id is not None:
        entry = s.agent.session.get_entry(entry_id)
        found = _user_text(entry) if entry is not None else None
        if entry is None or found is None:
            raise ValueError(f"no user message with entryId {entry_id[:80]!r}")
        text, target = found, entry.get("parent_id")
    done = await s.agent.fork(target) if target is not None or entry_id is None else False
    return {"text": text, "cancelled": not done, "sessionFile": s.agent.session.get_session_file()}


async def _fork_messages(s: RpcServer, m: dict[str, Any]) -> Any:
    found = []
    for entry in s.agent.session.get_branch():
        text = _user_text(entry)
        if text is not None:
            found.append({"entryId": entry["id"], "text": text})
    return {"messages": found}


async def _last_text(s: RpcServer, m: dict[str, Any]) -> Any:
    for message in reversed(s.agent.session.build_context_messages()):
        if message["role"] == "assistant":
            return {"text": content_text(message["content"])}
    return {"text": None}


async def _tree(s: RpcServer, m: dict[str, Any]) -> Any:
    return {"cancelled": not await s.agent.navigate_tree(_str(m, "targetId"))}


async def _compact(s: RpcServer, m: dict[str, Any]) -> Any:
    before = len(s.agent.session.get_entries())
    if not await s.agent.compact(_opt_str(m, "customInstructions")):
        raise ValueError("nothing was compacted (too little to summarise, or a hook cancelled)")
    added = s.agent.session.get_entries()[before:]
    entry = next((e for e in reversed(added) if e["type"] == "compaction"), None)
    if entry is None:
        return {"summary": "", "firstKeptEntryId": None, "tokensBefore": 0, "details": {}}
    return {
        "summary": entry.get("summary", ""),
        "firstKeptEntryId": entry.get("first_kept_entry_id"),
        "tokensBefore": entry.get("tokens_before", 0),
        "details": entry.get("details") or {},
    }


async def _auto_compaction(s: RpcServer, m: dict[str, Any]) -> Any:
    enabled = m.get("enabled")
    if not isinstance(enabled, bool):
        raise ValueError('"enabled" must be true or false')
    s.agent.compaction.auto_compact = enabled
    return None


async def _switch_model(s: RpcServer, spec: str) -> ModelEntry:
    """Use ``spec``; the thinking level is kept where the new model takes it, else clamped."""
    if s.make_provider is None:
        raise ValueError("this server cannot change models")
    await s.agent.set_model(s.make_provider(spec))
    entry = _current(s)
    s.agent.set_thinking_level(clamp_thinking(s.agent.get_thinking_level(), entry))
    return entry


async def _set_model(s: RpcServer, m: dict[str, Any]) -> Any:
    provider, model_id = _str(m, "provider"), _str(m, "modelId")
    spec = model_id if provider == "hookline" else f"{provider}:{model_id}"
    return (await _switch_model(s, spec)).to_pi()


async def _cycle_model(s: RpcServer, m: dict[str, Any]) -> Any:
    """The next available model (pi answers ``null`` when there is only one)."""
    models = s.catalog.available(s.agent.provider.model_id)
    if len(models) < 2:
        return None
    current = _current(s).spec
    at = next((i for i, e in enumerate(models) if e.spec == current), -1)
    entry = await _switch_model(s, models[(at + 1) % len(models)].spec)
    return {
        "model": entry.to_pi(),
        "thinkingLevel": s.agent.get_thinking_level(),
        "isScoped": False,
    }


async def _models(s: RpcServer, m: dict[str, Any]) -> Any:
    return {"models": [e.to_pi() for e in s.catalog.available(s.agent.provider.model_id)]}


def clamp_thinking(level: str, model: ModelEntry) -> str:
    """``level`` if ``model`` takes it, else the nearest it takes (upwards first, as pi)."""
    available = model.thinking_levels()
    if level in available:
        return level
    order = list(THINKING_LEVELS)
    at = order.index(level) if level in order else 0
    for candidate in [*order[at:], *reversed(order[:at])]:
        if candidate in available:
            return candidate
    return available[0]


async def _set_thinking(s: RpcServer, m: dict[str, Any]) -> Any:
    level = _str(m, "level")
    if level not in THINKING_LEVELS:
        raise ValueError(f'"level" must be one of {", ".join(THINKING_LEVELS)}, not {level!r}')
    s.agent.set_thinking_level(clamp_thinking(level, _current(s)))
    return None


async def _cycle_thinking(s: RpcServer, m: dict[str, Any]) -> Any:
    """The next level the model takes, wrapping to ``off``; ``null`` for a model that does
    not reason."""
    entry = _current(s)
    if not entry.reasoning:
        return None
    levels = entry.thinking_levels()
    current = s.agent.get_thinking_level()
    at = levels.index(current) if current in levels else -1
    level = levels[(at + 1) % len(levels)]
    s.agent.set_thinking_level(level)
    return {"level": level}


def _queue_mode(m: dict[str, Any]) -> str:
    mode = _str(m, "mode")
    if mode not in QUEUE_MODES:
        raise ValueError(f'"mode" must be one of {", ".join(map(repr, QUEUE_MODES))}')
    return mode


async def _steering_mode(s: RpcServer, m: dict[str, Any]) -> Any:
    s.agent.set_queue_modes(steering=_queue_mode(m))
    return None


async def _follow_up_mode(s: RpcServer, m: dict[str, Any]) -> Any:
    s.agent.set_queue_modes(follow_up=_queue_mode(m))
    return None


async def _auto_retry(s: RpcServer, m: dict[str, Any]) -> Any:
    enabled = m.get("enabled")
    if not isinstance(enabled, bool):
        raise ValueError('"enabled" must be true or false')
    s.agent.retry.enabled = enabled
    return None


async def _abort_retry(s: RpcServer, m: dict[str, Any]) -> Any:
    """Ends a retry wait in progress: that model call's error stands (the run goes on to
    its end); no effect when no retry is waiting."""
    s.agent.retry.cancel_wait()
    return None


async def _export_html(s: RpcServer, m: dict[str, Any]) -> Any:
    from hookline.modes.export_html import export_session_html

    a = s.agent
    path = export_session_html(
        a.session,
        _opt_str(m, "outputPath"),
        cwd=a.cwd,
        model=a.provider.model_id,
        system_prompt=a.get_system_prompt(),
        tools=[(t.name, t.description) for t in a.active_tools().values()],
    )
    return {"path": path}


async def _mode(s: RpcServer, m: dict[str, Any]) -> Any:
    mode = _str(m, "mode")
    if mode not in PERMISSION_MODES:
        raise ValueError(f"unknown permission mode {mode!r}; one of {', '.join(PERMISSION_MODES)}")
    s.agent.set_permission_mode(mode)
    return {"permissionMode": mode}


async def _command(s: RpcServer, m: dict[str, Any]) -> Any:
    name = _str(m, "name").lstrip("/")
    args = _opt_str(m, "args") or ""
    if not await s.agent.runner.run_command(name, args):
        raise ValueError(f"no command /{name}")
    return None


async def _commands(s: RpcServer, m: dict[str, Any]) -> Any:
    return {
        "commands": [
            {
                "name": c.name,
                "description": c.description,
                "source": "extension",
                **({"path": c.hook_path} if c.hook_path else {}),
            }
            for c in s.agent.runner.get_registered_commands()
        ]
    }


async def _bash(s: RpcServer, m: dict[str, Any]) -> Any:
    stop = asyncio.Event()
    s.bash_signals.add(stop)
    try:
        result = await s.agent.run_user_bash(_str(m, "command"), signal=stop)
    finally:
        s.bash_signals.discard(stop)
    details = result.details or {}
    return {
        "output": content_text(result.content),
        "exitCode": details.get("exit_code"),
        "cancelled": stop.is_set(),
        "truncated": False,
    }


async def _abort_bash(s: RpcServer, m: dict[str, Any]) -> Any:
    for stop in s.bash_signals:
        stop.set()
    return None


async def _stats(s: RpcServer, m: dict[str, Any]) -> Any:
    messages = s.agent.session.build_context_messages()
    tokens = {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0}
    calls = 0
    for message in messages:
        if message["role"] == "assistant":
            calls += sum(1 for b in message["content"] if b["type"] == "tool_call")
            for key, value in wire_usage(message.get("usage") or {}).items():
                if key in tokens and isinstance(value, int):
                    tokens[key] += value
    roles = [x["role"] for x in messages]
    return {
        "sessionFile": s.agent.session.get_session_file(),
        "sessionId": s.agent.session.get_session_id(),
        "userMessages": roles.count("user"),
        "assistantMessages": roles.count("assistant"),
        "toolCalls": calls,
        "toolResults": roles.count("tool"),
        "totalMessages": len(messages),
        "tokens": {**tokens, "total": sum(tokens.values())},
        "cost": 0,
    }


async def _session_name_cmd(s: RpcServer, m: dict[str, Any]) -> Any:
    name = _str(m, "name").strip()
    if not name:
        raise ValueError('"name" must not be empty')
    s.agent.set_session_name(name)
    return None


_COMMANDS: dict[str, _Handler] = {
    # pi's commands (docs/rpc.md)
    "prompt": _prompt,
    "steer": _steer,
    "follow_up": _follow_up,
    "abort": _abort,
    "new_session": _new_session,
    "get_state": _state,
    "get_messages": _messages,
    "set_model": _set_model,
    "cycle_model": _cycle_model,
    "get_available_models": _models,
    "set_thinking_level": _set_thinking,
    "cycle_thinking_level": _cycle_thinking,
    "set_steering_mode": _steering_mode,
    "set_follow_up_mode": _follow_up_mode,
    "compact": _compact,
    "set_auto_compaction": _auto_compaction,
    "set_auto_retry": _auto_retry,
    "abort_retry": _abort_retry,
    "bash": _bash,
    "abort_bash": _abort_bash,
    "get_session_stats": _stats,
    "export_html": _export_html,
    "switch_session": _switch,
    "fork": _fork,
    "get_fork_messages": _fork_messages,
    "get_last_assistant_text": _last_text,
    "set_session_name": _session_name_cmd,
    "get_commands": _commands,
    # hookline's own
    "branch": _branch,
    "navigate_tree": _tree,
    "set_permission_mode": _mode,
    "command": _command,
}


async def run_rpc(
    agent: Agent,
    make_provider: Callable[[str], Any] | None = None,
    out: TextIO | None = None,
    catalog: ModelCatalog | None = None,
) -> int:
    """Serve the protocol on stdin and ``out`` (the CLI passes its private stdout).

    ``catalog``: the models on offer (the CLI passes the settings' model and
    ``--base-url``); by default the environment's.
    """
    return await RpcServer(agent, make_provider, out, catalog).serve(await open_stdin())
