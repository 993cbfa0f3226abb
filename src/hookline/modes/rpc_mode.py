"""RPC mode: JSON lines in on stdin, JSON lines out on stdout.

Commands are ``{"type": ..., "id"?: ...}`` objects; each gets one
``{"type": "response", "command", "id", "success", "data"|"error"}``. Events
stream out as they happen. Hook UI calls become ``extension_ui_request``
lines answered by ``extension_ui_response`` lines with the same id. A bad line
is answered with an error response; the process stays up.

Every command runs as its own task, so reading never waits for one: an
``abort`` or a dialog answer is read while a prompt, a hook or a dialog
is still pending. ``abort`` closes open dialogs (``extension_ui_cancelled``,
they resolve as cancelled), lets the run end on the abort signal for
``ABORT_GRACE`` seconds, then cancels what is still running (a hung hook).
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, TextIO

from hookline.agent.agent import Agent
from hookline.agent.permissions import PERMISSION_MODES
from hookline.core.messages import content_text
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

        A ``timeout`` (seconds, also sent to the host) or a set ``signal``
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
        timeout = fields.get("timeout")
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
                "notify_type": type,
            }
        )

    def set_status(self, key: str, text: str | None) -> None:
        self.status.set(key, text)
        self._write(
            {
                "type": "extension_ui_request",
                "id": f"ui-{next(self._ids)}",
                "method": "set_status",
                "key": key,
                "text": text,
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
                "method": "set_widget",
                "key": key,
                "lines": lines,
                "placement": placement,
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
                "method": "set_title",
                "title": title,
            }
        )

    @property
    def theme(self) -> dict[str, Any]:
        return {}


def _timeout(seconds: float | None) -> dict[str, float]:
    """The request's ``timeout`` field (seconds), when the hook gave one."""
    return {} if seconds is None else {"timeout": seconds}


class RpcServer:
    """Reads commands, runs them on the agent, writes responses and events."""

    def __init__(
        self,
        agent: Agent,
        make_provider: Callable[[str], Any] | None = None,
        out: TextIO | None = None,
    ) -> None:
        self.agent = agent
        self.make_provider = make_provider
        self._out = LineWriter(out)
        self.ui = RpcUI(self.write)
        agent.runner.set_ui(self.ui, True)
        agent.subscribe(self.write)
        #: Running commands and their type.
        self._tasks: dict[asyncio.Task[Any], str] = {}
        #: Commands an abort gave up on (they ignored cancellation).
        self._abandoned: set[asyncio.Task[Any]] = set()

    def write(self, payload: dict[str, Any]) -> None:
        self._out(dumps(payload))

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
        await self.agent.start()
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
            self.ui.cancel_all()
            live = [t for t in self._tasks if t not in self._abandoned]
            if live:
                await asyncio.wait(live)
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
        task = asyncio.ensure_future(self._run(kind, message, handler))
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
            "dialogs_closed": closed,
            "commands_cancelled": len(cancelled),
            "commands_abandoned": len(abandoned),
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
                        "result": _ABORTED_TOOL,
                        "is_error": True,
                    }
                )
            self.agent.publish({"type": "message", "message": result})

    async def _run(self, kind: str, message: dict[str, Any], handler: _Handler) -> None:
        request_id = message.get("id")
        try:
            data = await handler(self, message)
        except asyncio.CancelledError:
            self.respond(kind, request_id, error="aborted before it finished")
            raise
        except Exception as exc:
            self.respond(kind, request_id, error=f"{type(exc).__name__}: {exc}")
        else:
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


async def _prompt(s: RpcServer, m: dict[str, Any]) -> Any:
    added = await s.agent.prompt(_str(m, "message"), source="rpc")
    return {"messages": len(added)}


async def _abort(s: RpcServer, m: dict[str, Any]) -> Any:
    return await s.abort_running()


async def _state(s: RpcServer, m: dict[str, Any]) -> Any:
    a = s.agent
    return {
        "model": a.provider.model_id,
        "is_streaming": a.is_streaming,
        "session_file": a.session.get_session_file(),
        "session_id": a.session.get_session_id(),
        "leaf_id": a.session.get_leaf_id(),
        "permission_mode": a.gate.mode,
        "turn_index": a.turn_index,
        "message_count": len(a.session.build_context_messages()),
        "commands": [c.name for c in a.runner.get_registered_commands()],
        # Disk full or a size limit: the run goes on in memory; these entries are not saved.
        "unsaved_entry_ids": a.session.unsaved_entry_ids,
        "save_error": str(a.session.save_error) if a.session.save_error else None,
    }


async def _messages(s: RpcServer, m: dict[str, Any]) -> Any:
    return {"messages": s.agent.session.build_context_messages()}


async def _new_session(s: RpcServer, m: dict[str, Any]) -> Any:
    return {"cancelled": not await s.agent.new_session()}


async def _switch(s: RpcServer, m: dict[str, Any]) -> Any:
    return {"cancelled": not await s.agent.switch_session(_str(m, "session_path"))}


async def _branch(s: RpcServer, m: dict[str, Any]) -> Any:
    turn = m.get("turn_index")
    if turn is not None and not isinstance(turn, int):
        raise ValueError('"turn_index" must be an integer')
    if isinstance(turn, bool):
        raise ValueError('"turn_index" must be an integer')
    entry = _opt_str(m, "entry_id")
    return {"cancelled": not await s.agent.branch(turn, entry)}


async def _fork(s: RpcServer, m: dict[str, Any]) -> Any:
    done = await s.agent.fork(_opt_str(m, "entry_id"))
    return {"cancelled": not done, "session_file": s.agent.session.get_session_file()}


async def _tree(s: RpcServer, m: dict[str, Any]) -> Any:
    return {"cancelled": not await s.agent.navigate_tree(_str(m, "target_id"))}


async def _compact(s: RpcServer, m: dict[str, Any]) -> Any:
    return {"compacted": await s.agent.compact(_opt_str(m, "custom_instructions"))}


async def _set_model(s: RpcServer, m: dict[str, Any]) -> Any:
    if s.make_provider is None:
        raise ValueError("this server cannot change models")
    await s.agent.set_model(s.make_provider(_str(m, "model")))
    return {"model": s.agent.provider.model_id}


async def _mode(s: RpcServer, m: dict[str, Any]) -> Any:
    mode = _str(m, "mode")
    if mode not in PERMISSION_MODES:
        raise ValueError(f"unknown permission mode {mode!r}; one of {', '.join(PERMISSION_MODES)}")
    s.agent.set_permission_mode(mode)
    return {"permission_mode": mode}


async def _command(s: RpcServer, m: dict[str, Any]) -> Any:
    name = _str(m, "name").lstrip("/")
    args = _opt_str(m, "args") or ""
    if not await s.agent.runner.run_command(name, args):
        raise ValueError(f"no command /{name}")
    return None


async def _bash(s: RpcServer, m: dict[str, Any]) -> Any:
    result = await s.agent.run_user_bash(_str(m, "command"))
    return {"output": content_text(result.content), **(result.details or {})}


_COMMANDS: dict[str, _Handler] = {
    "prompt": _prompt,
    "abort": _abort,
    "get_state": _state,
    "get_messages": _messages,
    "new_session": _new_session,
    "switch_session": _switch,
    "branch": _branch,
    "fork": _fork,
    "navigate_tree": _tree,
    "compact": _compact,
    "set_model": _set_model,
    "set_permission_mode": _mode,
    "command": _command,
    "bash": _bash,
}


async def run_rpc(
    agent: Agent,
    make_provider: Callable[[str], Any] | None = None,
    out: TextIO | None = None,
) -> int:
    """Serve the protocol on stdin and ``out`` (the CLI passes its private stdout)."""
    return await RpcServer(agent, make_provider, out).serve(await open_stdin())
