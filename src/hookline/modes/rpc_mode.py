"""RPC mode: JSON lines in on stdin, JSON lines out on stdout.

Commands are ``{"type": ..., "id"?: ...}`` objects; each gets one
``{"type": "response", "command", "id", "success", "data"|"error"}``. Events
stream out as they happen. Hook UI calls become ``extension_ui_request``
lines answered by ``extension_ui_response`` lines with the same id. A bad line
is answered with an error response; the process stays up.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import sys
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from hookline.agent.agent import Agent
from hookline.agent.permissions import PERMISSION_MODES
from hookline.core.messages import content_text
from hookline.core.ui import NotifyType, StatusLine, WidgetContent, WidgetPlacement
from hookline.modes.print_mode import LineWriter, dumps, observe_tool_events

Writer = Callable[[dict[str, Any]], None]


class RpcUI:
    """Hook UI over the RPC channel: dialogs are requests the host answers."""

    def __init__(self, write: Writer) -> None:
        self._write = write
        self._ids = itertools.count(1)
        self._pending: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.status = StatusLine()
        self._editor_text = ""
        self.closed = False

    def resolve(self, message: dict[str, Any]) -> bool:
        future = self._pending.pop(str(message.get("id")), None)
        if future is None or future.done():
            return False
        future.set_result(message)
        return True

    def cancel_all(self) -> None:
        """The host is gone: every open and later dialog answers 'cancelled'."""
        self.closed = True
        for future in self._pending.values():
            if not future.done():
                future.set_result({"cancelled": True})
        self._pending.clear()

    async def _ask(self, method: str, **fields: Any) -> dict[str, Any]:
        if self.closed:
            return {"cancelled": True}
        request_id = f"ui-{next(self._ids)}"
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        self._write({"type": "extension_ui_request", "id": request_id, "method": method, **fields})
        return await future

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
            "select", title=title, options=list(options), **_timeout(timeout), **extra
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
        answer = await self._ask("confirm", title=title, message=message, **_timeout(timeout))
        return bool(answer.get("confirmed", answer.get("value"))) and not answer.get("cancelled")

    async def input(
        self,
        title: str,
        placeholder: str | None = None,
        *,
        timeout: float | None = None,
        signal: asyncio.Event | None = None,
    ) -> str | None:
        answer = await self._ask("input", title=title, placeholder=placeholder, **_timeout(timeout))
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
        answer = await self._ask("editor", title=title, prefill=prefill, **_timeout(timeout))
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

    def __init__(self, agent: Agent, make_provider: Callable[[str], Any] | None = None) -> None:
        self.agent = agent
        self.make_provider = make_provider
        self._out = LineWriter()
        self.ui = RpcUI(self.write)
        agent.runner.set_ui(self.ui, True)
        agent.subscribe(self.write)
        observe_tool_events(agent)
        self._tasks: set[asyncio.Task[Any]] = set()

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

    async def serve(self, lines: asyncio.StreamReader) -> int:
        await self.agent.start()
        try:
            while True:
                raw = await lines.readline()
                if not raw:
                    self.ui.cancel_all()
                    break
                text = raw.decode("utf-8", errors="replace").strip()
                if text:
                    await self.handle_line(text)
            if self._tasks:
                await asyncio.gather(*self._tasks, return_exceptions=True)
            await self.agent.wait_for_idle()
        except asyncio.CancelledError:
            # SIGTERM: stop the commands still running; the caller shuts the agent down.
            self.agent.abort()
            for task in list(self._tasks):
                task.cancel()
            await asyncio.gather(*self._tasks, return_exceptions=True)
            raise
        finally:
            self.ui.cancel_all()
        await self.agent.shutdown("exit")
        return 0

    async def handle_line(self, text: str) -> None:
        try:
            message = json.loads(text)
        except json.JSONDecodeError as exc:
            self.respond("parse", None, error=f"invalid JSON at column {exc.colno}: {exc.msg}")
            return
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            self.respond("parse", None, error='expected an object with a string "type"')
            return
        kind = message["type"]
        if kind == "extension_ui_response":
            if not self.ui.resolve(message):
                self.respond(kind, message.get("id"), error="no pending UI request with that id")
            return
        handler = _COMMANDS.get(kind)
        if handler is None:
            self.respond(
                kind,
                message.get("id"),
                error=f"unknown command {kind!r}; known: " + ", ".join(sorted(_COMMANDS)),
            )
            return
        task = asyncio.ensure_future(self._run(kind, message, handler))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        if kind not in _BACKGROUND:
            await task

    async def _run(self, kind: str, message: dict[str, Any], handler: _Handler) -> None:
        try:
            data = await handler(self, message)
        except (KeyError, TypeError, ValueError) as exc:
            self.respond(kind, message.get("id"), error=f"{type(exc).__name__}: {exc}")
        except Exception as exc:
            self.respond(kind, message.get("id"), error=f"{type(exc).__name__}: {exc}")
        else:
            self.respond(kind, message.get("id"), data)


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
    s.agent.abort()
    return None


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
#: Commands that may wait on the host (hook UI), so reading must go on meanwhile.
_BACKGROUND = frozenset(
    {
        "prompt",
        "command",
        "branch",
        "new_session",
        "switch_session",
        "fork",
        "navigate_tree",
        "compact",
        "bash",
    }
)


async def run_rpc(agent: Agent, make_provider: Callable[[str], Any] | None = None) -> int:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    return await RpcServer(agent, make_provider).serve(reader)
