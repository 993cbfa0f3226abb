"""``NetworkProxy`` served through a real channel, fed as the forwarder feeds it (a TCP
connection handed over ``SCM_RIGHTS``), against loopback servers: no bwrap needed here
(``test_network_sandbox.py`` runs the same paths inside bwrap)."""

from __future__ import annotations

import asyncio
import os
import socket
from collections.abc import AsyncIterator, Callable

import pytest

from hookline.sandbox.network import (
    DomainPolicy,
    HostAnswer,
    NetworkDecision,
    NetworkProxy,
    ProxyChannel,
)

from .net_helpers import EchoServer, HttpServer, echo_server, http_server, proxy_client


@pytest.fixture
async def http() -> AsyncIterator[HttpServer]:
    async with http_server() as server:
        yield server


@pytest.fixture
async def echo() -> AsyncIterator[EchoServer]:
    async with echo_server() as server:
        yield server


class Recorder:
    def __init__(self) -> None:
        self.decisions: list[NetworkDecision] = []

    def __call__(self, decision: NetworkDecision) -> None:
        self.decisions.append(decision)


async def _exchange(channel: ProxyChannel, request: bytes) -> bytes:
    reader, writer = await proxy_client(channel)
    writer.write(request)
    await writer.drain()
    data = await asyncio.wait_for(reader.read(), 10)
    writer.close()
    return data


def _get(host: str, port: int, path: str = "/") -> bytes:
    return f"GET http://{host}:{port}{path} HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode()


async def test_an_allowed_host_is_reached(http: HttpServer) -> None:
    record = Recorder()
    proxy = NetworkProxy(DomainPolicy(allowed=("127.0.0.1",)), on_decision=record)
    channel = proxy.open_channel()
    answer = await _exchange(channel, _get("127.0.0.1", http.port, "/hello?x=1"))
    assert answer.startswith(b"HTTP/1.1 200 OK") and answer.endswith(b"ok /hello?x=1\n")
    assert http.requests == ["GET /hello?x=1"]
    assert record.decisions == [
        NetworkDecision("127.0.0.1", http.port, "allowed", "allowedDomains")
    ]
    assert channel.refused == []
    await channel.aclose()


async def test_an_unlisted_host_gets_403_and_is_never_looked_up(
    http: HttpServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    looked_up: list[str] = []
    real = socket.getaddrinfo
    monkeypatch.setattr(
        socket, "getaddrinfo", lambda host, *a, **k: looked_up.append(host) or real(host, *a, **k)
    )
    record = Recorder()
    proxy = NetworkProxy(DomainPolicy(), on_decision=record)
    channel = proxy.open_channel()
    answer = await _exchange(channel, _get("localhost", http.port))
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 403 Forbidden")
    assert f"localhost:{http.port}".encode() in body
    assert b"sandbox.network.allowedDomains" in body
    assert http.connections == 0 and "localhost" not in looked_up
    refused = NetworkDecision("localhost", http.port, "refused", "no UI")
    assert channel.refused == [refused] and record.decisions == [refused]
    await channel.aclose()


async def test_a_denied_host_is_refused_even_in_bypass(http: HttpServer) -> None:
    proxy = NetworkProxy(
        DomainPolicy(allowed=("127.0.0.1",), denied=("127.0.0.1",)), bypass=lambda: True
    )
    channel = proxy.open_channel()
    answer = await _exchange(channel, _get("127.1", http.port))
    assert answer.startswith(b"HTTP/1.1 403") and b"deniedDomains" in answer
    assert http.connections == 0
    assert [d.reason for d in channel.refused] == ["deniedDomains"]
    await channel.aclose()


async def test_bypass_lets_an_unlisted_host_through(http: HttpServer) -> None:
    proxy = NetworkProxy(DomainPolicy(), bypass=lambda: True)
    channel = proxy.open_channel()
    assert (await _exchange(channel, _get("127.0.0.1", http.port))).startswith(b"HTTP/1.1 200")
    assert http.requests == ["GET /"]
    await channel.aclose()


class Asker:
    """An ``ask`` that answers what it is told, once released, and counts its calls."""

    def __init__(self, answer: HostAnswer) -> None:
        self.answer = answer
        self.calls: list[tuple[str, int]] = []
        self.release = asyncio.Event()
        self.release.set()
        self.asked = asyncio.Event()
        self.cancelled = False

    async def __call__(self, host: str, port: int) -> HostAnswer:
        self.calls.append((host, port))
        self.asked.set()
        try:
            await self.release.wait()
        except asyncio.CancelledError:
            self.cancelled = True
            raise
        return self.answer


async def test_ask_once_allows_the_host_for_the_session_without_saving(http: HttpServer) -> None:
    ask, saved = Asker("once"), []
    proxy = NetworkProxy(DomainPolicy(), ask=ask, remember=saved.append)
    first = proxy.open_channel()
    assert (await _exchange(first, _get("127.0.0.1", http.port))).startswith(b"HTTP/1.1 200")
    await first.aclose()
    second = proxy.open_channel()
    assert (await _exchange(second, _get("127.0.0.1", http.port))).startswith(b"HTTP/1.1 200")
    await second.aclose()
    assert ask.calls == [("127.0.0.1", http.port)] and saved == []
    assert http.requests == ["GET /", "GET /"]


async def test_ask_always_saves_the_rule_once_for_many_connections(http: HttpServer) -> None:
    ask, saved = Asker("always"), []
    ask.release.clear()
    record = Recorder()
    proxy = NetworkProxy(DomainPolicy(), ask=ask, remember=saved.append, on_decision=record)
    channel = proxy.open_channel()
    requests = [
        asyncio.ensure_future(_exchange(channel, _get("127.0.0.1", http.port, f"/{i}")))
        for i in range(5)
    ]
    await ask.asked.wait()
    while proxy._questions.waiting("127.0.0.1") < 5:  # all five are waiting
        await asyncio.sleep(0.01)
    ask.release.set()
    answers = await asyncio.gather(*requests)
    assert all(a.startswith(b"HTTP/1.1 200") for a in answers)
    assert len(ask.calls) == 1 and saved == ["127.0.0.1"]
    assert sorted(http.requests) == [f"GET /{i}" for i in range(5)]
    assert {d.reason for d in record.decisions} == {"user"}
    await channel.aclose()


async def test_ask_no_refuses_and_is_not_asked_again_in_the_same_command(
    http: HttpServer,
) -> None:
    ask = Asker("no")
    proxy = NetworkProxy(DomainPolicy(), ask=ask)
    channel = proxy.open_channel()
    for _ in range(3):
        assert (await _exchange(channel, _get("127.0.0.1", http.port))).startswith(b"HTTP/1.1 403")
    assert len(ask.calls) == 1 and http.connections == 0
    assert [d.reason for d in channel.refused] == ["user"] * 3
    await channel.aclose()
    again = proxy.open_channel()  # the next command asks again
    await _exchange(again, _get("127.0.0.1", http.port))
    assert len(ask.calls) == 2
    await again.aclose()


async def test_an_ask_that_fails_refuses(http: HttpServer) -> None:
    async def broken(host: str, port: int) -> HostAnswer:
        raise RuntimeError("the UI went away")

    proxy = NetworkProxy(DomainPolicy(), ask=broken)
    channel = proxy.open_channel()
    assert (await _exchange(channel, _get("127.0.0.1", http.port))).startswith(b"HTTP/1.1 403")
    assert http.connections == 0
    await channel.aclose()


async def test_a_slow_ask_does_not_hold_up_other_connections(http: HttpServer) -> None:
    ask = Asker("once")
    ask.release.clear()
    proxy = NetworkProxy(DomainPolicy(allowed=("127.0.0.1",)), ask=ask)
    channel = proxy.open_channel()
    waiting = asyncio.ensure_future(_exchange(channel, _get("localhost", http.port)))
    await ask.asked.wait()
    answer = await asyncio.wait_for(_exchange(channel, _get("127.0.0.1", http.port)), 10)
    assert answer.startswith(b"HTTP/1.1 200") and not waiting.done()
    await channel.aclose()  # the command ended: the dialog nobody waits for is withdrawn
    await asyncio.sleep(0)
    assert ask.cancelled and proxy._questions.waiting("localhost") == 0
    assert await asyncio.wait_for(waiting, 5) == b""  # closed, never answered


async def test_a_post_body_reaches_the_server_and_the_proxy_headers_do_not(
    http: HttpServer,
) -> None:
    proxy = NetworkProxy(DomainPolicy(allowed=("127.0.0.1",)))
    channel = proxy.open_channel()
    body = b"x" * 200_000
    request = (
        f"POST http://127.0.0.1:{http.port}/upload HTTP/1.1\r\nHost: evil.example\r\n"
        f"Proxy-Authorization: Basic c2VjcmV0\r\nProxy-Connection: keep-alive\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode() + body
    answer = await _exchange(channel, request)
    assert answer.endswith(b"ok /upload\n")
    assert http.bodies == [body]
    (seen,) = http.headers
    assert seen["host"] == f"127.0.0.1:{http.port}"  # the host decided on, not the header's
    assert seen["connection"] == "close"
    assert not any(name.startswith("proxy-") for name in seen)
    await channel.aclose()


async def test_connect_tunnels_both_ways_with_half_close(echo: EchoServer) -> None:
    proxy = NetworkProxy(DomainPolicy(allowed=("127.0.0.1",)))
    channel = proxy.open_channel()
    reader, writer = await proxy_client(channel)
    writer.write(f"CONNECT 127.0.0.1:{echo.port} HTTP/1.1\r\n\r\nfirst\n".encode())
    assert await reader.readuntil(b"\r\n\r\n") == b"HTTP/1.1 200 Connection Established\r\n\r\n"
    assert await reader.readline() == b"FIRST\n"
    writer.write(b"second\n")
    writer.write_eof()  # half-close: the answer still comes back
    assert await asyncio.wait_for(reader.read(), 10) == b"SECOND\n"
    assert echo.received == b"first\nsecond\n"
    writer.close()
    await channel.aclose()


async def test_many_parallel_connections_through_one_channel(echo: EchoServer) -> None:
    proxy = NetworkProxy(DomainPolicy(allowed=("127.0.0.1",)))
    channel = proxy.open_channel()

    async def one(i: int) -> bytes:
        reader, writer = await proxy_client(channel)
        writer.write(f"CONNECT 127.0.0.1:{echo.port} HTTP/1.1\r\n\r\nline {i}\n".encode())
        await reader.readuntil(b"\r\n\r\n")
        line = await reader.readline()
        writer.close()
        return line

    lines = await asyncio.wait_for(asyncio.gather(*(one(i) for i in range(60))), 30)
    assert sorted(lines) == sorted(f"LINE {i}\n".encode() for i in range(60))
    assert echo.connections == 60
    await channel.aclose()


@pytest.mark.parametrize(
    "target",
    [
        "http://localhost\\@127.0.0.1/",
        "http://127.0.0.1:80:81/",
        "http://127.0.0.1%2elocalhost/",
        "http://[fe80::1%25lo]/",
    ],
)
async def test_a_url_that_hides_its_host_is_refused(http: HttpServer, target: str) -> None:
    proxy = NetworkProxy(DomainPolicy(allowed=("127.0.0.1",)), bypass=lambda: True)
    channel = proxy.open_channel()
    answer = await _exchange(channel, f"GET {target} HTTP/1.1\r\n\r\n".encode())
    assert answer.startswith(b"HTTP/1.1 400"), answer
    assert http.connections == 0
    await channel.aclose()


@pytest.mark.parametrize(
    ("request_bytes", "status"),
    [
        (b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", b"400"),  # not a proxy request
        (b"GET https://127.0.0.1/ HTTP/1.1\r\n\r\n", b"400"),
        (b"CONNECT 127.0.0.1 HTTP/1.1\r\n\r\n", b"400"),  # no port
        (b"CONNECT 127.0.0.1:0 HTTP/1.1\r\n\r\n", b"400"),
        (b"CONNECT 127.0.0.1:99999 HTTP/1.1\r\n\r\n", b"400"),
        (b"CONNECT [::1 HTTP/1.1\r\n\r\n", b"400"),
        (b"CONNECT evil.com\x00.x:443 HTTP/1.1\r\n\r\n", b"400"),
        (b"GET http://user:pw@127.0.0.1/ HTTP/1.1\r\n\r\n", b"400"),
        (b"GET http://127.0.0.1/ HTTP/2.0\r\n\r\n", b"400"),
        (b"GET  http://127.0.0.1/ HTTP/1.1\r\n\r\n", b"400"),
        (b"G\xffT http://127.0.0.1/ HTTP/1.1\r\n\r\n", b"400"),
        (b"GET http://127.0.0.1/ HTTP/1.1\r\nBad Header\r\n\r\n", b"400"),
        (b"GET http://127.0.0.1/ HTTP/1.1\r\n folded: x\r\n\r\n", b"400"),
        (b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + b"\x00" * 40, b""),  # TLS, no end
        (b"GET http://127.0.0.1/ HTTP/1.1\r\n" + b"X: y\r\n" * 101 + b"\r\n", b"431"),
        (b"GET http://127.0.0.1/ HTTP/1.1\r\nX: " + b"y" * 70_000 + b"\r\n\r\n", b"431"),
    ],
)
async def test_a_malformed_request_is_answered_and_the_proxy_goes_on(
    http: HttpServer, request_bytes: bytes, status: bytes
) -> None:
    proxy = NetworkProxy(DomainPolicy(allowed=("127.0.0.1",)))
    channel = proxy.open_channel()
    reader, writer = await proxy_client(channel)
    writer.write(request_bytes)
    if not status:
        writer.write_eof()  # the head never ends: the connection is just closed
    answer = await asyncio.wait_for(reader.read(), 10)
    writer.close()
    assert (
        answer.startswith(b"HTTP/1.1 " + status) if status else answer.startswith(b"HTTP/1.1 400")
    )
    assert http.connections == 0
    assert (await _exchange(channel, _get("127.0.0.1", http.port))).startswith(b"HTTP/1.1 200")
    await channel.aclose()


def _pipe_end() -> tuple[int, Callable[[], bool]]:
    read, write = os.pipe()
    os.set_blocking(write, False)

    def dropped() -> bool:
        try:
            os.write(write, b"x")
        except BrokenPipeError:
            return True
        return False

    return read, dropped


def _unix_end() -> tuple[int, Callable[[], bool]]:
    mine, theirs = socket.socketpair()
    return theirs.detach(), lambda: mine.recv(1) == b""


def _other(make: Callable[[], int]) -> Callable[[], tuple[int, Callable[[], bool]]]:
    return lambda: (make(), lambda: True)


@pytest.mark.parametrize(
    "make",
    [
        _pipe_end,
        _unix_end,
        _other(lambda: socket.socket(socket.AF_INET, socket.SOCK_DGRAM).detach()),
        _other(lambda: socket.create_server(("127.0.0.1", 0)).detach()),
        _other(lambda: os.open("/dev/null", os.O_RDONLY)),
    ],
    ids=["pipe", "unix", "udp", "listening", "file"],
)
async def test_a_descriptor_that_is_not_a_tcp_connection_is_dropped(
    http: HttpServer, make: Callable[[], tuple[int, Callable[[], bool]]]
) -> None:
    """Something in the sandbox that got hold of the control socket cannot make the proxy
    serve anything but TCP connections: the descriptor is closed, the proxy goes on."""
    proxy = NetworkProxy(DomainPolicy(allowed=("127.0.0.1",)))
    channel = proxy.open_channel()
    fd, dropped = make()
    inside = socket.socket(fileno=os.dup(channel.inside_fd))
    socket.send_fds(inside, [b"c"], [fd])
    inside.close()
    os.close(fd)
    # served in order: once this answer is back, the descriptor before it was dealt with
    assert (await _exchange(channel, _get("127.0.0.1", http.port))).startswith(b"HTTP/1.1 200")
    assert dropped()
    assert http.connections == 1
    await channel.aclose()


async def test_an_unreachable_host_is_a_502(echo: EchoServer) -> None:
    proxy = NetworkProxy(DomainPolicy(allowed=("127.0.0.1",)))
    channel = proxy.open_channel()
    closed = socket.create_server(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()
    answer = await _exchange(channel, f"CONNECT 127.0.0.1:{port} HTTP/1.1\r\n\r\n".encode())
    assert answer.startswith(b"HTTP/1.1 502") and f"127.0.0.1:{port}".encode() in answer
    await channel.aclose()


async def test_closing_the_channel_ends_its_open_tunnels(echo: EchoServer) -> None:
    proxy = NetworkProxy(DomainPolicy(allowed=("127.0.0.1",)))
    channel = proxy.open_channel()
    reader, writer = await proxy_client(channel)
    writer.write(f"CONNECT 127.0.0.1:{echo.port} HTTP/1.1\r\n\r\n".encode())
    await reader.readuntil(b"\r\n\r\n")
    await asyncio.wait_for(channel.aclose(), 5)
    assert await asyncio.wait_for(reader.read(), 5) == b""
    writer.close()
