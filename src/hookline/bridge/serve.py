"""``hookline serve``: hook modules loaded once, answering Claude Code hook inputs.

``--http HOST:PORT`` answers Claude Code's ``http`` hooks (POST the hook
input, the body of the reply is read like a command hook's stdout);
``--stdio`` answers JSON lines (``{"id", "input"}`` → ``{"id", "exit_code",
"output", "stderr"}``). Hooks keep their state between events and no process
starts per event. ``hookline serve --stdio`` itself is the CLI's: it answers
pi's events too (``hookline.modes.serve_stdio``) and hands Claude Code lines
to ``claude_lines`` over the same loaded hooks (``share_bridge``).

Safety: the HTTP server binds loopback unless ``--allow-remote`` is given
(and then a token is required); with a token (``--token`` or
``HOOKLINE_SERVE_TOKEN``) every request must carry ``Authorization: Bearer
TOKEN``, compared in constant time. A web page in the user's browser can
reach loopback too, so a request with an ``Origin`` header (browsers send
one, Claude Code does not) is refused, and on loopback so is a ``Host`` that
does not name it (DNS rebinding).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import hmac
import ipaddress
import json
import os
import sys
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from hookline.bridge._help import Formatter, positive_seconds
from hookline.bridge.engine import BridgeHooks, load_bridge
from hookline.bridge.mapping import (
    MAX_INPUT,
    BridgeInputError,
    ClaudeAnswer,
    input_failure,
    parse_input,
    unknown_event_answer,
)
from hookline.bridge.worker import AnswerWorker
from hookline.core.runner import DEFAULT_HOOK_TIMEOUT
from hookline.core.store import StoreConfigError, process_backend
from hookline.modes.rpc.wire import LineTooLong

#: The environment variable a token may come from (keeps it out of ``ps``).
TOKEN_ENV = "HOOKLINE_SERVE_TOKEN"
#: Hook inputs larger than this are denied unread: Claude's are a few KB.
MAX_BODY = MAX_INPUT
_MAX_HEADER_LINES = 100
#: How long the rest of an oversized body is read (and dropped) after its answer.
_DRAIN_SECONDS = 10.0
_JSON = "application/json"
_REASONS = {
    200: "OK",
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    405: "Method Not Allowed",
    411: "Length Required",
    413: "Payload Too Large",
    431: "Request Header Fields Too Large",
    500: "Internal Server Error",
}


class ServeError(ValueError):
    """Options ``hookline serve`` refuses; the message says what to do."""


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        formatter_class=Formatter,
        prog="hookline serve",
        description=(
            "Keep hookline's hook modules loaded and answer Claude Code hook inputs with the "
            "same mapping as `hookline claude-hook`: over HTTP (Claude Code `http` hooks) or "
            "JSON lines on stdin/stdout."
        ),
    )
    how = p.add_mutually_exclusive_group(required=True)
    how.add_argument(
        "--http",
        metavar="HOST:PORT",
        help="listen for POSTed hook inputs (port 0 picks a free port; the address is printed; "
        f"PORT alone listens on {DEFAULT_HOST})",
    )
    how.add_argument(
        "--stdio",
        action="store_true",
        help='JSON lines: {"id": ..., "input": {hook input}} in, '
        '{"id", "exit_code", "output", "stderr"} out; lines with "type" and "data" are '
        "pi's events (integrations/pi/hookline.ts), answered by hookline's agent",
    )
    p.add_argument(
        "--token",
        default=None,
        help=f"require `Authorization: Bearer TOKEN` (default: ${TOKEN_ENV} when set)",
    )
    p.add_argument(
        "--allow-remote",
        action="store_true",
        help="allow binding a non-loopback address (a token is then required)",
    )
    p.add_argument(
        "--hook",
        dest="hooks",
        action="append",
        default=[],
        metavar="PATH",
        help="a hook module file or folder (repeatable)",
    )
    p.add_argument(
        "--no-discovery", action="store_true", help="load only --hook paths (see claude-hook)"
    )
    p.add_argument(
        "--trust-project",
        action="store_true",
        help="load the project's .hookline/hooks even when `hookline trust` was not run",
    )
    p.add_argument(
        "--allow-untrusted-skip",
        action="store_true",
        help="in a project that was not trusted, skip its .hookline/hooks and let tool calls "
        "through (said once on stderr). Without it such calls are denied until you run "
        "`hookline trust DIR`. Risk: the project's guards are off and nothing blocks",
    )
    p.add_argument(
        "--timeout",
        type=positive_seconds,
        default=DEFAULT_HOOK_TIMEOUT,
        metavar="SECONDS",
        help="deny (PreToolUse, PermissionRequest) or answer an error when the hooks have not "
        f"answered an event within SECONDS (default {DEFAULT_HOOK_TIMEOUT:g}); keep it below "
        "the hook's `timeout` in Claude Code's settings",
    )
    return p


#: Where ``--http PORT`` (or ``:PORT``) listens: loopback unless a host is named.
DEFAULT_HOST = "127.0.0.1"


def parse_address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:PORT`` for IPv6), ``:PORT`` or ``PORT`` → ``(host, port)``.

    Without a host it is loopback; ``ServeError`` when the text is not an address.
    """
    host, _, port = text.rpartition(":")
    if not port.isdigit() or int(port) > 65535 or (host.startswith("[") != host.endswith("]")):
        raise ServeError(f"--http {text!r}: expected HOST:PORT or PORT, e.g. 127.0.0.1:8377")
    return host.removeprefix("[").removesuffix("]") or DEFAULT_HOST, int(port)


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback addresses; hostnames are never trusted."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_bind(host: str, token: str | None, allow_remote: bool) -> None:
    """Refuse a non-loopback bind unless asked for, and then never without a token."""
    if is_loopback(host):
        return
    if not allow_remote:
        raise ServeError(
            f"refusing to listen on {host}: not a loopback address (anyone who reaches it "
            "could steer your hooks); use 127.0.0.1, or pass --allow-remote with a --token"
        )
    if not token:
        raise ServeError(f"--allow-remote on {host} needs a token: --token or ${TOKEN_ENV}")


# -- HTTP -------------------------------------------------------------------------------


class _HttpError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class HookHttpServer:
    """A minimal HTTP/1.1 server (keep-alive, Content-Length bodies) for hook inputs.

    ``POST`` on any path is a hook input; the reply body is the answer's
    decision JSON (200), or the answer's stderr with status 500 when the
    hooks failed without deciding (Claude Code shows it as a non-blocking
    error). ``GET /health`` answers ``ok``. Unless ``remote`` (bound beyond
    loopback, behind a token), the ``Host`` must name a loopback address.
    """

    def __init__(
        self, worker: AnswerWorker, token: str | None = None, remote: bool = False
    ) -> None:
        self.worker = worker
        self.token = token
        self.remote = remote

    async def start(self, host: str, port: int) -> asyncio.Server:
        return await asyncio.start_server(self._connection, host, port)

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                try:
                    keep = await self._one(reader, writer)
                except _HttpError as exc:
                    await self._send(writer, exc.status, exc.message.encode(), "text/plain", False)
                    return
                except (ConnectionError, asyncio.IncompleteReadError):
                    raise
                except Exception as exc:  # never close without an answer: the call would run
                    answer = unknown_event_answer(f"no answer could be made ({exc!r:.200})")
                    body = json.dumps(dict(answer.output)).encode()
                    await self._send(writer, 200, body, _JSON, False)
                    print(answer.stderr, file=sys.stderr, flush=True)
                    return
                if not keep:
                    return
        except (ConnectionError, asyncio.IncompleteReadError):
            return
        finally:
            writer.close()

    async def _one(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> bool:
        line = await reader.readline()
        if not line:
            return False
        parts = line.decode("latin-1").split()
        if len(parts) != 3 or not parts[2].startswith("HTTP/1."):
            raise _HttpError(400, "bad request line")
        method, path, version = parts
        headers = await _read_headers(reader)
        keep = headers.get("connection", "").lower() != "close" and version == "HTTP/1.1"
        if "transfer-encoding" in headers:
            raise _HttpError(411, "send the hook input with Content-Length")
        length = _content_length(headers)
        if length > MAX_BODY:  # a 413 would be a non-blocking error: Claude runs the tool
            answer = unknown_event_answer(f"hook input larger than {MAX_BODY} bytes")
            await self._send(writer, 200, json.dumps(dict(answer.output)).encode(), _JSON, False)
            await _discard(reader)
            return False
        body = await reader.readexactly(length) if length else b""
        refused = _refusal(headers, self.remote)
        if refused:
            await self._send(writer, 403, refused.encode(), "text/plain", keep)
            return keep
        if method == "GET" and path == "/health":
            await self._send(writer, 200, b"ok\n", "text/plain", keep)
            return keep
        if method != "POST":
            raise _HttpError(405, "POST the hook input JSON")
        if not self._authorized(headers):
            await self._send(writer, 401, b"missing or wrong bearer token\n", "text/plain", keep)
            return keep
        answer = await _answer_text(self.worker, body)
        if answer.exit_code == 1 and not answer.output:
            await self._send(writer, 500, answer.stderr.encode(), "text/plain", keep)
        else:
            payload = json.dumps(dict(answer.output)).encode()
            await self._send(writer, 200, payload, _JSON, keep)
        if answer.stderr:
            print(answer.stderr, file=sys.stderr, flush=True)
        return keep

    def _authorized(self, headers: dict[str, str]) -> bool:
        if not self.token:
            return True
        given = headers.get("authorization", "")
        expected = f"Bearer {self.token}"
        return hmac.compare_digest(given.encode(), expected.encode())

    async def _send(
        self, writer: asyncio.StreamWriter, status: int, body: bytes, kind: str, keep: bool
    ) -> None:
        head = (
            f"HTTP/1.1 {status} {_REASONS.get(status, 'Error')}\r\n"
            f"Content-Type: {kind}\r\nContent-Length: {len(body)}\r\n"
            f"Connection: {'keep-alive' if keep else 'close'}\r\n\r\n"
        )
        writer.write(head.encode("latin-1") + body)
        await writer.drain()


async def _read_headers(reader: asyncio.StreamReader) -> dict[str, str]:
    headers: dict[str, str] = {}
    for _ in range(_MAX_HEADER_LINES):
        line = await reader.readline()
        if line in (b"\r\n", b"\n", b""):
            return headers
        name, sep, value = line.decode("latin-1").partition(":")
        if not sep:
            raise _HttpError(400, "bad header line")
        headers[name.strip().lower()] = value.strip()
    raise _HttpError(431, "too many header lines")


def _refusal(headers: dict[str, str], remote: bool) -> str:
    """Why a request that may come from a web page is refused (``""``: it is not)."""
    if "origin" in headers:
        return "requests from a web page (an Origin header) are refused\n"
    if remote:
        return ""
    host = _host_name(headers.get("host", "").lower())
    if not is_loopback(host):
        shown = headers.get("host", "")[:100] or "none"
        return (
            f"Host {shown!r} is not a loopback address: use http://127.0.0.1:PORT "
            "or http://localhost:PORT in the hook's url\n"
        )
    return ""


def _host_name(value: str) -> str:
    """The host of a ``Host`` header (``[::1]:80`` → ``::1``, ``localhost:80`` → ``localhost``)."""
    if value.startswith("["):
        return value[1:].partition("]")[0]
    return value.rpartition(":")[0] if value.count(":") == 1 else value


def _content_length(headers: dict[str, str]) -> int:
    raw = headers.get("content-length", "0")
    if not raw.isdigit():
        raise _HttpError(400, "bad Content-Length")
    return int(raw)


async def _discard(reader: asyncio.StreamReader) -> None:
    """Read what the client still sends (a bounded while) so closing does not reset the
    connection before it has read the answer."""
    with contextlib.suppress(TimeoutError, ConnectionError):
        async with asyncio.timeout(_DRAIN_SECONDS):
            while await reader.read(65536):
                pass


async def _answer_text(worker: AnswerWorker, body: str | bytes) -> ClaudeAnswer:
    try:
        payload = parse_input(body)
    except BridgeInputError as exc:
        return input_failure(body, str(exc))
    return await worker.answer(payload)


# -- stdio ------------------------------------------------------------------------------


def claude_lines(
    bridge: BridgeHooks, seconds: float | None
) -> Callable[[str | bytes | LineTooLong], Awaitable[dict[str, Any]]]:
    """What answers Claude Code hook-input lines on ``serve --stdio``'s shared stream, each
    within ``seconds`` (``None``: hookline's hook timeout)."""
    return functools.partial(_stdio_reply, _worker(bridge, seconds or DEFAULT_HOOK_TIMEOUT))


def _worker(bridge: BridgeHooks, seconds: float) -> AnswerWorker:
    return AnswerWorker(bridge, seconds, _say)


def _say(text: str) -> None:
    print(f"hookline serve: {text}", file=sys.stderr, flush=True)


def _load(args: argparse.Namespace, cwd: str) -> BridgeHooks:
    """Load the hooks as ``claude-hook`` does, counting answers in the process's
    ``serving_metrics``; say on stderr what failed or was skipped."""
    from hookline.bridge.metrics import serving_metrics

    bridge = load_bridge(
        args.hooks,
        cwd=cwd,
        project_dir=os.environ.get("CLAUDE_PROJECT_DIR") or cwd,
        discover=not args.no_discovery,
        trust_project=args.trust_project,
        allow_skip=args.allow_untrusted_skip,
        timeout=args.timeout,
        metrics=serving_metrics(scraped=True, warn=_say),
    )
    for problem in bridge.load_errors:
        print(f"hookline serve: {problem} (tool calls will be denied)", file=sys.stderr)
    for skipped in bridge.skipped:
        then = "let through" if args.allow_untrusted_skip else "denied"
        print(f"hookline serve: skipped {skipped} (tool calls will be {then})", file=sys.stderr)
    return bridge


async def _stdio_reply(worker: AnswerWorker, line: str | bytes | LineTooLong) -> dict[str, Any]:
    if isinstance(line, LineTooLong):  # dropped unread: no event to go by
        answer = unknown_event_answer(f"line of {line.size} bytes is too long")
        return {"id": None, "exit_code": 0, "output": dict(answer.output), "stderr": answer.stderr}
    try:
        request = json.loads(line, parse_constant=_refuse_constant)
    except RecursionError:
        request, problem = None, "request is nested too deeply"
    except ValueError as exc:
        request, problem = None, f"request is not JSON: {exc}"
    else:
        problem = "" if isinstance(request, dict) else "request is not a JSON object"
    request_id = request.get("id") if isinstance(request, dict) else None
    if problem:
        answer = input_failure(line, problem)
    else:
        assert isinstance(request, dict)
        payload = request.get("input", request)
        text: str | bytes
        try:
            text = json.dumps(payload)
        except (RecursionError, ValueError):
            text = line  # refused by parse_input below, with the event when it can be told
        answer = await _answer_text(worker, text)
    return {
        "id": request_id,
        "exit_code": answer.exit_code,
        "output": dict(answer.output),
        "stderr": answer.stderr,
    }


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


# -- command ----------------------------------------------------------------------------


def main(argv: Sequence[str]) -> int:
    """``hookline serve --http`` (and ``--help``); ``--stdio`` is run by the CLI, whose agent
    answers pi's events and hands Claude Code's lines to ``claude_lines``."""
    parser = _parser()
    args = parser.parse_args(argv)
    if not args.http:
        parser.error("--stdio is run by `hookline serve --stdio`")
    token = args.token or os.environ.get(TOKEN_ENV) or None
    try:
        address = parse_address(args.http)
        check_bind(address[0], token, args.allow_remote)
        process_backend()  # HOOKLINE_STORE names a backend hooks' ctx.store can use
    except (ServeError, StoreConfigError) as exc:
        print(f"hookline serve: error: {exc}", file=sys.stderr)
        return 2
    from hookline.modes.stdout import claim_stdout

    claim_stdout()  # hooks' print() goes to stderr, never to a stdout someone reads
    bridge = _load(args, os.getcwd())
    try:
        asyncio.run(_serve_http(_worker(bridge, args.timeout), address, token))
    except KeyboardInterrupt:
        return 130
    return 0


async def _serve_http(worker: AnswerWorker, address: tuple[str, int], token: str | None) -> None:
    remote = not is_loopback(address[0])
    server = await HookHttpServer(worker, token, remote).start(*address)
    host, port = server.sockets[0].getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    print(f"hookline serve: listening on http://{shown}:{port}", file=sys.stderr, flush=True)
    async with server:
        await server.serve_forever()
