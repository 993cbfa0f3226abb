"""The seccomp filter given to ``bwrap --seccomp FD``: no Unix-domain sockets in the sandbox.

A read-only bind of ``/`` still shows every Unix socket on the host (Docker's, D-Bus,
systemd's, an ssh agent's); ``connect()`` to one needs only a socket, not write access
to the file. So ``socket(AF_UNIX, ...)`` fails with ``EPERM`` for every process in the
sandbox, as in Claude Code. The program is classic BPF, written here with ``struct``
(no libseccomp): a few instructions, checked by the kernel when bwrap loads it.

What it holds, and why each line is there:

- the architecture is checked first: a 64-bit process can still make i386 system calls
  (``int 0x80``; they arrive with ``AUDIT_ARCH_I386``, where ``socketcall`` multiplexes
  every socket call), and on x86_64 the x32 ABI (system call numbers with bit 30 set)
  has its own ``socket``; both kill the process (``SIGSYS``), as libseccomp does for a
  foreign architecture;
- ``io_uring_setup`` fails with ``ENOSYS``: an io_uring ``IORING_OP_SOCKET`` creates a
  socket without the ``socket`` system call, so seccomp would never see it (Docker's
  default profile refuses io_uring for the same kind of reason); programs fall back
  to ordinary system calls on ``ENOSYS``;
- ``socketpair(AF_UNIX, ...)`` stays allowed: it opens no path, only a connected pair
  inside the process (asyncio's self-pipe, libuv's child pipes), and Claude Code allows
  it too. Descriptors inherited or received over ``SCM_RIGHTS`` are not affected: the
  forwarder hands the connections it accepts out over such a descriptor.
"""

from __future__ import annotations

import errno
import platform
import struct

__all__ = ["SeccompUnavailable", "unix_socket_filter"]


class SeccompUnavailable(Exception):
    """No filter for this machine's architecture: the sandbox cannot hold its network rule."""


# struct sock_filter { __u16 code; __u8 jt; __u8 jf; __u32 k; }
_INSN = struct.Struct("=HBBI")

# BPF opcodes (linux/filter.h)
_LD_W_ABS = 0x00 | 0x00 | 0x20  # BPF_LD | BPF_W | BPF_ABS
_JEQ_K = 0x05 | 0x10 | 0x00  # BPF_JMP | BPF_JEQ | BPF_K
_JSET_K = 0x05 | 0x40 | 0x00  # BPF_JMP | BPF_JSET | BPF_K
_RET_K = 0x06 | 0x00  # BPF_RET | BPF_K

# struct seccomp_data { int nr; __u32 arch; __u64 instruction_pointer; __u64 args[6]; }
_NR = 0
_ARCH = 4
_ARG0_LOW = 16  # args[0] is a 64-bit field; both machines are little-endian

# linux/seccomp.h return values
_RET_KILL_PROCESS = 0x80000000
_RET_ERRNO = 0x00050000
_RET_ALLOW = 0x7FFF0000

_AF_UNIX = 1
_X32_SYSCALL_BIT = 0x40000000
_IO_URING_SETUP = 425  # the same number on every architecture (asm-generic table)


# (audit arch, socket's number, whether the x32 bit must be refused)
_MACHINES: dict[str, tuple[int, int, bool]] = {
    "x86_64": (0xC000003E, 41, True),  # AUDIT_ARCH_X86_64
    "amd64": (0xC000003E, 41, True),
    "aarch64": (0xC00000B7, 198, False),  # AUDIT_ARCH_AARCH64
    "arm64": (0xC00000B7, 198, False),
}


def unix_socket_filter(machine: str | None = None) -> bytes:
    """A classic-BPF program (``struct sock_filter[]`` as bytes) for ``bwrap --seccomp FD``:
    ``socket(AF_UNIX, ...)`` fails with ``EPERM``; a foreign system call ABI (x32, i386
    from a 64-bit process) kills the process; io_uring is unavailable (``ENOSYS``);
    everything else is allowed. x86_64 and aarch64; other machines raise
    ``SeccompUnavailable`` (the sandbox then reports itself unavailable).

    ``machine`` defaults to this one (``platform.machine()``).
    """
    name = (machine or platform.machine()).lower()
    try:
        arch, socket_nr, refuse_x32 = _MACHINES[name]
    except KeyError:
        raise SeccompUnavailable(
            f"no seccomp filter for the {name!r} architecture (x86_64 and aarch64 only): "
            "the sandbox cannot keep Unix sockets out"
        ) from None
    kill = _RET_KILL_PROCESS
    eperm = _RET_ERRNO | errno.EPERM
    enosys = _RET_ERRNO | errno.ENOSYS
    # Jump offsets count instructions after the jump; the labels below are written out.
    program: list[tuple[int, int, int, int]] = [
        (_LD_W_ABS, 0, 0, _ARCH),
        (_JEQ_K, 1, 0, arch),  # the native ABI: skip the kill
        (_RET_K, 0, 0, kill),
        (_LD_W_ABS, 0, 0, _NR),
    ]
    if refuse_x32:
        program += [
            (_JSET_K, 0, 1, _X32_SYSCALL_BIT),
            (_RET_K, 0, 0, kill),
        ]
    program += [
        (_JEQ_K, 0, 1, _IO_URING_SETUP),
        (_RET_K, 0, 0, enosys),
        (_JEQ_K, 0, 3, socket_nr),  # not socket(): allow
        (_LD_W_ABS, 0, 0, _ARG0_LOW),
        (_JEQ_K, 0, 1, _AF_UNIX),  # socket(AF_INET, ...) and the rest: allow
        (_RET_K, 0, 0, eperm),
        (_RET_K, 0, 0, _RET_ALLOW),
    ]
    return b"".join(_INSN.pack(*insn) for insn in program)
