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
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import os
import re
import socket
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from hookline.settings.permission_rules.syntax import (
    PermissionRuleError,
    RuleOrigin,
    split_rule,
)

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
_HEAD_LIMIT = 64 * 1024  # request line and headers
_MAX_HEADERS = 100
_HEAD_TIMEOUT = 30.0  # a client that connects and says nothing
_CONNECT_TIMEOUT = 30.0
_MAX_CONNECTIONS = 256  # open at once per channel
_CHUNK = 64 * 1024


# -- host names -----------------------------------------------------------------------

_LABEL = re.compile(r"[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?")
_NUMERIC_LABEL = re.compile(r"(?:0x[0-9a-f]*|[0-9]+)")


def canonical_host(host: str) -> str | None:
    """The one spelling of ``host`` that policy and connection both use, or None when it
    is not a host name or IP literal.

    Lower case, no trailing dot, IPv6 without brackets in its compressed form, an
    IPv4-mapped IPv6 address as IPv4, and the legacy IPv4 forms the resolver accepts
    (``127.1``, ``0x7f.0.0.1``, ``2130706433``) as dotted quads — so a rule about
    ``127.0.0.1`` cannot be walked around by another spelling of it.
    """
    name = host.strip().lower()
    if name.startswith("[") and name.endswith("]"):
        name = name[1:-1]
    elif name.endswith("."):
        name = name[:-1]
    if not name or len(name) > 253:
        return None
    if ":" in name:
        try:
            address = ipaddress.IPv6Address(name)
        except ValueError:
            return None
        if address.scope_id is not None:  # "fe80::1%eth0" names an interface of the host
            return None
        mapped = address.ipv4_mapped
        return str(mapped) if mapped is not None else address.compressed
    labels = name.split(".")
    if all(_NUMERIC_LABEL.fullmatch(label) for label in labels):
        try:
            return socket.inet_ntoa(socket.inet_aton(name))
        except OSError:
            return None
    if all(_LABEL.fullmatch(label) for label in labels):
        return name
    return None


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


@dataclass(frozen=True, slots=True)
class _Pattern:
    host: str  # canonical; for a wildcard, the suffix after "*."
    wildcard: bool
    port: int | None

    def matches(self, host: str, port: int | None) -> bool:
        if self.port is not None and port != self.port:
            return False
        if self.wildcard:
            return host.endswith("." + self.host) and not _is_ip(host)
        return host == self.host


def _pattern(entry: str) -> _Pattern | None:
    """``example.com``, ``*.example.com``, an IP literal, each with an optional ``:port``."""
    text = entry.strip()
    port: int | None = None
    head, sep, tail = text.rpartition(":")
    if sep and tail.isdigit() and (head.endswith("]") or ":" not in head):
        text, port = head, int(tail)
        if not 0 < port < 65536:
            return None
    wildcard = text.startswith("*.")
    host = canonical_host(text[2:] if wildcard else text)
    if host is None or (wildcard and _is_ip(host)):
        return None
    return _Pattern(host, wildcard, port)


@dataclass(frozen=True, slots=True)
class DomainPolicy:
    """``sandbox.network.allowedDomains`` and ``deniedDomains``, matched as Claude Code does.

    An entry is a host name (``example.com``), a wildcard (``*.example.com``: every name
    under it, NOT ``example.com`` itself — list both for both) or an IP literal, with an
    optional ``:port`` that limits it to that port. Case and a trailing dot do not matter.
    A wildcard never matches an IP address. Any other form (``*``, ``a.*.com``) matches
    nothing: it is listed by ``unusable()`` so the caller can say so.
    """

    allowed: tuple[str, ...] = ()
    denied: tuple[str, ...] = ()
    _allow: tuple[_Pattern, ...] = field(init=False, repr=False, compare=False)
    _deny: tuple[_Pattern, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_allow", _patterns(self.allowed))
        object.__setattr__(self, "_deny", _patterns(self.denied))

    def decide(self, host: str, port: int | None = None) -> Literal["allow", "deny", "ask"]:
        """``deny`` when a denied entry matches (or ``host`` is not a host name),
        ``allow`` when an allowed one does, else ``ask``."""
        name = canonical_host(host)
        if name is None or any(p.matches(name, port) for p in self._deny):
            return "deny"
        if any(p.matches(name, port) for p in self._allow):
            return "allow"
        return "ask"

    def unusable(self) -> list[str]:
        """Entries of either list that match no host (a typo, or a form Claude Code lacks)."""
        return [entry for entry in (*self.allowed, *self.denied) if _pattern(entry) is None]


def _patterns(entries: Sequence[str]) -> tuple[_Pattern, ...]:
    return tuple(p for p in map(_pattern, entries) if p is not None)


def rule_domains(rules: Iterable[str]) -> tuple[str, ...]:
    """The hosts of ``WebFetch(domain:HOST)`` rules, in order.

    Claude Code merges these into the sandbox's lists (allow rules into
    ``allowedDomains``, deny rules into ``deniedDomains``), and its "always allow" answer
    for a sandboxed connection is written as such a rule. Other rules are skipped; an
    unreadable one is the permission layer's to report.
    """
    hosts: list[str] = []
    for text in rules:
        try:
            rule = split_rule(text, RuleOrigin())
        except PermissionRuleError:
            continue
        spec = rule.specifier or ""
        if rule.tool == "WebFetch" and spec.startswith("domain:") and spec[7:].strip():
            hosts.append(spec[7:].strip())
    return tuple(hosts)


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


class _BadRequest(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


@dataclass(slots=True)
class _Request:
    method: str
    target: str
    version: str
    headers: list[tuple[str, str]]


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
        reader, writer = await asyncio.open_connection(sock=sock, limit=_HEAD_LIMIT)
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
            request = await self._read_request()
            host, port = _destination(request)
        except _BadRequest as exc:
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
            await self._answer(502, f"hookline sandbox proxy: cannot reach {host}:{port}: {why}")
            return
        try:
            if request.method == "CONNECT":
                self.writer.write(b"HTTP/1.1 200 Connection Established\r\n\r\n")
                await self.writer.drain()
                await _tunnel(self.reader, self.writer, upstream_reader, upstream_writer)
            else:
                upstream_writer.write(_origin_request(request, host, port))
                await _forward(self.reader, self.writer, upstream_reader, upstream_writer)
        finally:
            upstream_writer.close()
            with contextlib.suppress(Exception):
                await upstream_writer.wait_closed()

    async def _read_request(self) -> _Request:
        try:
            head = await asyncio.wait_for(self.reader.readuntil(b"\r\n\r\n"), _HEAD_TIMEOUT)
        except asyncio.LimitOverrunError:
            raise _BadRequest(431, "request header too large") from None
        except asyncio.IncompleteReadError as exc:
            if len(exc.partial) >= _HEAD_LIMIT:
                raise _BadRequest(431, "request header too large") from None
            raise _BadRequest(400, "incomplete request") from None
        except ValueError:  # the limit was reached inside readuntil's buffer
            raise _BadRequest(431, "request header too large") from None
        return _parse_head(head)

    async def _answer(self, status: int, body: str, *, blocked: bool = False) -> None:
        payload = (body.rstrip("\n") + "\n").encode("utf-8", "replace")
        lines = [
            f"HTTP/1.1 {status} {_REASONS.get(status, 'Error')}",
            "Content-Type: text/plain; charset=utf-8",
            f"Content-Length: {len(payload)}",
            "Connection: close",
        ]
        if blocked:
            lines.append("X-Proxy-Error: blocked-by-allowlist")
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + payload)
        with contextlib.suppress(ConnectionError, OSError):
            await self.writer.drain()


_REASONS = {
    400: "Bad Request",
    403: "Forbidden",
    431: "Request Header Fields Too Large",
    502: "Bad Gateway",
}
_TOKEN = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")


def _parse_head(head: bytes) -> _Request:
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ")
    if len(parts) != 3 or not _TOKEN.fullmatch(parts[0]) or not parts[1]:
        raise _BadRequest(400, "malformed request line")
    method, target, version = parts
    if version not in ("HTTP/1.1", "HTTP/1.0"):
        raise _BadRequest(400, f"unsupported HTTP version {version[:20]!r}")
    headers: list[tuple[str, str]] = []
    for line in lines[1:]:
        if not line:
            continue
        name, sep, value = line.partition(":")
        if not sep or not _TOKEN.fullmatch(name):
            raise _BadRequest(400, "malformed header line")
        headers.append((name, value.strip(" \t")))
    if len(headers) > _MAX_HEADERS:
        raise _BadRequest(431, "too many header fields")
    return _Request(method, target, version, headers)


def _destination(request: _Request) -> tuple[str, int]:
    """The canonical host and port the request is for."""
    if request.method == "CONNECT":
        authority = request.target
    else:
        scheme, sep, rest = request.target.partition("://")
        if not sep:
            raise _BadRequest(
                400,
                "hookline sandbox proxy: only proxy requests are served here "
                "(CONNECT host:port, or an absolute http:// URL)",
            )
        if scheme.lower() != "http":
            raise _BadRequest(400, f"the proxy forwards http:// URLs; use CONNECT for {scheme}")
        authority = re.split(r"[/?#]", rest, maxsplit=1)[0]
        if "@" in authority:
            raise _BadRequest(400, "credentials in the URL are not forwarded")
    host, port = _split_authority(authority, default=None if request.method == "CONNECT" else 80)
    name = canonical_host(host)
    if name is None:
        raise _BadRequest(400, f"not a host name: {host[:100]!r}")
    return name, port


def _split_authority(authority: str, default: int | None) -> tuple[str, int]:
    if authority.startswith("["):
        host, bracket, rest = authority[1:].partition("]")
        if not bracket or (rest and not rest.startswith(":")):
            raise _BadRequest(400, "malformed IPv6 authority")
        port_text = rest[1:] if rest else ""
    else:
        host, colon, port_text = authority.rpartition(":")
        if not colon:
            host, port_text = authority, ""
    if not port_text:
        if default is None:
            raise _BadRequest(400, "CONNECT needs host:port")
        return host, default
    if not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise _BadRequest(400, f"bad port {port_text[:10]!r}")
    return host, int(port_text)


_HOP_BY_HOP = {"connection", "proxy-connection", "keep-alive", "proxy-authorization", "host"}


def _origin_request(request: _Request, host: str, port: int) -> bytes:
    """The request as the origin server expects it: origin-form target, ``Host`` from
    the URL (the one the decision was about), no proxy headers, ``Connection: close``
    (one request per connection; an upgrade keeps its ``Connection``)."""
    rest = request.target.partition("://")[2]
    start = min((i for i in (rest.find(c) for c in "/?#") if i >= 0), default=len(rest))
    path = rest[start:].split("#", 1)[0] or "/"
    if path.startswith("?"):
        path = "/" + path
    authority = f"[{host}]" if ":" in host else host
    if port != 80:
        authority += f":{port}"
    upgrade = any(name.lower() == "upgrade" for name, _ in request.headers)
    lines = [f"{request.method} {path} {request.version}", f"Host: {authority}"]
    for name, value in request.headers:
        lowered = name.lower()
        if lowered in _HOP_BY_HOP and not (upgrade and lowered == "connection"):
            continue
        lines.append(f"{name}: {value}")
    if not upgrade:
        lines.append("Connection: close")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def _refusal(decision: NetworkDecision) -> str:
    where = f"{decision.host}:{decision.port}"
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


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Copy until end of stream, then pass the end on (half-close)."""
    try:
        while data := await reader.read(_CHUNK):
            writer.write(data)
            await writer.drain()
        if writer.can_write_eof():
            writer.write_eof()
    except (ConnectionError, OSError):
        writer.close()


async def _tunnel(
    client_reader: asyncio.StreamReader,
    client_writer: asyncio.StreamWriter,
    upstream_reader: asyncio.StreamReader,
    upstream_writer: asyncio.StreamWriter,
) -> None:
    """Both directions, each ending on its own, until both have ended."""
    await asyncio.gather(
        _pipe(client_reader, upstream_writer), _pipe(upstream_reader, client_writer)
    )


async def _forward(
    client_reader: asyncio.StreamReader,
    client_writer: asyncio.StreamWriter,
    upstream_reader: asyncio.StreamReader,
    upstream_writer: asyncio.StreamWriter,
) -> None:
    """One plain-HTTP exchange: the body goes up while the response comes down; the
    exchange is over when the server closes (it was asked to)."""
    upload = asyncio.ensure_future(_pipe(client_reader, upstream_writer))
    try:
        await _pipe(upstream_reader, client_writer)
    finally:
        upload.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await upload


# -- the sandbox's side -----------------------------------------------------------------


def inside_argv(python: str, channel_fd: int, command: Sequence[str]) -> list[str]:
    """argv for bwrap's command: the forwarder, which starts ``command`` and exits with its
    status. ``python`` runs isolated (``-I -S``: no site, no environment, no user path)."""
    if not command:
        raise ValueError("inside_argv needs a command")
    return [
        python,
        "-I",
        "-S",
        "-B",
        str(_INSIDE),
        str(channel_fd),
        str(PROXY_PORT),
        "--",
        *command,
    ]


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
