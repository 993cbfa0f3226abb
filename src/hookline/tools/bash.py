"""The ``bash`` tool: ``bash -c COMMAND`` in the working directory, output tail to the model.

Runs through ``core.process.run_process`` (own process group, killed whole on
timeout or abort). The model gets the *tail* of the output (errors come last),
cleaned of terminal escape codes and carriage-return overdraws; when that was
cut, the output is in a temp file named by ``details["full_output_path"]``.

Limits, so that no command can exhaust the machine:

- **Timeout.** 2 minutes unless the call asks for more (``timeout``, seconds),
  up to 10 minutes; a larger request is clamped and the result says so. Both
  are read per call, as Claude Code reads them, from ``BASH_DEFAULT_TIMEOUT_MS``
  and ``BASH_MAX_TIMEOUT_MS`` (milliseconds; the maximum is never below the
  default) in the command's environment.
- **Spill file.** At most ``spill_bytes`` (20 MB): the head and the tail are
  kept and the file says how much was cut between them. Spill files are
  deleted when the session ends (``leftovers``).
- **Background jobs.** The call returns when the shell exits: a backgrounded
  job (``server &``) gets a short grace to close the output pipes, then the
  output is no longer read (a job that keeps writing to them gets SIGPIPE:
  redirect its output, ``server > log 2>&1 &``). The job keeps running, as in
  Claude Code, until the session ends, when its process group is killed
  (``leftovers``); one that left the group with ``setsid`` is not.
- **Updates.** ``on_update`` is called at most ten times a second, each time
  with only the output that is *new* since the previous update (at most
  ``max_bytes`` of it; a flood's skipped part is marked), raw as the command
  wrote it. The final result carries the cleaned tail.

Error behaviour: a non-zero exit, a timeout or an abort raises ``ToolError``
whose message is the output plus ``Command exited with code N`` (or ``timed
out`` / ``aborted``) and whose ``details`` are the ``BashToolDetails``. The
agent turns a ``ToolError`` into an ``is_error`` tool result the model reads.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import inspect
import os
import re
import shutil
import tempfile
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING, Any

from hookline.core.messages import text
from hookline.core.process import ExecResult, group_alive, run_process
from hookline.core.tool import Tool, ToolError, ToolResult, ToolUpdate
from hookline.core.tool_params import parse_arguments
from hookline.tools.details import BashToolDetails
from hookline.tools.leftovers import ToolLeftovers, default_leftovers
from hookline.tools.schemas import params_ref
from hookline.tools.terminal import clean_terminal_output
from hookline.tools.truncation import (
    DEFAULT_MAX_BYTES,
    DEFAULT_MAX_LINES,
    TruncationResult,
    format_size,
    truncate_tail,
)

if TYPE_CHECKING:
    from rich.console import RenderableType

    from hookline.sandbox.launcher import Launch, Sandbox
    from hookline.sandbox.state import SandboxState
    from hookline.tools.operations import BashOperations

#: The parameter models' module, imported when a tool first runs or sends its schema.

DEFAULT_TIMEOUT_MS = 120_000
MAX_TIMEOUT_MS = 600_000
DEFAULT_SPILL_BYTES = 20 * 1024 * 1024
#: Seconds between two ``on_update`` calls, at least.
UPDATE_INTERVAL = 0.1
_INT_PREFIX = re.compile(r"\s*([+-]?\d+)")


@dataclass(slots=True)
class BashSpawnContext:
    """What a spawn hook may rewrite just before the shell starts (transparent to the agent)."""

    command: str
    cwd: str
    env: dict[str, str] = field(default_factory=dict)


BashSpawnHook = Callable[[BashSpawnContext], "BashSpawnContext | Awaitable[BashSpawnContext]"]


def _env_ms(env: Mapping[str, str], key: str) -> int | None:
    """A positive integer prefix of ``env[key]`` (as JavaScript's ``parseInt``), else None."""
    match = _INT_PREFIX.match(env.get(key, ""))
    value = int(match.group(1)) if match else 0
    return value if value > 0 else None


def bash_timeouts(env: Mapping[str, str]) -> tuple[float, float]:
    """The default and the maximum timeout in seconds, from ``BASH_DEFAULT_TIMEOUT_MS`` and
    ``BASH_MAX_TIMEOUT_MS`` (2 and 10 minutes when unset or invalid; max >= default)."""
    default = _env_ms(env, "BASH_DEFAULT_TIMEOUT_MS") or DEFAULT_TIMEOUT_MS
    maximum = max(_env_ms(env, "BASH_MAX_TIMEOUT_MS") or MAX_TIMEOUT_MS, default)
    return default / 1000, maximum / 1000


def _description(env: Mapping[str, str]) -> str:
    default, maximum = bash_timeouts(env)
    return (
        "Execute a bash command in the current working directory. Returns stdout and stderr "
        f"combined. Output is truncated to the last {DEFAULT_MAX_LINES} lines or "
        f"{DEFAULT_MAX_BYTES // 1024}KB (whichever is hit first); the full output is then "
        f"saved to a temp file. Times out after {default:g} seconds unless you give a "
        f"timeout in seconds (at most {maximum:g}). A non-zero exit code is an error. A "
        "backgrounded job (cmd &) keeps running until the session ends; redirect its output "
        "to a file."
    )


class _Bounded:
    """The newest bytes of a stream, at least ``limit`` of them once that many came."""

    __slots__ = ("chunks", "dropped", "limit", "size")

    def __init__(self, limit: int) -> None:
        self.chunks: deque[bytes] = deque()
        self.size = 0
        self.dropped = 0
        self.limit = limit

    def add(self, data: bytes, *, exact: bool = False) -> None:
        self.chunks.append(data)
        self.size += len(data)
        while self.chunks and self.size - len(self.chunks[0]) >= self.limit:
            self._drop(len(self.chunks[0]))
        if exact and self.size > self.limit:
            self._drop(self.size - self.limit)

    def _drop(self, n: int) -> None:
        first = self.chunks.popleft()
        if n < len(first):
            self.chunks.appendleft(first[n:])
        self.size -= n
        self.dropped += n

    def take(self) -> bytes:
        data = b"".join(self.chunks)
        self.chunks.clear()
        self.size = 0
        return data

    def peek(self) -> bytes:
        return b"".join(self.chunks)


class _Output:
    """Counts the whole stream, keeps a tail for the model, spills to a capped file.

    The spill file gets the first half of ``spill_bytes`` as it comes; the last
    half is kept in memory and appended when the command ends, after a line
    saying how much was cut between them.
    """

    def __init__(self, max_bytes: int, spill_bytes: int, leftovers: ToolLeftovers) -> None:
        self.max_bytes = max_bytes
        self.recent = _Bounded(2 * max_bytes)
        self.total = 0
        self.newlines = 0
        self.last = b""
        self.head_room = spill_bytes - spill_bytes // 2
        self.tail = _Bounded(spill_bytes // 2)
        self.file: IO[bytes] | None = None
        self.path: str | None = None
        self.leftovers = leftovers
        #: why the spill file could not be written (disk full ...); then there is none
        self.failed: str | None = None

    def feed(self, data: bytes) -> None:
        self.total += len(data)
        self.newlines += data.count(b"\n")
        self.last = data[-1:]
        if self.file is not None:
            self._spill(data)
        elif self.total > self.max_bytes and self.failed is None:
            self._open(self.recent.peek() + data)  # nothing was dropped from recent yet
        self.recent.add(data)

    def _open(self, data: bytes) -> None:
        try:
            fd, self.path = tempfile.mkstemp(prefix="hookline-bash-", suffix=".log")
        except OSError as exc:
            self.failed = exc.strerror or str(exc)
            return
        self.leftovers.add_file(self.path)
        self.file = os.fdopen(fd, "wb")
        self._spill(data)

    def _spill(self, data: bytes) -> None:
        assert self.file is not None
        if self.head_room > 0:
            piece = data[: self.head_room]
            self._write(piece)
            self.head_room -= len(piece)
            data = data[len(piece) :]
        if data:
            self.tail.add(data, exact=True)

    def _write(self, data: bytes) -> None:
        """Write to the spill file; a failure (disk full) drops the file, never the output."""
        try:
            if self.file is not None:
                self.file.write(data)
        except OSError as exc:
            self.failed = exc.strerror or str(exc)
            self.discard()
            self.file = self.path = None

    @property
    def cut(self) -> int:
        """Bytes left out of the spill file (between its head and its tail)."""
        return self.tail.dropped

    @property
    def total_lines(self) -> int:
        return self.newlines + (1 if self.total and self.last != b"\n" else 0)

    def shown(self) -> tuple[str, TruncationResult]:
        """The cleaned tail the model sees, with totals of the whole stream."""
        raw = self.recent.peek().decode("utf-8", errors="replace")
        shown, trunc = truncate_tail(clean_terminal_output(raw), max_bytes=self.max_bytes)
        trunc["total_lines"] = self.total_lines
        trunc["total_bytes"] = self.total
        if self.recent.dropped:
            trunc["truncated"] = True
            trunc["truncated_by"] = trunc["truncated_by"] or "bytes"
        return shown, trunc

    def discard(self) -> None:
        if self.file is not None:
            with contextlib.suppress(OSError):  # flushing into a full disk
                self.file.close()
        if self.path is not None:
            self.leftovers.discard_file(self.path)

    def finish(self, keep: bool) -> str | None:
        """Close the spill file (its tail and the cut noted); write one now if the model's
        text was cut but the output never spilled. None when not kept or not written."""
        if not keep:
            self.discard()
            return None
        if self.file is None and self.failed is None:
            self._open(self.recent.peek())
        if self.cut:
            self._write(
                f"\n\n[... {format_size(self.cut)} of output cut here: this file keeps the "
                f"first and the last part of {format_size(self.total)} ...]\n\n".encode()
            )
        self._write(self.tail.take())
        if self.file is not None:
            try:
                self.file.close()
            except OSError as exc:  # the last buffered write failed
                self.failed = exc.strerror or str(exc)
                self.discard()
                self.file = self.path = None
        return self.path


class _Updates:
    """Coalesces streamed output into at most one ``on_update`` per ``interval``, each
    carrying only the output that is new since the one before (its newest ``limit`` bytes)."""

    def __init__(self, on_update: ToolUpdate, limit: int, interval: float = UPDATE_INTERVAL):
        self.on_update = on_update
        self.pending = _Bounded(limit)
        self.interval = interval
        self.loop = asyncio.get_running_loop()
        self.last = -interval
        self.timer: asyncio.TimerHandle | None = None
        self.decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self.closed = False

    def feed(self, data: bytes) -> None:
        if self.closed:
            return
        self.pending.add(data, exact=True)
        if self.timer is None:
            delay = max(0.0, self.last + self.interval - self.loop.time())
            self.timer = self.loop.call_later(delay, self.flush)

    def flush(self) -> None:
        self.timer = None
        if not self.pending.size:
            return
        skipped, self.pending.dropped = self.pending.dropped, 0
        if skipped:
            self.decoder.reset()  # the cut may have split a character
        body = self.decoder.decode(self.pending.take())
        if skipped:
            body = f"[... {format_size(skipped)} of output skipped ...]\n{body}"
        self.last = self.loop.time()
        if body:
            self.on_update(ToolResult([text(body)], {"exit_code": None}))

    def close(self, *, send: bool = True) -> None:
        """Send what is pending (unless not ``send``); nothing is sent after this."""
        if self.timer is not None:
            self.timer.cancel()
        if send:
            self.flush()
        self.closed = True


def _notice(trunc: TruncationResult, path: str | None, cut: int, failed: str | None) -> str:
    end = trunc["total_lines"]
    start = end - trunc["output_lines"] + 1
    where = f"Full output: {path}" if path else "Full output not saved"
    if failed:
        where = f"Full output not saved ({failed})"
    if path and cut:
        where = f"Output (its middle {format_size(cut)} cut): {path}"
    if trunc["last_line_partial"]:
        shown = format_size(trunc["output_bytes"])
        return f"[Showing last {shown} of line {end}. {where}]"
    limit = (
        "" if trunc["truncated_by"] == "lines" else f" ({format_size(trunc['max_bytes'])} limit)"
    )
    return f"[Showing lines {start}-{end} of {end}{limit}. {where}]"


async def _spawn(hook: BashSpawnHook | None, ctx: BashSpawnContext) -> BashSpawnContext:
    if hook is None:
        return ctx
    out = hook(ctx)
    if inspect.isawaitable(out):
        out = await out
    if not isinstance(out, BashSpawnContext):
        raise ToolError(f"bash: spawn hook returned {type(out).__name__}, not BashSpawnContext")
    return out


def create_bash_tool(
    cwd: str,
    spawn_hook: BashSpawnHook | None = None,
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    spill_bytes: int = DEFAULT_SPILL_BYTES,
    leftovers: ToolLeftovers | None = None,
    sandbox: SandboxState | Sandbox | None = None,
    operations: BashOperations | None = None,
) -> Tool:
    """The ``bash`` tool for ``cwd``; ``spawn_hook`` rewrites command/cwd/env before spawning.

    ``operations`` runs the command somewhere else (``hookline.tools.operations``): the
    spawn hook, timeouts, truncation and spill file apply as they do locally; the
    sandbox (a local one) does not.

    Background jobs and spill files are handed to ``leftovers`` (the process-wide
    ``default_leftovers`` unless given), whose ``close()`` ends them. With ``sandbox``
    each call asks it where to run — in the sandbox unless the policy in force then says
    otherwise (off, ``excludedCommands``, ``dangerouslyDisableSandbox``); a bare
    ``Sandbox`` is used for good. Its private folders go with ``leftovers``.
    """
    owner = leftovers if leftovers is not None else default_leftovers
    state = _state(sandbox)
    if state is not None:
        owner.add_closer(state.close)

    async def execute(
        tool_call_id: str,
        params: dict[str, Any],
        signal: asyncio.Event | None = None,
        on_update: ToolUpdate | None = None,
    ) -> ToolResult:
        from hookline.tools.params import BashParams  # pydantic: on first call

        args = parse_arguments("bash", BashParams, params)
        command, asked = args.command, args.timeout
        if signal is not None and signal.is_set():
            raise ToolError("Command aborted", {"exit_code": None, "aborted": True})
        ctx = await _spawn(spawn_hook, BashSpawnContext(command, cwd, dict(os.environ)))
        if operations is None and not os.path.isdir(ctx.cwd):
            raise ToolError(f"bash: working directory {ctx.cwd} does not exist")
        default, maximum = bash_timeouts(ctx.env)
        timeout = default if asked is None else min(asked, maximum)
        notes = []
        if asked is not None and asked > maximum:
            notes.append(
                f"[timeout {asked:g}s is above the maximum of {maximum:g}s "
                f"(BASH_MAX_TIMEOUT_MS); the command ran with {maximum:g}s]"
            )

        out = _Output(max_bytes, spill_bytes, owner)
        updates = _Updates(on_update, max_bytes) if on_update is not None else None

        def stream(data: bytes) -> None:
            out.feed(data)
            if updates is not None:
                updates.feed(data)

        shell = shutil.which("bash") or "/bin/sh"
        box = state.sandbox_for(params) if state is not None and operations is None else None
        boxed = box is not None
        try:
            async with _launch(box, [shell, "-c", ctx.command], ctx) as go:
                if operations is not None:
                    res = await _run_through(operations, ctx, stream, signal, timeout)
                else:
                    res = await run_process(
                        go.argv,
                        cwd=ctx.cwd,
                        env=go.env,
                        timeout=timeout,
                        signal=signal,
                        max_output=0,
                        merge_stderr=True,
                        on_stdout=stream,
                        keep_group=True,
                        pass_fds=go.pass_fds,
                        on_spawn=go.spawned,
                    )
        except OSError as exc:  # the sandbox could not be prepared
            if updates is not None:
                updates.close(send=False)
            out.discard()
            raise ToolError(f"bash: the sandbox could not be prepared: {exc}") from None
        except BaseException:  # cancelled: the group is killed, drop the spill file
            if updates is not None:
                updates.close(send=False)
            out.discard()
            raise
        if updates is not None:
            updates.close()
        if res.error is not None:
            out.discard()
            raise ToolError(f"bash: could not start the shell: {res.error}")
        if res.pid is not None and not res.killed and group_alive(res.pid):
            owner.add_group(res.pid)
            notes.append(
                "[Background processes are still running; their output is not captured "
                "(redirect it to a file). They are stopped when the session ends.]"
            )

        shown, trunc = out.shown()
        details: BashToolDetails = {"exit_code": None if res.killed else res.code}
        if boxed:
            details["sandboxed"] = True
        body = shown
        path = out.finish(trunc["truncated"])
        if trunc["truncated"]:
            details["truncation"] = trunc
            if path is not None:
                details["full_output_path"] = path
                if out.cut:
                    details["full_output_cut_bytes"] = out.cut
            body = f"{shown}\n\n{_notice(trunc, path, out.cut, out.failed)}"
        refused = list(go.refused)
        if box is not None:
            from hookline.sandbox.launcher import refused_writes

            writes = refused_writes(out.recent.peek().decode("utf-8", errors="replace"))
            writes += go.undone
            box.report(writes)
            refused += writes
        if refused:
            details["sandbox_violations"] = [_violation(d) for d in refused]
            notes.append(_violations_note(refused))
        if notes:
            body = _join(body, "\n".join(notes))

        if res.timed_out:
            details["timed_out"] = True
            raise ToolError(_join(body, f"Command timed out after {timeout:g} seconds"), details)
        if res.killed:
            details["aborted"] = True
            raise ToolError(_join(body, "Command aborted"), details)
        if res.code != 0:
            raise ToolError(_join(body, f"Command exited with code {res.code}"), details)
        return ToolResult([text(body or "(no output)")], details)

    description = _description(os.environ)
    if state is not None and state.sandbox is not None:  # what the model is told at start
        description += _sandbox_description(state.sandbox)
    meta: dict[str, Any] = {"render_preview": _preview_call}
    if state is not None and operations is None:  # its calls run in this sandbox
        meta["sandbox"] = state
    return Tool("bash", description, params_ref("BashParams"), execute, label="bash", meta=meta)


async def _run_through(
    ops: BashOperations,
    ctx: BashSpawnContext,
    stream: Callable[[bytes], None],
    signal: asyncio.Event | None,
    timeout: float,
) -> ExecResult:
    """The command run by ``ops``, as ``run_process`` would report it (no local process)."""
    try:
        code = await ops.exec(
            ctx.command, ctx.cwd, on_data=stream, signal=signal, timeout=timeout, env=ctx.env
        )
    except TimeoutError:
        return ExecResult("", "", None, killed=True, timed_out=True)
    except ToolError:
        raise
    except Exception as exc:
        if signal is not None and signal.is_set():
            return ExecResult("", "", None, killed=True)
        raise ToolError(f"bash: {exc}") from exc
    aborted = signal is not None and signal.is_set()
    return ExecResult("", "", None if aborted else code, killed=aborted or code is None)


def _preview_call(args: dict[str, Any], options: dict[str, Any]) -> RenderableType:
    """The whole command line and the simple commands the permission rules saw in it
    (``hookline.shell.parse_command``, as they read it)."""
    from hookline.shell import parse_command  # tree-sitter: loaded for the rules already
    from hookline.tools._preview import command_preview

    command = str(args.get("command", ""))
    return command_preview(command, parse_command(command))


def _state(sandbox: SandboxState | Sandbox | None) -> SandboxState | None:
    if sandbox is None:
        return None
    from hookline.sandbox.state import SandboxState  # light: no sandbox machinery

    return sandbox if isinstance(sandbox, SandboxState) else SandboxState.fixed(sandbox)


@contextlib.asynccontextmanager
async def _launch(
    sandbox: Sandbox | None, argv: list[str], ctx: BashSpawnContext
) -> AsyncIterator[Launch]:
    """How to start the shell: under the sandbox, or as it is."""
    from hookline.sandbox.launcher import Launch  # light, and only on a bash call

    if sandbox is None:
        yield Launch(argv, ctx.env)
        return
    async with sandbox.launch(argv, cwd=ctx.cwd, env=ctx.env) as launch:
        yield launch


def _sandbox_description(sandbox: Sandbox) -> str:
    text = (
        " Commands run in a sandbox: they may write only in the working directories and "
        "$TMPDIR, some project files are read-only or hidden, the network is filtered, and "
        "background jobs end when the command does."
    )
    if sandbox.config.allow_unsandboxed:
        text += (
            " When the sandbox blocks something a command needs, you may retry it with "
            "dangerouslyDisableSandbox: true; the user is then asked."
        )
    return text


def _violation(decision: Any) -> dict[str, Any]:
    from hookline.sandbox.launcher import violation_fields

    return violation_fields(decision)


def _violations_note(refused: list[Any]) -> str:
    lines = [
        f"network: connection to {d['host']}:{d['port']} refused ({d['reason']})"
        if d["kind"] == "network"
        else f"filesystem: {d['reason']}"
        for d in map(_violation, refused)
    ]
    return "<sandbox_violations>\n" + "\n".join(lines) + "\n</sandbox_violations>"


def _join(body: str, status: str) -> str:
    body = body.rstrip("\n")
    return f"{body}\n\n{status}" if body else status
