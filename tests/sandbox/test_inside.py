"""The forwarder in real bwrap: ready before the command, out of its way, gone with it."""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import time
from pathlib import Path

import pytest

from hookline.sandbox.network import PROXY_PORT, DomainPolicy, NetworkProxy, inside_argv

from .net_helpers import PYTHON, bwrap_argv, needs_bwrap, run_in_sandbox, seccomp_pipe

pytestmark = needs_bwrap


@pytest.fixture
async def proxy() -> NetworkProxy:
    return NetworkProxy(DomainPolicy())


@pytest.mark.parametrize(
    ("command", "status"),
    [
        ("true", 0),
        ("exit 3", 3),
        ("kill -TERM $$", 128 + 15),
        ("kill -KILL $$", 128 + 9),
        ("kill -INT $$", 128 + 2),  # the forwarder ignores ^C itself; the command does not
    ],
)
async def test_the_commands_exit_status_comes_out(
    proxy: NetworkProxy, command: str, status: int
) -> None:
    run = await run_in_sandbox(proxy, ["bash", "-c", command])
    assert run.returncode == status, run


async def test_a_missing_command_is_127(proxy: NetworkProxy) -> None:
    run = await run_in_sandbox(proxy, ["no-such-command-here"])
    assert run.returncode == 127
    assert "no-such-command-here" in run.stderr


async def test_the_proxy_port_is_open_before_the_command_runs(proxy: NetworkProxy) -> None:
    """The first thing the command does is connect: it is never refused."""
    script = f"exec 3<>/dev/tcp/127.0.0.1/{PROXY_PORT} && echo v4-open"
    runs = [await run_in_sandbox(proxy, ["bash", "-c", script]) for _ in range(5)]
    assert all("v4-open" in run.stdout for run in runs), runs


async def test_ipv6_loopback_is_served_too(proxy: NetworkProxy) -> None:
    script = f"exec 3<>/dev/tcp/::1/{PROXY_PORT} && echo v6-open"
    run = await run_in_sandbox(proxy, ["bash", "-c", script])
    has_v6 = await run_in_sandbox(None, ["bash", "-c", "test -e /proc/net/if_inet6"])
    if has_v6.returncode != 0:
        pytest.skip("no IPv6 in the sandbox's namespace")
    assert "v6-open" in run.stdout, run


async def test_the_control_descriptor_does_not_reach_the_command(proxy: NetworkProxy) -> None:
    """Every descriptor the command has is checked: none is a socket."""
    script = (
        "import os, stat, socket\n"
        "for name in os.listdir('/proc/self/fd'):\n"
        "    try:\n"
        "        s = socket.socket(fileno=os.dup(int(name)))\n"
        "    except OSError:\n"
        "        continue\n"
        "    print('socket', name, s.family)\n"
    )
    run = await run_in_sandbox(proxy, [PYTHON, "-I", "-c", script])
    assert run.returncode == 0, run
    assert "socket" not in run.stdout, run.stdout


async def test_the_command_gets_default_signal_handling(proxy: NetworkProxy) -> None:
    """Python ignores SIGPIPE; the command must not inherit that (``yes | head`` ends)."""
    run = await run_in_sandbox(
        proxy, ["bash", "-c", "yes | head -c 3 >/dev/null; echo ${PIPESTATUS[0]}"], timeout=20
    )
    assert run.stdout.strip() == str(128 + 13), run


async def test_background_jobs_end_with_the_command(proxy: NetworkProxy) -> None:
    started = time.monotonic()
    run = await run_in_sandbox(
        proxy, ["bash", "-c", "sleep 300 & sleep 300 </dev/null >/dev/null 2>&1 & echo up"]
    )
    assert run.stdout.strip() == "up" and run.returncode == 0
    assert time.monotonic() - started < 10


async def test_a_command_that_exits_with_connections_open_ends_promptly(
    proxy: NetworkProxy,
) -> None:
    """Connections to the proxy left open (one mid-request) do not keep the call alive."""
    script = (
        f"exec 3<>/dev/tcp/127.0.0.1/{PROXY_PORT}; exec 4<>/dev/tcp/127.0.0.1/{PROXY_PORT}; "
        "printf 'CONNECT ' >&4; (sleep 300 <&3 &) ; echo done"
    )
    started = time.monotonic()
    run = await run_in_sandbox(proxy, ["bash", "-c", script])
    assert run.stdout.strip() == "done" and run.returncode == 0, run
    assert time.monotonic() - started < 10
    assert run.channel is not None and not run.channel._tasks


async def test_the_forwarder_keeps_the_command_argv_intact(proxy: NetworkProxy) -> None:
    argv = ["printf", "%s|", "--", "-I", "a b", "", "$HOME"]
    run = await run_in_sandbox(proxy, argv)
    assert run.stdout == "--|-I|a b||$HOME|", run


def test_this_python_runs_the_forwarder_compiled() -> None:
    """Compiling the script on every call costs about 0.6 ms; its bytecode is used."""
    script = inside_argv(PYTHON, 7, ["true"])[4]
    assert script.endswith(".pyc") and Path(script).is_file()


async def test_the_forwarder_runs_from_source_on_another_python() -> None:
    """Standard library only: another interpreter (here, a copy elsewhere) runs the source."""
    other = shutil.which("python3", path="/usr/bin:/bin")
    if other is None or os.path.realpath(other) == os.path.realpath(PYTHON):
        pytest.skip("no second Python interpreter here")
    argv = inside_argv(other, 7, ["true"])
    assert argv[4].endswith("_inside.py")
    proxy = NetworkProxy(DomainPolicy())
    channel = proxy.open_channel()
    fd = seccomp_pipe()
    script = f"exec 3<>/dev/tcp/127.0.0.1/{PROXY_PORT} && exit 6"
    process = await asyncio.create_subprocess_exec(
        *bwrap_argv(fd, inside_argv(other, channel.inside_fd, ["bash", "-c", script])),
        pass_fds=(fd, channel.inside_fd),
    )
    os.close(fd)
    channel.spawned()
    assert await asyncio.wait_for(process.wait(), 30) == 6
    await channel.aclose()


def test_inside_argv_runs_the_forwarder_isolated() -> None:
    argv = inside_argv("/usr/bin/python3", 7, ["bash", "-c", "x"])
    assert argv[:4] == ["/usr/bin/python3", "-I", "-S", "-B"]
    assert argv[4].endswith("_inside.py")
    assert argv[-4:] == ["--", "bash", "-c", "x"]
    with pytest.raises(ValueError):
        inside_argv("/usr/bin/python3", 7, [])


async def test_a_forwarder_whose_hookline_is_gone_still_runs_the_command() -> None:
    """hookline's end closed: connections are closed, the command goes on and exits."""
    outside, inside = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    outside.close()
    fd = seccomp_pipe()
    script = f"exec 3<>/dev/tcp/127.0.0.1/{PROXY_PORT}; cat <&3; echo closed; exit 5"
    process = await asyncio.create_subprocess_exec(
        *bwrap_argv(fd, inside_argv(PYTHON, inside.fileno(), ["bash", "-c", script])),
        pass_fds=(fd, inside.fileno()),
        stdout=asyncio.subprocess.PIPE,
    )
    os.close(fd)
    inside.close()
    out, _ = await asyncio.wait_for(process.communicate(), 30)
    assert (process.returncode, out) == (5, b"closed\n")
