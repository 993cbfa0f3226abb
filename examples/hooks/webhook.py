"""HTTP webhook: a POST to a loopback port becomes a prompt for the agent.

The Python version of pi's "HTTP webhook" example. At ``session_start`` the
hook listens on ``127.0.0.1`` only (never on other interfaces), port
``$HOOKLINE_WEBHOOK_PORT`` (default 3333; ``0`` picks a free one, shown in
the notification). Each ``POST`` body (at most 64 KB) is sent as a user prompt
with ``pi.send``; an empty body sends "Webhook triggered". When
``$HOOKLINE_WEBHOOK_TOKEN`` is set, a request must carry it in the
``X-Webhook-Token`` header, else it is refused with 403. The server closes at
``session_shutdown``.

Try it: ``curl -X POST http://127.0.0.1:3333 -d "CI build failed"``.
"""

from __future__ import annotations

import asyncio
import hmac
import os

from hookline import HookAPI, HookContext, SessionShutdownEvent, SessionStartEvent

HOST = "127.0.0.1"
MAX_BODY = 64 * 1024


async def _read_request(reader: asyncio.StreamReader) -> tuple[str, dict[str, str], bytes]:
    """The method, lower-cased headers and body of one HTTP/1.1 request."""
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout=10)
    lines = head.decode("latin-1").split("\r\n")
    method = lines[0].split(" ", 1)[0]
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if name:
            headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", "0") or 0)
    if length > MAX_BODY:
        raise ValueError("body too large")
    body = await asyncio.wait_for(reader.readexactly(length), timeout=10) if length else b""
    return method, headers, body


def _reply(writer: asyncio.StreamWriter, status: str, text: str) -> None:
    data = text.encode()
    writer.write(
        f"HTTP/1.1 {status}\r\nContent-Length: {len(data)}\r\nConnection: close\r\n\r\n".encode()
        + data
    )


def register(pi: HookAPI) -> None:
    servers: list[asyncio.Server] = []

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            method, headers, body = await _read_request(reader)
            token = os.environ.get("HOOKLINE_WEBHOOK_TOKEN")
            given = headers.get("x-webhook-token", "")
            if token and not hmac.compare_digest(given.encode(), token.encode()):
                _reply(writer, "403 Forbidden", "bad token")
            elif method != "POST":
                _reply(writer, "405 Method Not Allowed", "POST only")
            else:
                pi.send(body.decode("utf-8", "replace").strip() or "Webhook triggered")
                _reply(writer, "200 OK", "OK")
        except (ValueError, OSError, asyncio.IncompleteReadError, TimeoutError):
            _reply(writer, "400 Bad Request", "bad request")
        finally:
            writer.close()

    @pi.on("session_start")
    async def start(event: SessionStartEvent, ctx: HookContext) -> None:
        if servers:
            return
        port = int(os.environ.get("HOOKLINE_WEBHOOK_PORT", "3333"))
        server = await asyncio.start_server(handle, HOST, port)
        servers.append(server)
        bound = server.sockets[0].getsockname()[1]
        ctx.ui.notify(f"Webhook listening on http://{HOST}:{bound}", "info")

    @pi.on("session_shutdown")
    async def stop(event: SessionShutdownEvent, ctx: HookContext) -> None:
        while servers:
            server = servers.pop()
            server.close()
            await server.wait_closed()
