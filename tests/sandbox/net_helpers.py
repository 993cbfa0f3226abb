"""Shared pieces of the network tests: real bwrap runs and loopback servers outside.

The servers run in the test's own network namespace (the host's), so a connection
that reaches them from inside the sandbox got out; each records what it saw, and the
tests judge by that.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import sys
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

import pytest

from hookline.sandbox.network import NetworkProxy, ProxyChannel, inside_argv, proxy_env
from hookline.sandbox.seccomp import unix_socket_filter

BWRAP = shutil.which("bwrap")
needs_bwrap = pytest.mark.skipif(BWRAP is None, reason="bubblewrap (bwrap) is not installed")
PYTHON = os.path.realpath(sys.executable)
BWRAP_ARGS = [
    "--unshare-net",
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    "--unshare-user",
    "--unshare-pid",
    "--die-with-parent",
]


@dataclass
class Run:
    returncode: int
    stdout: str
    stderr: str
    channel: ProxyChannel | None


def bwrap_argv(seccomp_fd: int | None, command: Sequence[str]) -> list[str]:
    assert BWRAP is not None
    argv = [BWRAP, *BWRAP_ARGS]
    if seccomp_fd is not None:
        argv += ["--seccomp", str(seccomp_fd)]
    return [*argv, *command]


def seccomp_pipe() -> int:
    """A pipe's read end holding the filter (bwrap reads it whole)."""
    read, write = os.pipe()
    os.write(write, unix_socket_filter())
    os.close(write)
    return read


async def run_in_sandbox(
    proxy: NetworkProxy | None,
    command: Sequence[str],
    *,
    seccomp: bool = True,
    env: dict[str, str] | None = None,
    timeout: float = 60.0,
) -> Run:
    """``command`` in bwrap (with the forwarder when there is a proxy), as the launcher will
    run it: ``pass_fds``, ``spawned()`` after the start, ``aclose()`` after the end."""
    seccomp_fd = seccomp_pipe() if seccomp else None
    channel = proxy.open_channel() if proxy is not None else None
    inner = list(command)
    fds = [fd for fd in (seccomp_fd,) if fd is not None]
    full_env = {**os.environ, **(env or {})}
    if channel is not None:
        inner = inside_argv(PYTHON, channel.inside_fd, command)
        fds.append(channel.inside_fd)
        full_env.update(proxy_env())
    try:
        process = await asyncio.create_subprocess_exec(
            *bwrap_argv(seccomp_fd, inner),
            env=full_env,
            pass_fds=fds,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
    finally:
        if seccomp_fd is not None:
            os.close(seccomp_fd)
    if channel is not None:
        channel.spawned()
    try:
        out, err = await asyncio.wait_for(process.communicate(), timeout)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
        if channel is not None:
            await channel.aclose()
    assert process.returncode is not None
    return Run(
        process.returncode, out.decode(errors="replace"), err.decode(errors="replace"), channel
    )


@dataclass
class HttpServer:
    """A loopback HTTP/1.1 server that answers every request with ``ok <path>``."""

    port: int = 0
    requests: list[str] = field(default_factory=list)  # "METHOD path body-length"
    connections: int = 0
    bodies: list[bytes] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                lines = head.decode("latin-1").split("\r\n")
                method, path, _ = lines[0].split(" ")
                headers = {
                    k.strip().lower(): v.strip()
                    for k, _, v in (line.partition(":") for line in lines[1:] if line)
                }
                body = await reader.readexactly(int(headers.get("content-length", "0")))
                self.requests.append(f"{method} {path}")
                self.bodies.append(body)
                self.headers.append(headers)
                payload = f"ok {path}\n".encode()
                writer.write(
                    b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s" % (len(payload), payload)
                )
                await writer.drain()
                if headers.get("connection", "").lower() == "close":
                    break
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()


@asynccontextmanager
async def http_server() -> AsyncIterator[HttpServer]:
    state = HttpServer()
    server = await asyncio.start_server(state.handle, "127.0.0.1", 0)
    state.port = server.sockets[0].getsockname()[1]
    try:
        yield state
    finally:
        server.close()


@dataclass
class EchoServer:
    """A loopback TCP server (a CONNECT target): echoes each line upper-cased."""

    port: int = 0
    connections: int = 0
    received: bytearray = field(default_factory=bytearray)

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            while line := await reader.readline():
                self.received += line
                writer.write(line.upper())
                await writer.drain()
        except ConnectionError:
            pass
        finally:
            writer.close()


@asynccontextmanager
async def echo_server() -> AsyncIterator[EchoServer]:
    state = EchoServer()
    server = await asyncio.start_server(state.handle, "127.0.0.1", 0)
    state.port = server.sockets[0].getsockname()[1]
    try:
        yield state
    finally:
        server.close()


def hand_in(channel: ProxyChannel, sock: socket.socket) -> None:
    """Do what the forwarder does with an accepted connection: send it out over the
    channel's inside descriptor (tests that need no bwrap)."""
    inside = socket.socket(fileno=os.dup(channel.inside_fd))
    try:
        socket.send_fds(inside, [b"c"], [sock.fileno()])
    finally:
        inside.close()
    sock.close()


async def proxy_client(channel: ProxyChannel) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A client connected to the proxy through ``channel``, as a program in the sandbox."""
    listener = socket.create_server(("127.0.0.1", 0))
    client = socket.create_connection(listener.getsockname())
    accepted, _ = listener.accept()
    listener.close()
    hand_in(channel, accepted)
    return await asyncio.open_connection(sock=client)
