"""Run a child process safely: own process group, bounded output, kill the whole group.

Measured (DESIGN.md §7): only ``start_new_session=True`` plus ``killpg`` ends a
hook whose grandchild holds the pipes; ``subprocess.run(timeout=)`` orphans it.
Every subprocess hookline starts (``ctx.exec``, the bash tool, command hooks)
goes through here.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal as _signal
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

DEFAULT_MAX_OUTPUT = 10 * 1024 * 1024
_CHUNK = 64 * 1024


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
            self.callback(data)
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


async def _pump(stream: asyncio.StreamReader | None, sink: _Sink) -> None:
    if stream is None:
        return
    while True:
        data = await stream.read(_CHUNK)
        if not data:
            return
        sink.feed(data)


def kill_group(pid: int) -> None:
    """SIGKILL the process group led by ``pid``; gone already is fine."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, _signal.SIGKILL)


async def _settle(work: asyncio.Future[None], proc: asyncio.subprocess.Process) -> None:
    """Wait for a killed group's pipes to close; a child that left the group
    and still holds them is not waited for."""
    done, _ = await asyncio.wait({work}, timeout=2.0)
    if not done:
        work.cancel()
        with contextlib.suppress(BaseException):
            await work
        with contextlib.suppress(ProcessLookupError):
            proc.kill()
        await proc.wait()


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
) -> ExecResult:
    """Run ``argv`` in a new session; never raises for the child's behaviour.

    ``timeout`` (seconds) or ``signal`` (an ``asyncio.Event``) kill the whole
    process group. Output beyond ``max_output`` bytes per stream is counted
    but not kept; undecodable bytes are replaced.
    """
    try:
        proc = await asyncio.create_subprocess_exec(
            *argv,
            cwd=cwd,
            env=dict(env) if env is not None else None,
            stdin=asyncio.subprocess.PIPE if input is not None else asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT if merge_stderr else asyncio.subprocess.PIPE,
            start_new_session=True,
        )
    except OSError as exc:
        return ExecResult(stdout="", stderr=str(exc), code=None, error=str(exc))

    out = _Sink(max_output, on_stdout)
    err = _Sink(max_output, None)

    async def feed_stdin() -> None:
        if proc.stdin is None or input is None:
            return
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            proc.stdin.write(input)
            await proc.stdin.drain()
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            proc.stdin.close()

    async def finish() -> None:
        await asyncio.gather(feed_stdin(), _pump(proc.stdout, out), _pump(proc.stderr, err))
        await proc.wait()

    work = asyncio.ensure_future(finish())
    waiters: set[asyncio.Future[Any]] = {work}
    abort: asyncio.Future[Any] | None = None
    if signal is not None:
        abort = asyncio.ensure_future(signal.wait())
        waiters.add(abort)
    killed = timed_out = False
    try:
        done, _ = await asyncio.wait(waiters, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        if work not in done:
            killed = True
            timed_out = abort is None or abort not in done
            kill_group(proc.pid)
            await _settle(work, proc)
    except asyncio.CancelledError:
        kill_group(proc.pid)
        with contextlib.suppress(BaseException):
            await asyncio.shield(work)
        raise
    finally:
        if abort is not None:
            abort.cancel()
    return ExecResult(
        stdout=out.text(),
        stderr=err.text(),
        code=proc.returncode,
        killed=killed,
        timed_out=timed_out,
        stdout_bytes=out.total,
        stderr_bytes=err.total,
        stdout_truncated=out.truncated,
        stderr_truncated=err.truncated,
    )
