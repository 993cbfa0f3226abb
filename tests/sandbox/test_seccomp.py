"""The seccomp filter, loaded by real bwrap: no Unix socket reaches out of the sandbox.

Every refusal is checked by its effect (the server outside never sees a connection) and
against a run without the filter, so that a test cannot pass because the probe itself
is broken.
"""

from __future__ import annotations

import asyncio
import platform
import signal
import struct
import textwrap
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from hookline.sandbox.seccomp import SeccompUnavailable, unix_socket_filter

from .net_helpers import PYTHON, needs_bwrap, run_in_sandbox

pytestmark = needs_bwrap
X86_64 = platform.machine() == "x86_64"


def test_the_program_is_whole_instructions_ending_in_allow() -> None:
    program = unix_socket_filter()
    assert len(program) % 8 == 0
    *_, (code, _jt, _jf, k) = struct.iter_unpack("=HBBI", program)
    assert (code, k) == (0x06, 0x7FFF0000)  # RET ALLOW


@pytest.mark.parametrize("machine", ["x86_64", "aarch64"])
def test_both_machines_have_a_filter(machine: str) -> None:
    arch = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}[machine]
    first = list(struct.iter_unpack("=HBBI", unix_socket_filter(machine)))[:2]
    assert first[0] == (0x20, 0, 0, 4)  # load seccomp_data.arch
    assert first[1][3] == arch


@pytest.mark.parametrize("machine", ["riscv64", "i686", "armv7l", "s390x"])
def test_other_machines_are_refused(machine: str) -> None:
    with pytest.raises(SeccompUnavailable, match=machine):
        unix_socket_filter(machine)


async def _python(code: str, *, seccomp: bool = True) -> tuple[int, str]:
    run = await run_in_sandbox(None, [PYTHON, "-I", "-c", textwrap.dedent(code)], seccomp=seccomp)
    return run.returncode, run.stdout + run.stderr


CREATE_UNIX = """
import socket
for kind in (socket.SOCK_STREAM, socket.SOCK_DGRAM, socket.SOCK_SEQPACKET):
    try:
        socket.socket(socket.AF_UNIX, kind)
        print("created", kind)
    except OSError as exc:
        print("refused", kind, exc.errno)
"""


async def test_no_unix_socket_of_any_type_can_be_created() -> None:
    code, out = await _python(CREATE_UNIX)
    assert code == 0, out
    assert out.count("refused") == 3 and "created" not in out, out
    assert [line.split()[-1] for line in out.splitlines()] == ["1", "1", "1"], out  # EPERM
    # the probe works: without the filter the same sockets are created
    code, out = await _python(CREATE_UNIX, seccomp=False)
    assert out.count("created") == 3, out


UPPER_HALF = """
import ctypes, platform
libc = ctypes.CDLL(None, use_errno=True)
nr = {"x86_64": 41, "aarch64": 198}[platform.machine()]
fd = libc.syscall(ctypes.c_long(nr), ctypes.c_long(0x1_0000_0001), ctypes.c_long(1), 0)
print("fd", fd, "errno", ctypes.get_errno())
"""


async def test_the_upper_half_of_the_family_argument_does_not_hide_af_unix() -> None:
    """The kernel reads ``family`` as an int: 0x1_0000_0001 is AF_UNIX to it."""
    _, out = await _python(UPPER_HALF)
    assert "fd -1 errno 1" in out, out
    _, out = await _python(UPPER_HALF, seccomp=False)
    assert "fd -1" not in out, out


async def test_inet_sockets_and_unix_socketpairs_still_work() -> None:
    code, out = await _python(
        """
        import socket
        socket.socket(socket.AF_INET, socket.SOCK_STREAM).close()
        socket.socket(socket.AF_INET6, socket.SOCK_DGRAM).close()
        a, b = socket.socketpair()
        a.send(b"x"); print("pair", b.recv(1))
        import asyncio; asyncio.run(asyncio.sleep(0)); print("asyncio ok")
        """
    )
    assert code == 0, out
    assert "pair b'x'" in out and "asyncio ok" in out


UnixServer = tuple[Path, list[bytes]]


@pytest.fixture
async def unix_server(tmp_path: Path) -> AsyncIterator[UnixServer]:
    """A Unix socket served outside, in a directory the read-only bind still shows."""
    seen: list[bytes] = []

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        seen.append(await reader.read(100) or b"<connected>")
        writer.close()

    path = tmp_path / "daemon.sock"
    server = await asyncio.start_unix_server(handle, path)
    yield path, seen
    server.close()


CONNECT_UNIX = """
import socket, sys
try:
    s = socket.socket(socket.AF_UNIX)
    s.connect(sys.argv[1]); s.sendall(b"hello from inside"); s.recv(10)
    print("connected")
except OSError as exc:
    print("failed", exc)
"""


async def test_a_unix_socket_outside_cannot_be_reached(unix_server: UnixServer) -> None:
    path, seen = unix_server
    for tool in (
        [PYTHON, "-I", "-c", CONNECT_UNIX, str(path)],
        ["bash", "-c", f"exec 3<>{path}"],  # opening a socket file is not connecting
    ):
        run = await run_in_sandbox(None, tool)
        assert "connected" not in run.stdout, run
    await asyncio.sleep(0)  # let the server run a handler, were there a connection
    assert seen == []
    # the same probe without the filter gets through: the test above is not vacuous
    run = await run_in_sandbox(None, [PYTHON, "-I", "-c", CONNECT_UNIX, str(path)], seccomp=False)
    assert "connected" in run.stdout, run
    assert seen == [b"hello from inside"]


@pytest.mark.skipif(not X86_64, reason="the i386 and x32 ABIs exist only on x86_64")
async def test_an_i386_system_call_kills_the_process() -> None:
    """``int 0x80`` from a 64-bit process: getpid (20) through the i386 table."""
    probe = """
        import ctypes, mmap
        code = bytes([0xB8, 20, 0, 0, 0, 0xCD, 0x80, 0xC3])  # mov eax,20; int 0x80; ret
        page = mmap.mmap(-1, mmap.PAGESIZE, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
        page.write(code)
        address = ctypes.addressof(ctypes.c_char.from_buffer(page))
        print("pid", ctypes.CFUNCTYPE(ctypes.c_int)(address)(), flush=True)
        """
    code, out = await _python(probe)
    assert code == -signal.SIGSYS or code == 128 + signal.SIGSYS, (code, out)
    assert "pid" not in out
    code, out = await _python(probe, seccomp=False)
    assert code == 0 and "pid" in out, out


@pytest.mark.skipif(not X86_64, reason="the x32 ABI exists only on x86_64")
async def test_an_x32_system_call_kills_the_process() -> None:
    code, out = await _python(
        """
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        print("x32 socket", libc.syscall(0x40000000 | 41, 1, 1, 0), flush=True)
        """
    )
    assert code == -signal.SIGSYS or code == 128 + signal.SIGSYS, (code, out)
    assert "x32 socket" not in out


async def test_io_uring_is_unavailable() -> None:
    """An io_uring ring could create a Unix socket without the socket system call."""
    probe = """
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        params = ctypes.create_string_buffer(120)
        fd = libc.syscall(425, 4, params)
        print("ring", fd, ctypes.get_errno())
        """
    _, out = await _python(probe)
    assert "ring -1 38" in out, out  # ENOSYS
    if Path("/proc/sys/kernel/io_uring_disabled").read_text().strip() == "0":
        _, out = await _python(probe, seccomp=False)
        assert "ring -1" not in out, out
