"""The sandbox's network: a filtering HTTP proxy outside, reached through a forwarder inside.

bubblewrap gives the command an empty network namespace (only ``lo``). The forwarder
(``_inside.py``) listens on ``127.0.0.1:PROXY_PORT`` in there and hands every connection
it accepts to hookline over an inherited Unix socket (``SCM_RIGHTS``); ``NetworkProxy``
serves an HTTP/1.1 proxy on it (``CONNECT`` to any port, and absolute-URI plain HTTP),
deciding per host as Claude Code does:

1. ``deniedDomains`` refuse, always (even in ``bypassPermissions``);
2. ``allowedDomains`` pass;
3. a host the user allowed earlier in this session passes;
4. ``bypass()`` (the ``bypassPermissions`` mode) passes;
5. otherwise ``ask(host, port)``: "once" allows the host for the rest of the session
   (Claude Code keeps it as a session-allowed host), "always" does that and calls
   ``remember(host)`` so the caller writes the rule, "no" refuses it for the rest of this
   command (a program that retries does not reopen the dialog; the next command asks
   again); no ``ask`` (no UI) refuses.

Connections to the same host share one question. Names are resolved outside, and only
after the decision: a refused host is never looked up. A refusal is a ``403`` whose body
names the host and the setting that would allow it, a ``NetworkDecision`` for
``on_decision`` and a line in the channel's ``refused``.

The lists and host names are ``domains.py``'s (re-exported here); the HTTP wire format
is ``_http.py``'s.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import socket
import struct
import sys
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from hookline.sandbox._http import (
    HEAD_LIMIT,
    BadRequest,
    destination,
    forward,
    origin_request,
    read_request,
    response,
    tunnel,
)
from hookline.sandbox.domains import DomainPolicy, canonical_host, host_and_port, rule_domains

__all__ = [
    "PROXY_PORT",
    "AskHost",
    "DomainPolicy",
    "HostAnswer",
    "NetworkDecision",
    "NetworkProxy",
    "ProxyChannel",
    "SharedQuestions",
    "canonical_host",
    "host_and_port",
    "inside_argv",
    "proxy_env",
    "rule_domains",
]

log = logging.getLogger(__name__)

#: Inside the private namespace nothing else listens, so a fixed port is safe.
PROXY_PORT: int = 3128
HostAnswer = Literal["once", "always", "no"]
#: ``(host, port) -> the user's answer``.
AskHost = Callable[[str, int], Awaitable[HostAnswer]]

_INSIDE = Path(__file__).with_name("_inside.py")
_CONNECT_TIMEOUT = 30.0
_MAX_CONNECTIONS = 256  # open at once per channel


# -- decisions --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NetworkDecision:
    """One connection attempt's outcome, for the audit log, OpenTelemetry and the
    tool result's ``<sandbox_violations>``.

    ``reason``: ``allowedDomains``, ``deniedDomains``, ``bypassPermissions``, ``user``
    (answered now), ``session`` (answered earlier in this session), ``no UI``.
    """

    host: str
    port: int
    outcome: Literal["allowed", "refused"]
    reason: str


@dataclass(slots=True)
class _OpenQuestion:
    task: asyncio.Task[HostAnswer]
    waiters: int = 0


class SharedQuestions:
    """One open question per key, shared by everyone who asks it meanwhile.

    The first caller starts ``ask()``; later callers with the same key wait for the
    same answer. When the last of them goes away (its command ended), the question is
    withdrawn (cancelled): no dialog stays open that nobody waits for.
    """

    def __init__(self) -> None:
        self._open: dict[str, _OpenQuestion] = {}

    def waiting(self, key: str) -> int:
        """How many callers wait for ``key``'s answer."""
        question = self._open.get(key)
        return question.waiters if question else 0

    async def ask(self, key: str, ask: Callable[[], Awaitable[HostAnswer]]) -> HostAnswer:
        question = self._open.get(key)
        if question is None:
            question = self._open[key] = _OpenQuestion(asyncio.ensure_future(ask()))
        question.waiters += 1
        try:
            return await asyncio.shield(question.task)
        finally:
            question.waiters -= 1
            if question.waiters == 0 or question.task.done():
                question.task.cancel()  # a no-op once answered
                if self._open.get(key) is question:
                    del self._open[key]

    def cancel(self) -> None:
        """Withdraw every open question."""
        for question in self._open.values():
            question.task.cancel()
        self._open.clear()


class NetworkProxy:
    """The filtering proxy; one per agent, one ``ProxyChannel`` per sandboxed command.

    ``policy`` may be replaced while it serves (the settings were read again); each
    connection is decided with the policy of the moment it asks.
    """

    def __init__(
        self,
        policy: DomainPolicy,
        *,
        ask: AskHost | None = None,
        bypass: Callable[[], bool] = lambda: False,
        remember: Callable[[str], None] | None = None,
        on_decision: Callable[[NetworkDecision], None] | None = None,
    ) -> None:
        self.policy = policy
        self._ask = ask
        self._bypass = bypass
        self._remember = remember
        self._on_decision = on_decision
        #: Hosts the user allowed ("once" or "always") while this proxy lives.
        self._session_allowed: set[str] = set()
        self._questions = SharedQuestions()
        self._channels: set[ProxyChannel] = set()

    def open_channel(self) -> ProxyChannel:
        """A new channel for one command (needs a running event loop)."""
        channel = ProxyChannel(self, asyncio.get_running_loop())
        self._channels.add(channel)
        return channel

    async def aclose(self) -> None:
        """Stop every channel and drop open questions."""
        for channel in list(self._channels):
            await channel.aclose()
        self._questions.cancel()

    # -- deciding -----------------------------------------------------------------------

    async def _decide(self, channel: ProxyChannel, host: str, port: int) -> NetworkDecision:
        verdict = self.policy.decide(host, port)
        if verdict == "deny":
            decision = NetworkDecision(host, port, "refused", "deniedDomains")
        elif verdict == "allow":
            decision = NetworkDecision(host, port, "allowed", "allowedDomains")
        elif host in self._session_allowed:
            decision = NetworkDecision(host, port, "allowed", "session")
        elif self._bypass():
            decision = NetworkDecision(host, port, "allowed", "bypassPermissions")
        elif host in channel._said_no:
            decision = NetworkDecision(host, port, "refused", "user")
        elif self._ask is None:
            decision = NetworkDecision(host, port, "refused", "no UI")
        else:
            answer = await self._questions.ask(host, lambda: self._ask_and_apply(host, port))
            if answer == "no":
                channel._said_no.add(host)
                decision = NetworkDecision(host, port, "refused", "user")
            else:
                decision = NetworkDecision(host, port, "allowed", "user")
        self._record(channel, decision)
        return decision

    async def _ask_and_apply(self, host: str, port: int) -> HostAnswer:
        assert self._ask is not None
        try:
            answer = await self._ask(host, port)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.warning("asking about network access to %s failed", host, exc_info=True)
            return "no"
        if answer not in ("once", "always"):
            return "no"
        self._session_allowed.add(host)
        if answer == "always" and self._remember is not None:
            try:
                self._remember(host)
            except Exception as exc:  # the answer still holds for this session
                log.warning("could not save the network rule for %s: %s", host, exc)
        return answer

    def _record(self, channel: ProxyChannel, decision: NetworkDecision) -> None:
        if decision.outcome == "refused":
            channel.refused.append(decision)
        if self._on_decision is not None:
            try:
                self._on_decision(decision)
            except Exception:
                log.warning("on_decision failed", exc_info=True)


class ProxyChannel:
    """The proxy's side of one sandboxed command.

    ``inside_fd`` goes to the sandbox (``pass_fds``; it is close-on-exec here, so no
    other child of hookline inherits it). Each connection the forwarder accepts arrives
    on it as a descriptor and is served until it ends or the channel is closed.
    """

    def __init__(self, proxy: NetworkProxy, loop: asyncio.AbstractEventLoop) -> None:
        self._proxy = proxy
        self._loop = loop
        self._outside, self._inside = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self._outside.setblocking(False)
        self.inside_fd: int = self._inside.fileno()
        #: Connections refused while this channel served (for ``<sandbox_violations>``).
        self.refused: list[NetworkDecision] = []
        self._said_no: set[str] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._closed = False
        loop.add_reader(self._outside.fileno(), self._on_control)

    def forget_answers(self) -> None:
        """A "no" holds for one command: a channel that serves a whole session forgets
        them when a command starts with no other running."""
        self._said_no.clear()

    def spawned(self) -> None:
        """The sandbox started: close hookline's copy of ``inside_fd``, so that the
        channel sees the end of the forwarder."""
        self._inside.close()

    async def aclose(self) -> None:
        """The command ended: stop serving this channel and its connections."""
        if self._closed:
            return
        self._closed = True
        self._proxy._channels.discard(self)
        self._loop.remove_reader(self._outside.fileno())
        self._outside.close()
        self._inside.close()
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def _on_control(self) -> None:
        while True:
            try:
                message, fds, _flags, _address = socket.recv_fds(
                    self._outside, 16, 4, socket.MSG_CMSG_CLOEXEC
                )
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                message, fds = b"", []
            if not message and not fds:  # the forwarder is gone
                self._loop.remove_reader(self._outside.fileno())
                return
            for fd in fds:
                sock = _stream_socket(fd)
                if sock is None:
                    continue
                if len(self._tasks) >= _MAX_CONNECTIONS:
                    sock.close()
                    continue
                task = self._loop.create_task(self._serve(sock))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)

    async def _serve(self, sock: socket.socket) -> None:
        reader, writer = await asyncio.open_connection(sock=sock, limit=HEAD_LIMIT)
        try:
            await _ProxyConnection(self._proxy, self, reader, writer).run()
        except (ConnectionError, TimeoutError, OSError):
            pass
        except Exception:
            log.warning("network proxy connection failed", exc_info=True)
        finally:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()


def _stream_socket(fd: int) -> socket.socket | None:
    """The descriptor as a connected TCP socket, or None (closed) when it is anything
    else: whatever runs in the sandbox may have got hold of the forwarder's descriptor."""
    try:
        sock = socket.socket(fileno=fd)
    except OSError:
        os.close(fd)
        return None
    try:
        ok = (
            sock.family in (socket.AF_INET, socket.AF_INET6)
            and sock.type == socket.SOCK_STREAM
            and not sock.getsockopt(socket.SOL_SOCKET, socket.SO_ACCEPTCONN)
        )
    except OSError:
        ok = False
    if not ok:
        sock.close()
        return None
    sock.setblocking(False)
    return sock


# -- one proxied connection ---------------------------------------------------------------


class _ProxyConnection:
    def __init__(
        self,
        proxy: NetworkProxy,
        channel: ProxyChannel,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
    ) -> None:
        self.proxy = proxy
        self.channel = channel
        self.reader = reader
        self.writer = writer

    async def run(self) -> None:
        try:
            request = await read_request(self.reader)
            host, port = destination(request)
        except BadRequest as exc:
            await self._answer(exc.status, str(exc))
            return
        decision = await self.proxy._decide(self.channel, host, port)
        if decision.outcome == "refused":
            await self._answer(403, _refusal(decision), blocked=True)
            return
        try:
            upstream_reader, upstream_writer = await asyncio.wait_for(
                asyncio.open_connection(host, port, happy_eyeballs_delay=0.25), _CONNECT_TIMEOUT
            )
        except (OSError, TimeoutError) as exc:
            why = "timed out" if isinstance(exc, TimeoutError) else exc.strerror or str(exc)
            where = host_and_port(host, port)
            await self._answer(502, f"hookline sandbox proxy: cannot reach {where}: {why}")
            return
        try:
            if request.method == "CONNECT":
                self.writer.write(b"HTTP/1.1 200 Connection Established\r\n\r\n")
                await self.writer.drain()
                await tunnel(self.reader, self.writer, upstream_reader, upstream_writer)
            else:
                upstream_writer.write(origin_request(request, host, port))
                await forward(self.reader, self.writer, upstream_reader, upstream_writer)
        finally:
            upstream_writer.close()
            with contextlib.suppress(Exception):
                await upstream_writer.wait_closed()

    async def _answer(self, status: int, body: str, *, blocked: bool = False) -> None:
        self.writer.write(response(status, body, blocked=blocked))
        with contextlib.suppress(ConnectionError, OSError):
            await self.writer.drain()


def _refusal(decision: NetworkDecision) -> str:
    where = host_and_port(decision.host, decision.port)
    if decision.reason == "deniedDomains":
        return (
            f"hookline sandbox: network access to {where} was refused: the host matches "
            "sandbox.network.deniedDomains (remove that entry to allow it)."
        )
    why = {"user": "refused when asked", "no UI": "not allowed, and there is no UI to ask"}
    return (
        f"hookline sandbox: network access to {where} was refused "
        f"({why.get(decision.reason, decision.reason)}). To allow it, add "
        f'"{decision.host}" to sandbox.network.allowedDomains in .claude/settings.json.'
    )


# -- the sandbox's side -----------------------------------------------------------------


def inside_argv(python: str, channel_fd: int, command: Sequence[str]) -> list[str]:
    """argv for bwrap's command: the forwarder, which starts ``command`` and exits with its
    status. ``python`` runs isolated (``-I -S``: no site, no environment, no user path)."""
    if not command:
        raise ValueError("inside_argv needs a command")
    script = _compiled_forwarder() if _is_this_python(python) else str(_INSIDE)
    return [python, "-I", "-S", "-B", script, str(channel_fd), str(PROXY_PORT), "--", *command]


def serve_argv(python: str, channel_fd: int) -> list[str]:
    """argv for the forwarder of a session's shared network namespace: it listens, prints
    ``ready PID`` and serves until it is ended (see ``hookline.sandbox.shared_net``)."""
    script = _compiled_forwarder() if _is_this_python(python) else str(_INSIDE)
    return [python, "-I", "-S", "-B", script, str(channel_fd), str(PROXY_PORT), "--serve"]


@functools.cache
def _is_this_python(python: str) -> bool:
    return os.path.realpath(python) == os.path.realpath(sys.executable)


@functools.cache
def _compiled_forwarder() -> str:
    """The forwarder's bytecode when it can be had (compiling the source costs about
    0.6 ms on every call; an installed package ships it, a checkout writes it once),
    else its source."""
    import importlib.util
    import py_compile

    source = str(_INSIDE)
    cached = importlib.util.cache_from_source(source)
    try:
        stat = os.stat(source)
        with open(cached, "rb") as handle:
            header = handle.read(16)
        fresh = header == importlib.util.MAGIC_NUMBER + struct.pack(
            "<III", 0, int(stat.st_mtime) & 0xFFFFFFFF, stat.st_size & 0xFFFFFFFF
        )
    except OSError:
        fresh = False
    if fresh:
        return cached
    try:
        written = py_compile.compile(source, cfile=cached, doraise=True)
    except (OSError, py_compile.PyCompileError):
        return source
    return written or source


def proxy_env() -> dict[str, str]:
    """``HTTP_PROXY``/``HTTPS_PROXY``/``ALL_PROXY`` (both cases) for inside; ``NO_PROXY``
    empty, so that every host — localhost included — goes through the proxy (a listed
    host is reachable; a direct connection never is)."""
    url = f"http://127.0.0.1:{PROXY_PORT}"
    env: dict[str, str] = {}
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"):
        env[name] = env[name.lower()] = url
    env["NO_PROXY"] = env["no_proxy"] = ""
    return env
