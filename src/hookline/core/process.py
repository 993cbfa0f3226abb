"""Run a child process safely: own process group, bounded output, kill the whole group.

Measured on this code base's machines: only ``start_new_session=True`` plus ``killpg`` ends a
hook whose grandchild holds the pipes; ``subprocess.run(timeout=)`` orphans it.
Every subprocess hookline starts (``ctx.exec``, the bash tool, command hooks)
goes through here.

The process is judged by its own exit: once it has exited, its output pipes
get ``pipe_grace`` seconds to close. A background child that still holds them
(``notify-send … &``, ``sleep 30 &``) does not hold up the result: the group is
killed (or, with ``keep_group``, left to the caller) and the output read so far
is used. A child that called ``setsid`` has left the group on purpose and is
not killed; it only costs the grace.

Pipes are read through a ``SubprocessProtocol`` and the transport is always
closed before ``run_process`` returns, so nothing is left for the garbage
collector to close after the event loop is gone.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal as _signal
import subprocess
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

DEFAULT_MAX_OUTPUT = 10 * 1024 * 1024
#: How long the pipes may stay open after the process exited (seconds).
DEFAULT_PIPE_GRACE = 0.2
#: How long a SIGKILLed process may take to be reaped before it is given up on.
_KILL_WAIT = 2.0


@dataclass(slots=True)
class ExecResult:
    """What a finished (or killed) process left."""

    stdout: str
    stderr: str
    code: int | None
    killed: bool = False
    timed_out: bool = False
    stdout_bytes: int = 0
    stderr_bytes: int = 0
    stdout_truncated: bool = False
    stderr_truncated: bool = False
    error: str | None = None  # could not start (missing program, bad cwd)
    #: the pid, which is also the process group id (None when it never started)
    pid: int | None = None
    #: the process had exited but something still held its output pipes past the grace
    pipes_held: bool = False


class _Sink:
    """Keeps at most ``limit`` bytes, counts all of them."""

    __slots__ = ("callback", "chunks", "kept", "limit", "total")

    def __init__(self, limit: int, callback: Callable[[bytes], None] | None) -> None:
        self.chunks: list[bytes] = []
        self.kept = 0
        self.total = 0
        self.limit = limit
        self.callback = callback

    def feed(self, data: bytes) -> None:
        self.total += len(data)
        if self.callback is not None:
            try:
                self.callback(data)
            except Exception:  # a broken listener must not break the read loop
                self.callback = None
        room = self.limit - self.kept
        if room > 0:
            piece = data[:room]
            self.chunks.append(piece)
            self.kept += len(piece)

    def text(self) -> str:
        return b"".join(self.chunks).decode("utf-8", errors="replace")

    @property
    def truncated(self) -> bool:
        return self.total > self.kept


class _Protocol(asyncio.SubprocessProtocol):
    """Feeds the sinks; tells when the process exited and when each output pipe closed."""

    def __init__(self, sinks: dict[int, _Sink]) -> None:
        loop = asyncio.get_running_loop()
        self.sinks = sinks
        self.exited: asyncio.Future[None] = loop.create_future()
        self.closed: dict[int, asyncio.Future[None]] = {fd: loop.create_future() for fd in sinks}

    def pipe_data_received(self, fd: int, data: bytes | bytearray) -> None:
        sink = self.sinks.get(fd)
        if sink is not None:
            sink.feed(bytes(data))

    def pipe_connection_lost(self, fd: int, exc: Exception | None) -> None:
        done = self.closed.get(fd)
        if done is not None and not done.done():
            done.set_result(None)

    def process_exited(self) -> None:
        if not self.exited.done():
            self.exited.set_result(None)

    async def pipes_closed(self, timeout: float) -> bool:
        """Wait up to ``timeout`` for every output pipe to close; True when they did."""
        pending = [f for f in self.closed.values() if not f.done()]
        if not pending:
            return True
        _, still = await asyncio.wait(pending, timeout=timeout)
        return not still


def kill_group(pid: int) -> None:
    """SIGKILL the process group led by ``pid``; gone already is fine."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, _signal.SIGKILL)


def group_alive(pid: int) -> bool:
    """True while any process is left in the group ``pid`` (zombies included)."""
    try:
        os.killpg(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _end_spawned(spawn: asyncio.Future[Any]) -> None:
    """A spawn whose caller was cancelled: kill the group it started, close its pipes."""
    if spawn.cancelled() or spawn.exception() is not None:
        return
    transport = spawn.result()[0]
    kill_group(transport.get_pid())
    transport.close()


async def run_process(
    argv: Sequence[str],
    *,
    cwd: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
    input: bytes | None = None,
    timeout: float | None = None,
    signal: asyncio.Event | None = None,
    max_output: int = DEFAULT_MAX_OUTPUT,
    merge_stderr: bool = False,
    on_stdout: Callable[[bytes], None] | None = None,
    pipe_grace: float = DEFAULT_PIPE_GRACE,
    keep_group: bool = False,
    pass_fds: Sequence[int] = (),
    on_spawn: Callable[[int], None] | None = None,
) -> ExecResult:
    """Run ``argv`` in a new session; never raises for the child's behaviour.

    ``timeout`` (seconds) or ``signal`` (an ``asyncio.Event``) kill the whole
    process group. Output beyond ``max_output`` bytes per stream is counted
    but not kept; undecodable bytes are replaced. When the process exits its
    group is killed after ``pipe_grace`` (its background children go with
    it) unless ``keep_group`` is true: then the rest of the group runs on and
    the caller owns it (``ExecResult.pid`` is the group id). ``pass_fds`` are
    inherited by the child; ``on_spawn(pid)`` is called once it started (the sandbox
    closes its copies of those descriptors then).
    """
    loop = asyncio.get_running_loop()
    out = _Sink(max_output, on_stdout)
    err = _Sink(max_output, None)
    sinks = {1: out} if merge_stderr else {1: out, 2: err}
    spawn = asyncio.ensure_future(
        loop.subprocess_exec(
            lambda: _Protocol(sinks),
            *argv,
            cwd=cwd,
            env=dict(env) if env is not None else None,
            stdin=subprocess.PIPE if input is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT if merge_stderr else subprocess.PIPE,
            start_new_session=True,
            pass_fds=tuple(pass_fds),
        )
    )
    try:
        # Shielded: asyncio's own clean-up of a spawn cancelled half-way waits for
        # the pipes to close, which a backgrounded grandchild can hold for ever.
        transport, proto = await asyncio.shield(spawn)
    except asyncio.CancelledError:
        spawn.add_done_callback(_end_spawned)
        raise
    except OSError as exc:
        return ExecResult(stdout="", stderr=str(exc), code=None, error=str(exc))

    pid = transport.get_pid()
    if on_spawn is not None:
        on_spawn(pid)
    killed = timed_out = held = False
    abort: asyncio.Future[Any] | None = None
    try:
        stdin = transport.get_pipe_transport(0)
        if input is not None and isinstance(stdin, asyncio.WriteTransport):
            stdin.write(input)  # buffered; a child that never reads loses it at close
            stdin.close()
        waiters: set[asyncio.Future[Any]] = {proto.exited}
        if signal is not None:
            abort = asyncio.ensure_future(signal.wait())
            waiters.add(abort)
        done, _ = await asyncio.wait(waiters, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        if proto.exited not in done:
            killed = True
            timed_out = abort is None or abort not in done
            kill_group(pid)
            await asyncio.wait({proto.exited}, timeout=_KILL_WAIT)
            await proto.pipes_closed(pipe_grace)  # a child outside the group may hold them
        else:
            held = not await proto.pipes_closed(pipe_grace)
            if not keep_group:
                kill_group(pid)
    except asyncio.CancelledError:
        kill_group(pid)
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait({proto.exited}, timeout=_KILL_WAIT)
        raise
    finally:
        if abort is not None:
            abort.cancel()
        transport.close()
    return ExecResult(
        stdout=out.text(),
        stderr=err.text(),
        code=transport.get_returncode(),
        killed=killed,
        timed_out=timed_out,
        stdout_bytes=out.total,
        stderr_bytes=err.total,
        stdout_truncated=out.truncated,
        stderr_truncated=err.truncated,
        pid=pid,
        pipes_held=held,
    )


async def exec_command(
    command: str,
    args: Sequence[str] = (),
    cwd: str | os.PathLike[str] | None = None,
    *,
    timeout: float | None = None,
    signal: asyncio.Event | None = None,
) -> ExecResult:
    """``command args...`` in ``cwd``: pi's ``execCommand``, what ``pi.exec`` runs.

    ``run_process`` with pi's arguments: the program and its arguments apart, no shell.
    """
    return await run_process([command, *args], cwd=cwd, timeout=timeout, signal=signal)
