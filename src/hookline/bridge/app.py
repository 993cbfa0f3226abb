"""``HookApp``: ``hookline serve --http`` as a plain ASGI application.

Routes (every one refuses a request a web page could send, see ``Guard``):

- ``POST /pi``: a pi event request (``{"id", "type", "data"}``), answered as
  ``hookline serve --stdio`` answers it (``{"id", "result"}`` or ``{"id", "error"}``).
- ``POST /reload``: read the token file and load the hook modules again (``reload``).
- ``POST`` on any other path: a Claude Code hook input (an ``http`` hook, or the
  command-hook bridge); the body of the reply is the decision JSON (200), or the
  answer's stderr with status 500 when the hooks failed without deciding (Claude
  Code shows it as a non-blocking error).
- ``GET /healthz`` (``/health``): the process answers; ``GET /readyz``: its hooks are
  loaded; ``GET /metrics``: the Prometheus text, when the ``serve`` extra is installed.

Every ``POST`` and ``/metrics`` need a token when tokens are set. A request that
cannot be answered (a body over the limit, input that is not JSON, an error here)
is answered with a deny Claude Code reads: never a status that lets the call run.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import signal
import sys
from collections.abc import Awaitable, Callable, Coroutine, MutableMapping
from typing import Any, cast

from hookline._extras import install_hint
from hookline.bridge._help import say
from hookline.bridge.guard import Guard, request_headers
from hookline.bridge.mapping import MAX_INPUT, unknown_event_answer
from hookline.bridge.service import HookService, HookSource, Reload, pi_refusal
from hookline.core.driver import Resume

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

#: Request bodies larger than this are refused unread: Claude's are a few KB.
MAX_BODY = MAX_INPUT
#: How long a request body may take to arrive: a client that stalls is answered (and a
#: shutdown, which waits for the requests in flight, is not held up by it).
BODY_SECONDS = 10.0
_JSON = b"application/json"
_TEXT = b"text/plain; charset=utf-8"


class _Unread(Exception):
    """The request body is over ``MAX_BODY``, or did not arrive in time."""


class HookApp:
    """The ASGI app; each process it runs in loads ``source`` itself at start-up."""

    def __init__(self, source: HookSource, guard: Guard) -> None:
        self.source = source
        self.guard = guard
        self._service: HookService | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
        elif scope["type"] == "http":
            await _Exchange(self, scope, receive, send).run()

    @property
    def service(self) -> HookService | None:
        """The loaded hooks; ``None`` until start-up has loaded them."""
        return self._service

    async def reload(self) -> tuple[Reload, str]:
        """Read the token file again and reload the hook modules (``POST /reload``,
        ``SIGHUP``): what the reload did, and what became of the tokens (``""``: no file)."""
        if self._service is None:  # uvicorn serves no request before start-up is complete
            raise RuntimeError("the hook modules are not loaded")
        tokens = self.guard.refresh()
        if tokens:
            say(f"{tokens} (pid {os.getpid()})")
        result = await self._service.reload()
        gc.freeze()  # the new modules too (see _start)
        return result, tokens

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                try:
                    self._start()
                except Exception as exc:
                    await send({"type": "lifespan.startup.failed", "message": repr(exc)})
                    return
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                if self._service is not None:
                    await self._service.close()
                await send({"type": "lifespan.shutdown.complete"})
                return

    def _start(self) -> None:
        from hookline.modes.stdout import claim_stdout

        claim_stdout()  # hooks' print() goes to stderr, never to a stdout someone reads
        # No bytecode cached for hook modules: a .pyc is checked by the source's mtime in
        # whole seconds and its size, so an edit within the second of the last load,
        # of the same size, would reload the old code.
        sys.dont_write_bytecode = True
        service = HookService(self.source, say)
        service.start()
        self._service = service
        # What start-up loaded lives as long as the process: kept out of the collector's
        # full passes, which would otherwise walk it all (over 10 ms) now and then under load.
        gc.freeze()
        reloads: set[asyncio.Task[Any]] = set()

        def reload() -> None:  # SIGHUP: the supervisor forwards it to every worker
            task = asyncio.get_running_loop().create_task(self.reload())
            reloads.add(task)
            task.add_done_callback(reloads.discard)

        asyncio.get_running_loop().add_signal_handler(signal.SIGHUP, reload)
        say(f"worker {os.getpid()} ready")


class _Exchange:
    """One HTTP request and its one answer."""

    def __init__(self, app: HookApp, scope: Scope, receive: Receive, send: Send) -> None:
        self.app = app
        self.scope = scope
        self.receive = receive
        self._send = send
        self.started = False
        self.headers = request_headers(scope.get("headers", ()))

    async def run(self) -> None:
        try:
            await self._route()
        except Exception as exc:  # never close without an answer: the call would run
            if self.started:
                raise
            reason = f"no answer could be made ({exc!r:.200})"
            if self.scope["path"] == "/pi":  # in pi's shape: a deny of Claude's would be no block
                body = json.dumps(pi_refusal(None, None, reason)).encode()
                say(reason)
            else:
                answer = unknown_event_answer(reason)
                body = json.dumps(dict(answer.output)).encode()
                say(answer.stderr)
            await self.reply(200, body, _JSON, close=True)

    async def _route(self) -> None:
        method, path = self.scope["method"], self.scope["path"]
        guard = self.app.guard
        refused = guard.refusal(self.headers)
        if refused:
            await self.reply(403, refused.encode(), _TEXT)
        elif method == "GET" and path in ("/healthz", "/health"):
            await self.reply(200, b"ok\n", _TEXT)
        elif method == "GET" and path == "/readyz":
            await self._ready()
        elif method == "GET" and path == "/metrics":
            if guard.authorized(self.headers):
                await self._metrics()
            else:
                await self._unauthorized()
        elif method != "POST":
            await self.reply(405, b"POST the hook input JSON\n", _TEXT)
        elif not guard.authorized(self.headers):
            await self._unauthorized()
        elif path == "/reload":
            result, tokens = await self.app.reload()
            said = {"reloaded": result.ok, "message": result.message, "tokens": tokens}
            body = json.dumps(said).encode()
            await self.reply(200 if result.ok else 500, body, _JSON)
        elif path == "/pi":
            await self._pi()
        else:
            await self._claude()

    async def _claude(self) -> None:
        try:
            body = await self._body()
        except _Unread as exc:  # a 413 or 408 would be a non-blocking error: the tool runs
            answer = unknown_event_answer(f"hook input {exc}")
            await self.reply(200, json.dumps(dict(answer.output)).encode(), _JSON)
            return
        answer = await self._service().answer_claude(body)
        if answer.exit_code == 1 and not answer.output:
            await self.reply(500, answer.stderr.encode(), _TEXT)
        else:
            await self.reply(200, json.dumps(dict(answer.output)).encode(), _JSON)
        if answer.stderr:
            say(answer.stderr)

    async def _pi(self) -> None:
        try:
            body = await self._body()
        except _Unread as exc:
            refusal = pi_refusal(None, None, f"request {exc}")
            await self.reply(200, json.dumps(refusal).encode(), _JSON)
            return
        from hookline.modes.print_mode import dumps  # as serve --stdio writes its answers

        answer = await self._service().answer_pi(body)
        # A lone surrogate (a file name read with surrogateescape) cannot be UTF-8: written
        # as its JSON escape, which is what it is inside a JSON string.
        await self.reply(200, dumps(answer).encode("utf-8", "backslashreplace"), _JSON)

    async def _ready(self) -> None:
        """Ready or not for any probe; why, and which modules failed to load, only for a
        token holder (a load error names files and may quote what the module held)."""
        service = self.app.service
        problems = service.unready() if service is not None else ["starting"]
        body: dict[str, Any] = {"ready": not problems}
        if self.app.guard.authorized(self.headers):
            errors = service.load_errors() if service is not None else []
            body.update(problems=problems, load_errors=errors)
        await self.reply(503 if problems else 200, json.dumps(body).encode(), _JSON)

    async def _metrics(self) -> None:
        from hookline.bridge.metrics import metrics_response

        found = metrics_response()
        if found is None:
            hint = "metrics need the serve extra: " + install_hint("serve") + "\n"
            await self.reply(404, hint.encode(), _TEXT)
        else:
            body, kind = found
            await self.reply(200, body, kind.encode("latin-1"))

    def _service(self) -> HookService:
        service = self.app.service
        if service is None:  # uvicorn serves no request before start-up is complete
            raise RuntimeError("the hook modules are not loaded")
        return service

    async def _unauthorized(self) -> None:
        await self.reply(401, b"missing or wrong bearer token\n", _TEXT)

    async def _body(self) -> bytes:
        """The request body, or ``_Unread`` once it is over ``MAX_BODY`` or has taken longer
        than ``BODY_SECONDS``. The answer goes out at once; the server reads and drops
        what the client still sends until its keep-alive timeout, so the client can read
        the answer."""
        declared = self.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > MAX_BODY:
            raise _Unread(f"larger than {MAX_BODY} bytes")
        return await self._read(MAX_BODY, asyncio.get_running_loop().time() + BODY_SECONDS)

    async def _read(self, limit: int, deadline: float) -> bytes:
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await self._message(deadline)
            if message["type"] != "http.request":
                raise ConnectionError("the client went away")
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                raise _Unread(f"larger than {limit} bytes")
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)

    async def _message(self, deadline: float) -> Message:
        """The next ASGI message, or ``_Unread`` past ``deadline``. A body that has arrived
        (nearly every one) is taken without a timer: one per request costs under load."""
        steps = self.receive().__await__()
        try:
            waiting = steps.send(None)
        except StopIteration as arrived:
            message: Message = arrived.value
            return message
        try:
            async with asyncio.timeout_at(deadline):
                return cast(
                    Message, await Resume(cast(Coroutine[Any, Any, Message], steps), waiting)
                )
        except TimeoutError:
            raise _Unread(f"not received within {BODY_SECONDS:g} s") from None

    async def reply(self, status: int, body: bytes, kind: bytes, close: bool = False) -> None:
        headers = [(b"content-type", kind), (b"content-length", str(len(body)).encode())]
        if close:
            headers.append((b"connection", b"close"))
        self.started = True
        await self._send({"type": "http.response.start", "status": status, "headers": headers})
        await self._send({"type": "http.response.body", "body": body})
