"""Running MCP servers for a session and offering their tools as hookline tools.

Each server is held open by a task of its own (the SDK's client is an async
context that must be entered and left in one task). Its tools become ``Tool``
objects named ``mcp__<server>__<tool>``, so they pass through the same
pipeline as the built-ins: ``tool_call``/``tool_result`` hooks, settings hooks
with ``mcp__…`` matchers, permission rules. A server that fails to start, or
dies later, is reported through ``on_problem`` and its tools go away
(``on_change``); nothing raises into the agent. A stdio server's stderr goes to
a file, never to the terminal, and its last lines are quoted when it fails.

What a server announces on its own (log messages from ``info`` up, list
changes, progress, its custom notifications) reaches ``on_notification`` as
``(server, method, params)``, in the order sent;
``notifications/tools/list_changed`` first refreshes that server's tools, and a
call the server answers after announcing a change returns once the new list
is in. On 2026-07-28 connections list changes are only sent to a
``subscriptions/listen`` stream, so one is kept open.
``call_hook_tool`` is the ``claude.mcp_hook.McpToolCaller`` that ``mcp_tool``
settings hooks call through.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import inspect
import json
import logging
import os
import tempfile
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TextIO

from hookline.claude.mcp_hook import McpToolReply, McpToolUnavailable
from hookline.core.messages import Content, text
from hookline.core.tool import Tool, ToolError, ToolResult, ToolUpdate
from hookline.mcp.config import McpServerConfig, tool_name
from hookline.tools.truncation import truncate_head

#: Seconds to wait for a server to start and list its tools (``MCP_TIMEOUT``, in ms).
DEFAULT_CONNECT_TIMEOUT = 30.0
#: JSON-RPC error code the SDK uses when the server's connection is gone.
_CONNECTION_CLOSED = -32000
#: Seconds a tool call may take (``MCP_TOOL_TIMEOUT``, in ms).
DEFAULT_CALL_TIMEOUT = 600.0
#: Server notifications waiting to be delivered; past this the oldest are dropped.
_INBOX_SIZE = 1000
_TOOLS_CHANGED = "notifications/tools/list_changed"

log = logging.getLogger("hookline.mcp")

#: ``(server, method, params)`` of one server notification; may be async.
NotificationListener = Callable[[str, str, "dict[str, Any] | None"], "Awaitable[None] | None"]


def _seconds_from_env(name: str, default: float) -> float:
    try:
        value = float(os.environ[name]) / 1000
    except (KeyError, ValueError):
        return default
    return value if value > 0 else default


@dataclass
class ServerStatus:
    """What ``/mcp``-style listings show: state, tools, and the error when it failed."""

    name: str
    origin: str
    state: str = "pending"  # pending | connected | failed | stopped
    tools: list[str] = field(default_factory=list)
    error: str | None = None


@dataclass(frozen=True, slots=True)
class _Notice:
    """One queued server notification; ``refresh`` is the tools refresh it started."""

    method: str
    params: dict[str, Any] | None
    refresh: asyncio.Future[None] | None = None


class _Server:
    """One server: a task that holds the client open until ``stop``."""

    def __init__(self, config: McpServerConfig, cwd: str, owner: McpServers) -> None:
        self.config = config
        self.cwd = cwd
        self.owner = owner
        self.status = ServerStatus(config.name, config.origin)
        self.client: Any = None
        self.tools: list[Tool] = []
        self.remote_tools: frozenset[str] = frozenset()  # the names the server listed
        self.ready = asyncio.Event()
        self._inbox: asyncio.Queue[_Notice] = asyncio.Queue(_INBOX_SIZE)
        #: The latest tools refresh (each waits for the one before it).
        self._refresh: asyncio.Future[None] | None = None
        self._stop = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._errlog: TextIO | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name=f"mcp:{self.config.name}")

    def _transport(self) -> Any:
        if self.config.transport == "stdio":
            from mcp import StdioServerParameters
            from mcp.client.stdio import stdio_client

            # Closed when the server's task ends; a context manager cannot span the task.
            self._errlog = tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace")  # noqa: SIM115
            params = StdioServerParameters(
                command=self.config.command,
                args=list(self.config.args),
                env={**os.environ, **self.config.env},
                cwd=self.cwd,
                encoding_error_handler="replace",
            )
            return stdio_client(params, errlog=self._errlog)
        from mcp.client.streamable_http import streamable_http_client
        from mcp.shared._httpx_utils import create_mcp_http_client

        client = create_mcp_http_client(headers=dict(self.config.headers))
        return streamable_http_client(self.config.url, http_client=client)

    async def _run(self) -> None:
        try:
            try:
                from mcp import Client
            except ImportError:
                from hookline._extras import install_hint

                raise RuntimeError("the mcp SDK is not installed: " + install_hint("mcp")) from None
            transport = self._transport()
            async with Client(
                transport, mode="auto", message_handler=self._on_message, log_level="info"
            ) as client:
                self.client = client
                self._set_tools(await self._list_tools(client))
                self.status.state = "connected"
                self.ready.set()
                helpers: list[asyncio.Future[None]] = [
                    asyncio.create_task(self._listen(client)),
                    asyncio.create_task(self._deliver()),
                ]
                try:
                    await self._stop.wait()
                finally:
                    if self._refresh is not None:
                        helpers.append(self._refresh)
                    for helper in helpers:
                        helper.cancel()
                    await asyncio.gather(*helpers, return_exceptions=True)
        except BaseException as exc:
            self._failed(exc)
            if isinstance(exc, asyncio.CancelledError) and not self._stop.is_set():
                raise
        finally:
            self.client = None
            self.tools = []
            self.ready.set()
            if self.status.state == "connected":
                self.status.state = "stopped"
            if self._errlog is not None:
                self._errlog.close()
            self.owner._changed()

    def _set_tools(self, listed: tuple[list[Tool], frozenset[str]]) -> None:
        self.tools, self.remote_tools = listed
        self.status.tools = [t.name for t in self.tools]

    async def _list_tools(self, client: Any) -> tuple[list[Tool], frozenset[str]]:
        tools: list[Tool] = []
        names: set[str] = set()
        cursor = None
        while True:
            listed = await client.list_tools(cursor=cursor)
            for spec in listed.tools:
                names.add(spec.name)
                name = tool_name(self.config, spec.name)
                if name is None:
                    self.owner._problem(
                        f"MCP server {self.config.name}: tool {spec.name!r} "
                        "is left out: its full name is over 128 characters"
                    )
                    continue
                tools.append(self._tool(name, spec))
            cursor = listed.next_cursor
            if not cursor:
                return tools, frozenset(names)

    async def _on_message(self, message: Any) -> None:
        """The SDK's message handler: queue a server notification (transport faults are
        the SDK's to report); a tools change starts a refresh at once. Never awaits the
        server: the SDK may call this inline while it reads."""
        method = getattr(message, "method", None)
        if isinstance(message, Exception) or not isinstance(method, str):
            return
        params = getattr(message, "params", None)
        data = params.model_dump(by_alias=True, mode="json", exclude_none=True) if params else None
        refresh = None
        if method == _TOOLS_CHANGED and self.client is not None:
            refresh = self._refresh = asyncio.ensure_future(
                self._refresh_tools(self.client, self._refresh)
            )
        if self._inbox.full():
            self._inbox.get_nowait()
            log.warning("MCP server %s: notification backlog full, dropped the oldest", self.name)
        self._inbox.put_nowait(_Notice(method, data, refresh))

    @property
    def name(self) -> str:
        return self.config.name

    async def _deliver(self) -> None:
        """Hand queued notifications on in order; a tools change once its refresh is done."""
        while True:
            notice = await self._inbox.get()
            if notice.refresh is not None:
                with contextlib.suppress(Exception):
                    await asyncio.shield(notice.refresh)
            await self.owner._notify(self.name, notice.method, notice.params)

    async def settled(self) -> None:
        """Wait for a tools refresh under way: a call whose server changed its tools
        while answering returns once the new list is in."""
        refresh = self._refresh
        if refresh is not None and not refresh.done():
            with contextlib.suppress(Exception):
                await asyncio.shield(refresh)

    async def _refresh_tools(self, client: Any, previous: asyncio.Future[None] | None) -> None:
        if previous is not None and not previous.done():
            with contextlib.suppress(Exception):
                await asyncio.shield(previous)
        try:
            listed = await asyncio.wait_for(self._list_tools(client), self.owner.connect_timeout)
            self._set_tools(listed)
        except Exception as exc:
            if _connection_lost(exc):
                self._lost(exc)
                return
            self.owner._problem(
                f"MCP server {self.name}: its tools changed but could not be listed again: "
                f"{_describe(exc)}; the previous list stays"
            )
            return
        self.owner._changed()

    async def _listen(self, client: Any) -> None:
        """Keep a ``subscriptions/listen`` stream open (2026-07-28 connections send list
        changes nowhere else); each event also reaches ``_on_message``."""
        try:
            async with client.listen(
                tools_list_changed=True, prompts_list_changed=True, resources_list_changed=True
            ) as subscription:
                async for _ in subscription:
                    pass
        except Exception as exc:  # older protocol, or a server that does not serve it
            log.debug("MCP server %s: no change subscription: %s", self.name, _describe(exc))

    def _failed(self, exc: BaseException) -> None:
        if self._stop.is_set() and self.status.state != "pending":
            return
        reason = _describe(exc) + self._stderr_tail()
        was = self.status.state
        self.status.state, self.status.error = "failed", reason
        when = "failed to start" if was == "pending" else "stopped"
        self.owner._problem(
            f"MCP server {self.config.name} ({self.config.origin}) {when}: {reason}; "
            "its tools are removed"
        )

    def _lost(self, exc: BaseException) -> None:
        """The connection closed under a call (the process died): report it once and leave
        the client's context, which takes the tools away."""
        if self.status.state == "connected" and not self._stop.is_set():
            self._failed(exc)
            self._stop.set()

    def _stderr_tail(self) -> str:
        if self._errlog is None or self._errlog.closed:
            return ""
        with contextlib.suppress(OSError, ValueError):
            self._errlog.seek(0)
            lines = self._errlog.read()[-2000:].strip().splitlines()[-3:]
            if lines:
                return " — stderr: " + " | ".join(lines)
        return ""

    def _tool(self, name: str, spec: Any) -> Tool:
        server, remote = self, spec.name

        async def execute(
            tool_call_id: str,
            params: dict[str, Any],
            signal: asyncio.Event | None = None,
            on_update: ToolUpdate | None = None,
        ) -> ToolResult:
            return await server.call(remote, params, signal)

        schema = spec.input_schema if isinstance(spec.input_schema, dict) else {}
        return Tool(
            name,
            spec.description or f"{remote} (MCP server {self.config.name})",
            schema or {"type": "object", "properties": {}},
            execute,
            label=f"{self.config.name}: {remote}",
        )

    async def call(
        self, remote: str, params: dict[str, Any], signal: asyncio.Event | None
    ) -> ToolResult:
        client = self.client
        if client is None:
            raise ToolError(
                f"MCP server {self.config.name} is not running"
                + (f" ({self.status.error})" if self.status.error else "")
            )
        call = asyncio.ensure_future(client.call_tool(remote, params))
        waits: set[asyncio.Future[Any]] = {call}
        aborted = asyncio.ensure_future(signal.wait()) if signal is not None else None
        if aborted is not None:
            waits.add(aborted)
        try:
            done, _ = await asyncio.wait(
                waits, timeout=self.owner.call_timeout, return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            if aborted is not None:
                aborted.cancel()
        if call not in done:
            call.cancel()
            why = "aborted" if aborted is not None and aborted in done else "timed out"
            raise ToolError(f"{self.name_of(remote)}: {why}")
        try:
            result = call.result()
        except Exception as exc:  # a closed connection, a protocol error
            if _connection_lost(exc):
                self._lost(exc)
            raise ToolError(f"{self.name_of(remote)}: {_describe(exc)}") from None
        await self.settled()
        return _result(self.config.name, remote, result)

    def name_of(self, remote: str) -> str:
        return tool_name(self.config, remote) or remote

    async def call_for_hook(self, tool: str, arguments: dict[str, Any]) -> McpToolReply:
        """Call ``tool`` for an ``mcp_tool`` hook: its text as Claude Code builds it."""
        client = self.client
        if client is None or self.status.state != "connected":
            why = f" ({self.status.error})" if self.status.error else ""
            raise McpToolUnavailable(f"MCP server {self.name!r} is not connected{why}")
        if tool not in self.remote_tools:
            raise McpToolUnavailable(f"MCP server {self.name!r} has no tool {tool!r}")
        try:
            result = await client.call_tool(tool, arguments)
        except Exception as exc:
            if _connection_lost(exc):
                self._lost(exc)
                raise McpToolUnavailable(
                    f"MCP server {self.name!r} went away during the call: {_describe(exc)}"
                ) from None
            raise RuntimeError(_describe(exc)) from None
        await self.settled()
        parts = [
            block.text if getattr(block, "type", "") == "text" else f"[{block.type}]"
            for block in result.content
        ]
        return McpToolReply("\n".join(parts), bool(result.is_error))

    async def stop(self) -> None:
        self._stop.set()
        if self._task is not None:
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(asyncio.shield(self._task), 10)
            if not self._task.done():
                self._task.cancel()
                with contextlib.suppress(BaseException):
                    await self._task


def _connection_lost(exc: BaseException) -> bool:
    """True for the SDK's "connection closed" error and anyio's closed-stream errors."""
    if getattr(getattr(exc, "error", None), "code", None) == _CONNECTION_CLOSED:
        return True
    return type(exc).__name__ in ("ClosedResourceError", "BrokenResourceError", "EndOfStream")


def _describe(exc: BaseException) -> str:
    """The innermost useful message of an exception (the SDK wraps errors in groups)."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    message = str(exc).strip()
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__


def _result(server: str, remote: str, result: Any) -> ToolResult:
    """An MCP ``CallToolResult`` as tool content; ``is_error`` becomes a ``ToolError``."""
    content: list[Content] = []
    for block in result.content:
        kind = getattr(block, "type", "")
        if kind == "text":
            content.append(text(block.text))
        elif kind == "image":
            content.append({"type": "image", "data": block.data, "mime_type": block.mime_type})
        elif kind == "resource":
            resource = block.resource
            body = getattr(resource, "text", None)
            if body is None:
                size = len(base64.b64decode(getattr(resource, "blob", "") or ""))
                body = f"[binary resource {resource.uri}, {size} bytes]"
            content.append(text(body))
        elif kind == "resource_link":
            content.append(text(f"[resource {block.uri}]"))
        else:
            content.append(text(f"[{kind or 'unknown'} content]"))
    structured = getattr(result, "structured_content", None)
    if not content and structured is not None:
        content.append(text(json.dumps(structured, ensure_ascii=False)))
    joined = "\n".join(c["text"] for c in content if c["type"] == "text")
    details = {"server": server, "tool": remote, "structured_content": structured}
    if result.is_error:
        raise ToolError(joined or f"{remote} failed", details)
    shown, trunc = truncate_head(joined)
    if trunc["truncated"]:
        content = [text(shown), *(c for c in content if c["type"] != "text")]
        details["truncation"] = trunc
    return ToolResult(content or [text("(no output)")], details)


class McpServers:
    """The session's MCP servers: started together, their tools, stopped together."""

    def __init__(
        self,
        configs: list[McpServerConfig],
        *,
        cwd: str,
        on_problem: Callable[[str], None] | None = None,
        on_change: Callable[[], None] | None = None,
        on_notification: NotificationListener | None = None,
        connect_timeout: float | None = None,
        call_timeout: float | None = None,
    ) -> None:
        self._servers = [_Server(c, cwd, self) for c in configs]
        self._on_problem = on_problem
        self._on_change = on_change
        self.on_notification = on_notification
        self.problems: list[str] = []
        self.connect_timeout = connect_timeout or _seconds_from_env(
            "MCP_TIMEOUT", DEFAULT_CONNECT_TIMEOUT
        )
        self.call_timeout = call_timeout or _seconds_from_env(
            "MCP_TOOL_TIMEOUT", DEFAULT_CALL_TIMEOUT
        )
        self._started = False

    async def start(self) -> None:
        """Start every server and wait until each is connected, failed or timed out."""
        if self._started:
            return
        self._started = True
        for server in self._servers:
            server.start()
        waits = [asyncio.wait_for(s.ready.wait(), self.connect_timeout) for s in self._servers]
        results = await asyncio.gather(*waits, return_exceptions=True)
        for server, outcome in zip(self._servers, results, strict=True):
            if isinstance(outcome, asyncio.TimeoutError) and server.status.state == "pending":
                server.status.state = "failed"
                server.status.error = f"no answer within {self.connect_timeout:g} s"
                self._problem(
                    f"MCP server {server.config.name} ({server.config.origin}) failed to "
                    f"start: {server.status.error}; its tools are removed"
                )
                await server.stop()

    def tools(self) -> list[Tool]:
        """The tools of every connected server, in configuration order (a server seen to
        die is left out at once, before its task has finished closing)."""
        return [
            tool
            for server in self._servers
            if server.status.state == "connected"
            for tool in server.tools
        ]

    def status(self) -> list[ServerStatus]:
        return [server.status for server in self._servers]

    async def call_hook_tool(
        self, server: str, tool: str, arguments: dict[str, Any]
    ) -> McpToolReply:
        """``McpToolCaller`` for ``mcp_tool`` hooks: ``tool`` of the server named ``server``."""
        for candidate in self._servers:
            if candidate.name == server:
                return await candidate.call_for_hook(tool, arguments)
        raise McpToolUnavailable(f"MCP server {server!r} is not configured in this session")

    async def close(self) -> None:
        """Stop every server (stdio processes end with their pipes closed)."""
        await asyncio.gather(*(s.stop() for s in self._servers), return_exceptions=True)

    def _problem(self, message: str) -> None:
        self.problems.append(message)
        if self._on_problem is not None:
            self._on_problem(message)

    def _changed(self) -> None:
        if self._on_change is not None:
            self._on_change()

    async def _notify(self, server: str, method: str, params: dict[str, Any] | None) -> None:
        listener = self.on_notification
        if listener is None:
            return
        try:
            result = listener(server, method, params)
            if inspect.isawaitable(result):
                await result
        except Exception:
            log.exception("MCP notification listener failed (%s %s)", server, method)
