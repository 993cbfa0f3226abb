"""One network namespace for a session's sandboxed calls, so a call does not start a
forwarder of its own.

Starting the in-sandbox forwarder (an interpreter) on every call costs about as much as
bubblewrap itself. Instead the session starts it once: bubblewrap with a new user and
network namespace runs the forwarder in its serving mode, which listens on
``127.0.0.1:PROXY_PORT`` and prints ``ready PID``. Each call then runs bubblewrap inside
that process's user and network namespaces (``nsenter``, as the namespaces' owner may;
see :meth:`SharedNetwork.enter_argv`): it still gets its own user, PID, IPC and mount namespaces and
the seccomp filter, but the network it sees is the session's, whose only way out is the
forwarder and hookline's proxy. A refused connection is reported to every call that was
running when it was refused.

When ``nsenter`` is missing or the namespace cannot be made, the launcher falls back to a
forwarder per call.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import select
import shutil
import signal
import subprocess
import sys

from hookline.sandbox import network, seccomp
from hookline.sandbox.network import NetworkProxy, ProxyChannel

_log = logging.getLogger("hookline.sandbox")

#: How long the namespace may take to be ready before the per-call forwarder is used.
_START_TIMEOUT = 10.0


class SharedNetwork:
    """The session's network namespace and its forwarder (started on first use)."""

    def __init__(self, bwrap: str, proxy: NetworkProxy, nsenter: str) -> None:
        self.bwrap = bwrap
        self.proxy = proxy
        self.nsenter = nsenter
        self.channel: ProxyChannel | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._pid: int | None = None

    @classmethod
    def find(cls, bwrap: str, proxy: NetworkProxy) -> SharedNetwork | None:
        """A shared namespace when this machine has ``nsenter``; None otherwise."""
        nsenter = shutil.which("nsenter")
        return cls(bwrap, proxy, nsenter) if nsenter else None

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    async def start(self) -> bool:
        """Start the namespace (once); False when it cannot be had."""
        if self.running:
            return True
        self.close()
        channel = self.proxy.open_channel()
        read, write = os.pipe()
        os.write(write, seccomp.unix_socket_filter())  # a few hundred bytes: fits the pipe
        os.close(write)
        argv = [
            # uid 0 in its user namespace, so that a call that enters it may enter the
            # network namespace too (as the namespace's root: see enter_argv)
            self.bwrap, "--unshare-user", "--uid", "0", "--gid", "0",
            "--unshare-net", "--unshare-ipc", "--die-with-parent",
            "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--cap-drop", "ALL",
            "--seccomp", str(read), "--",
            *network.serve_argv(sys.executable, channel.inside_fd),
        ]  # fmt: skip
        # A plain process, not an asyncio one: it lives as long as the session, and must
        # not depend on the loop that happened to start it.
        try:
            process = subprocess.Popen(
                argv,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                pass_fds=(channel.inside_fd, read),
                start_new_session=True,
            )
        except OSError as exc:
            _log.warning("sandbox: no shared network namespace (%s); one per call", exc)
            await channel.aclose()
            return False
        finally:
            os.close(read)
        channel.spawned()
        assert process.stdout is not None
        line = await asyncio.get_running_loop().run_in_executor(None, _ready_line, process)
        word, _, pid = line.partition(" ")
        if word != "ready" or not pid.strip().isdigit():
            _log.warning("sandbox: the shared network namespace did not start; one per call")
            _end(process)
            await channel.aclose()
            return False
        self._process, self._pid, self.channel = process, int(pid), channel
        if not await asyncio.get_running_loop().run_in_executor(None, self._enters):
            _log.warning("sandbox: a call cannot enter the shared network namespace; one per call")
            self.close()
            await channel.aclose()
            self.channel = None
            return False
        return True

    def _enters(self) -> bool:
        """Whether bubblewrap runs inside the namespace on this machine (a user whose
        capabilities there bubblewrap refuses would fail every call)."""
        probe = [
            *self.enter_argv(), self.bwrap, "--ro-bind", "/", "/", "--unshare-user",
            *self.identity_args(),
        ]  # fmt: skip
        try:
            done = subprocess.run(
                [*probe, "--", "true"],
                stdin=subprocess.DEVNULL,
                capture_output=True,
                timeout=_START_TIMEOUT,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired):
            return False
        return done.returncode == 0

    def enter_argv(self) -> list[str]:
        """The prefix that runs a command in the namespace (after :meth:`start`).

        Two steps, because an unprivileged user may enter a network namespace only from
        inside its user namespace: the first ``nsenter`` joins the user namespace (where
        this user is root), and the second, run as that root, joins the network one.
        """
        assert self._pid is not None
        pid = str(self._pid)
        return [
            self.nsenter, "-t", pid, "-U", "--preserve-credentials", "--",
            self.nsenter, "-t", pid, "-n", "--",
        ]  # fmt: skip

    @staticmethod
    def identity_args() -> list[str]:
        """bubblewrap options that give a call this user's own ids back (inside the
        namespace it would otherwise run as its root)."""
        return ["--uid", str(os.getuid()), "--gid", str(os.getgid())]

    async def aclose(self) -> None:
        """End the forwarder (idempotent)."""
        self.close()

    def close(self) -> None:
        """End the forwarder and reap it (idempotent); its channel ends with the proxy."""
        process, self._process, self._pid = self._process, None, None
        if process is not None:
            _end(process)


def _ready_line(process: subprocess.Popen[bytes]) -> str:
    """The forwarder's first line (``ready PID``), or "" when it said nothing in time."""
    assert process.stdout is not None
    ready, _, _ = select.select([process.stdout], [], [], _START_TIMEOUT)
    line = process.stdout.readline() if ready else b""
    process.stdout.close()
    return line.decode(errors="replace").strip()


def _end(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    if process.stdout is not None:
        process.stdout.close()
