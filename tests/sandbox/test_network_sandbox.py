"""The whole network path in real bwrap: curl, bash and Python inside; loopback servers
outside, which record what reached them. Every refusal is judged by the server never
seeing the connection, not by a message."""

from __future__ import annotations

import shlex
import socket
import textwrap
import time
from collections.abc import AsyncIterator

import pytest

from hookline.sandbox.network import PROXY_PORT, DomainPolicy, HostAnswer, NetworkProxy

from .net_helpers import (
    PYTHON,
    EchoServer,
    HttpServer,
    echo_server,
    http_server,
    needs_bwrap,
    run_in_sandbox,
)

pytestmark = needs_bwrap


@pytest.fixture
async def http() -> AsyncIterator[HttpServer]:
    async with http_server() as server:
        yield server


@pytest.fixture
async def echo() -> AsyncIterator[EchoServer]:
    async with echo_server() as server:
        yield server


def _curl(url: str, *options: str) -> list[str]:
    return ["curl", "-sS", "--max-time", "20", "-o", "-", "-w", "\n%{http_code}\n", *options, url]


async def test_curl_reaches_an_allowed_host(http: HttpServer) -> None:
    proxy = NetworkProxy(DomainPolicy(allowed=("127.0.0.1", "localhost")))
    run = await run_in_sandbox(proxy, _curl(f"http://127.0.0.1:{http.port}/plain"))
    assert run.stdout.split() == ["ok", "/plain", "200"], run
    # a listed localhost is reachable too (Claude Code's NO_PROXY made it unreachable)
    run = await run_in_sandbox(proxy, _curl(f"http://localhost:{http.port}/named"))
    assert run.stdout.split() == ["ok", "/named", "200"], run
    # and through a CONNECT tunnel, as HTTPS goes
    run = await run_in_sandbox(proxy, _curl(f"http://127.0.0.1:{http.port}/tunnel", "-p"))
    assert run.stdout.split() == ["ok", "/tunnel", "200"], run
    assert http.requests == ["GET /plain", "GET /named", "GET /tunnel"]
    assert run.channel is not None and run.channel.refused == []


async def test_python_urllib_goes_through_the_proxy(http: HttpServer) -> None:
    proxy = NetworkProxy(DomainPolicy(allowed=("127.0.0.1",)))
    code = f"""
        import urllib.request, urllib.error
        print(urllib.request.urlopen("http://127.0.0.1:{http.port}/py").read().decode())
        try:
            urllib.request.urlopen("http://localhost:{http.port}/refused")
        except urllib.error.HTTPError as exc:
            print("refused", exc.code, exc.read().decode())
        """
    run = await run_in_sandbox(proxy, [PYTHON, "-c", textwrap.dedent(code)])
    assert "ok /py" in run.stdout, run
    assert f"refused 403 hookline sandbox: network access to localhost:{http.port}" in run.stdout
    assert http.requests == ["GET /py"]


async def test_an_unlisted_host_is_refused_and_recorded(http: HttpServer) -> None:
    decisions: list[str] = []
    proxy = NetworkProxy(
        DomainPolicy(allowed=("127.0.0.1",)), on_decision=lambda d: decisions.append(d.host)
    )
    run = await run_in_sandbox(
        proxy,
        [
            "bash",
            "-c",
            f"{shlex.join(_curl(f'http://localhost:{http.port}/a'))}; "
            f"{shlex.join(_curl(f'http://localhost:{http.port}/b', '-p'))}",
        ],
    )
    assert "\n403\n" in run.stdout and "allowedDomains" in run.stdout, run  # says what to do
    assert "CONNECT tunnel failed, response 403" in run.stderr, run
    assert http.connections == 0
    assert run.channel is not None
    assert [(d.host, d.outcome, d.reason) for d in run.channel.refused] == [
        ("localhost", "refused", "no UI")
    ] * 2
    assert decisions == ["localhost", "localhost"]


async def test_a_denied_host_is_refused_even_in_bypass(http: HttpServer) -> None:
    proxy = NetworkProxy(DomainPolicy(denied=("localhost", "127.0.0.1")), bypass=lambda: True)
    for host in ("localhost", "127.0.0.1", "127.1", "[::ffff:127.0.0.1]", "LOCALHOST."):
        run = await run_in_sandbox(proxy, _curl(f"http://{host}:{http.port}/"))
        assert run.stdout.split()[-1] == "403", (host, run)
    assert http.connections == 0
    # bypass does let an unlisted host through
    open_proxy = NetworkProxy(DomainPolicy(), bypass=lambda: True)
    run = await run_in_sandbox(open_proxy, _curl(f"http://127.0.0.1:{http.port}/by"))
    assert run.stdout.split() == ["ok", "/by", "200"], run


@pytest.mark.parametrize(("answer", "reached"), [("once", True), ("always", True), ("no", False)])
async def test_an_asked_host(http: HttpServer, answer: HostAnswer, reached: bool) -> None:
    asked: list[tuple[str, int]] = []
    saved: list[str] = []

    async def ask(host: str, port: int) -> HostAnswer:
        asked.append((host, port))
        return answer

    proxy = NetworkProxy(DomainPolicy(), ask=ask, remember=saved.append)
    command = " ; ".join(shlex.join(_curl(f"http://localhost:{http.port}/{i}")) for i in range(3))
    run = await run_in_sandbox(proxy, ["bash", "-c", command])
    codes = run.stdout.split()[2::3] if reached else run.stdout.split()[-1:]
    assert set(codes) == ({"200"} if reached else {"403"}), run
    assert asked == [("localhost", http.port)]  # one question for the three connections
    assert saved == (["localhost"] if answer == "always" else [])
    assert len(http.requests) == (3 if reached else 0)


async def test_direct_connections_never_leave_the_sandbox(http: HttpServer) -> None:
    proxy = NetworkProxy(DomainPolicy(allowed=("127.0.0.1",)))
    attempts = [
        _curl(f"http://127.0.0.1:{http.port}/direct", "--noproxy", "*"),
        ["bash", "-c", f"exec 3<>/dev/tcp/127.0.0.1/{http.port} && echo CONNECTED"],
        [
            PYTHON,
            "-I",
            "-c",
            f"import socket; socket.create_connection(('127.0.0.1', {http.port}))",
        ],
    ]
    for argv in attempts:
        run = await run_in_sandbox(proxy, argv)
        assert "ok /" not in run.stdout and "CONNECTED" not in run.stdout, run
        assert run.returncode != 0, run
    assert http.connections == 0


async def test_a_udp_packet_never_arrives() -> None:
    receiver = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    receiver.bind(("127.0.0.1", 0))
    port = receiver.getsockname()[1]
    proxy = NetworkProxy(DomainPolicy(allowed=("127.0.0.1",)))
    code = (
        "import socket\n"
        "s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\n"
        f"try: s.sendto(b'escaped', ('127.0.0.1', {port}))\n"
        "except OSError as exc: print('send failed', exc)\n"
    )
    await run_in_sandbox(proxy, [PYTHON, "-I", "-c", code])
    await run_in_sandbox(proxy, ["bash", "-c", f"echo escaped > /dev/udp/127.0.0.1/{port}"])
    # Loopback delivers on sendto: a packet sent from here now is queued behind any
    # that got out, so the first one read says whether one did.
    socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b"marker", ("127.0.0.1", port))
    assert receiver.recv(100) == b"marker"
    receiver.close()


async def test_many_parallel_connections_through_one_command(
    http: HttpServer, echo: EchoServer
) -> None:
    proxy = NetworkProxy(DomainPolicy(allowed=("127.0.0.1",)))
    script = (
        f"for i in $(seq 30); do curl -sS -o /dev/null http://127.0.0.1:{http.port}/$i & done; "
        f"for i in $(seq 10); do curl -sS -o /dev/null -p http://127.0.0.1:{http.port}/t$i & done; "
        "wait"
    )
    run = await run_in_sandbox(proxy, ["bash", "-c", script], timeout=90)
    assert run.returncode == 0, run
    assert sorted(http.requests) == sorted(
        [f"GET /{i}" for i in range(1, 31)] + [f"GET /t{i}" for i in range(1, 11)]
    )


async def test_a_command_that_leaves_a_tunnel_open_ends_promptly(echo: EchoServer) -> None:
    proxy = NetworkProxy(DomainPolicy(allowed=("127.0.0.1",)))
    script = (
        f"exec 3<>/dev/tcp/127.0.0.1/{PROXY_PORT}; "
        f"printf 'CONNECT 127.0.0.1:{echo.port} HTTP/1.1\\r\\n\\r\\nhello\\n' >&3; "
        'head -c 39 <&3 >/dev/null; read -r line <&3; echo "$line"; '
        "(sleep 300 <&3 >/dev/null 2>&1 &); exit 4"
    )
    started = time.monotonic()
    run = await run_in_sandbox(proxy, ["bash", "-c", script])
    assert run.stdout.strip() == "HELLO" and run.returncode == 4, run
    assert time.monotonic() - started < 10
    assert echo.connections == 1
    assert run.channel is not None and not run.channel._tasks  # the tunnel is gone


async def test_a_stuck_connection_does_not_hold_up_others(http: HttpServer) -> None:
    """One connection sends half a request and waits; curl beside it gets through."""
    proxy = NetworkProxy(DomainPolicy(allowed=("127.0.0.1",)))
    script = (
        f"exec 3<>/dev/tcp/127.0.0.1/{PROXY_PORT}; printf 'GET http://127.0.0.1/ HT' >&3; "
        f"exec 4<>/dev/tcp/127.0.0.1/{PROXY_PORT}; "
        f"{shlex.join(_curl(f'http://127.0.0.1:{http.port}/beside'))}"
    )
    run = await run_in_sandbox(proxy, ["bash", "-c", script], timeout=20)
    assert run.stdout.split() == ["ok", "/beside", "200"], run
    assert http.requests == ["GET /beside"]


async def test_the_forwarder_costs_little() -> None:
    """Not a benchmark (see benchmarks/bench_sandbox_network.py): a gross regression guard."""
    proxy = NetworkProxy(DomainPolicy())
    started = time.monotonic()
    for _ in range(5):
        await run_in_sandbox(proxy, ["true"])
    assert (time.monotonic() - started) / 5 < 1.0
