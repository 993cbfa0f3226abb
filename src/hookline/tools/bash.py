"""The ``bash`` tool: ``bash -c COMMAND`` in the working directory, output tail to the model.

Runs through ``core.process.run_process`` (own process group, killed whole on
timeout or abort). Output is streamed to ``on_update``; the model gets the
*tail* (errors come last), and when that was cut the whole output is in a
temp file named by ``details["full_output_path"]``.

Error behaviour: a non-zero exit, a timeout or an abort raises ``ToolError``
whose message is the output plus ``Command exited with code N`` (or ``timed
out`` / ``aborted``) and whose ``details`` are the ``BashToolDetails``. The
agent turns a ``ToolError`` into an ``is_error`` tool result the model reads.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import os
import shutil
import tempfile
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import IO, Any

from hookline.core.messages import text
from hookline.core.process import run_process
from hookline.core.tool import Tool, ToolError, ToolResult, ToolUpdate
from hookline.tools._params import optional_number, require_str
from hookline.tools.details import BashToolDetails
from hookline.tools.truncation import (
    DEFAULT_MAX_BYTES,
    DEFAULT_MAX_LINES,
    TruncationResult,
    format_size,
    truncate_tail,
)


@dataclass(slots=True)
class BashSpawnContext:
    """What a spawn hook may rewrite just before the shell starts (transparent to the agent)."""

    command: str
    cwd: str
    env: dict[str, str] = field(default_factory=dict)


BashSpawnHook = Callable[[BashSpawnContext], "BashSpawnContext | Awaitable[BashSpawnContext]"]

_DESCRIPTION = (
    "Execute a bash command in the current working directory. Returns stdout and stderr "
    f"combined. Output is truncated to the last {DEFAULT_MAX_LINES} lines or "
    f"{DEFAULT_MAX_BYTES // 1024}KB (whichever is hit first); the full output is then saved "
    "to a temp file. Optionally give a timeout in seconds. A non-zero exit code is an error."
)

_PARAMETERS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "command": {"type": "string", "description": "Bash command to execute"},
        "timeout": {"type": "number", "description": "Timeout in seconds (optional)"},
    },
    "required": ["command"],
    "additionalProperties": False,
}


class _Output:
    """Collects streamed output: counts it all, keeps a tail, spills to a file when large."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.chunks: deque[bytes] = deque()
        self.kept = 0
        self.total = 0
        self.newlines = 0
        self.last = b""
        self.file: IO[bytes] | None = None
        self.path: str | None = None

    def feed(self, data: bytes) -> None:
        self.total += len(data)
        self.newlines += data.count(b"\n")
        self.last = data[-1:]
        if self.file is None and self.total > self.max_bytes:
            self._open()
        if self.file is not None:
            self.file.write(data)
        self.chunks.append(data)
        self.kept += len(data)
        # drop old chunks only once they are safe in the file; keep > 2x the limit
        while self.file is not None and self.kept - len(self.chunks[0]) > 2 * self.max_bytes:
            self.kept -= len(self.chunks.popleft())

    def _open(self) -> None:
        fd, self.path = tempfile.mkstemp(prefix="hookline-bash-", suffix=".log")
        self.file = os.fdopen(fd, "wb")
        for chunk in self.chunks:
            self.file.write(chunk)

    def text(self) -> str:
        return b"".join(self.chunks).decode("utf-8", errors="replace")

    @property
    def total_lines(self) -> int:
        return self.newlines + (1 if self.total and self.last != b"\n" else 0)

    def tail(self) -> tuple[str, TruncationResult]:
        """The tail the model sees, with totals of the whole stream."""
        shown, trunc = truncate_tail(self.text(), max_bytes=self.max_bytes)
        trunc["total_lines"] = self.total_lines
        trunc["total_bytes"] = self.total
        if self.total > self.kept:
            trunc["truncated"] = True
            trunc["truncated_by"] = trunc["truncated_by"] or "bytes"
        return shown, trunc

    def discard(self) -> None:
        if self.file is not None:
            self.file.close()
        if self.path is not None:
            with contextlib.suppress(OSError):
                os.unlink(self.path)

    def finish(self, truncated: bool) -> str | None:
        """Close the spill file; write one now if the cut output never spilled."""
        if truncated and self.file is None:
            self._open()
        if self.file is not None:
            self.file.close()
        return self.path


def _notice(trunc: TruncationResult, path: str | None) -> str:
    end = trunc["total_lines"]
    start = end - trunc["output_lines"] + 1
    where = f"Full output: {path}" if path else "Full output not saved"
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
) -> Tool:
    """The ``bash`` tool for ``cwd``; ``spawn_hook`` rewrites command/cwd/env before spawning."""

    async def execute(
        tool_call_id: str,
        params: dict[str, Any],
        signal: asyncio.Event | None = None,
        on_update: ToolUpdate | None = None,
    ) -> ToolResult:
        command = require_str("bash", params, "command", empty_ok=False)
        timeout = optional_number("bash", params, "timeout")
        if signal is not None and signal.is_set():
            raise ToolError("Command aborted", {"exit_code": None, "aborted": True})
        ctx = await _spawn(spawn_hook, BashSpawnContext(command, cwd, dict(os.environ)))
        if not os.path.isdir(ctx.cwd):
            raise ToolError(f"bash: working directory {ctx.cwd} does not exist")

        out = _Output(max_bytes)

        def stream(data: bytes) -> None:
            out.feed(data)
            if on_update is not None:
                shown, _ = truncate_tail(out.text(), max_bytes=max_bytes)
                on_update(ToolResult([text(shown)], {"exit_code": None}))

        shell = shutil.which("bash") or "/bin/sh"
        try:
            res = await run_process(
                [shell, "-c", ctx.command],
                cwd=ctx.cwd,
                env=ctx.env,
                timeout=timeout,
                signal=signal,
                max_output=0,
                merge_stderr=True,
                on_stdout=stream,
            )
        except BaseException:  # cancelled: the group is killed, drop the spill file
            out.discard()
            raise
        if res.error is not None:
            out.discard()
            raise ToolError(f"bash: could not start the shell: {res.error}")

        shown, trunc = out.tail()
        details: BashToolDetails = {"exit_code": None if res.killed else res.code}
        body = shown
        path = out.finish(trunc["truncated"])
        if trunc["truncated"]:
            details["truncation"] = trunc
            if path is not None:
                details["full_output_path"] = path
            body = f"{shown}\n\n{_notice(trunc, path)}"
        elif path is not None:  # spilled but shown whole: no need to keep it
            os.unlink(path)

        if res.timed_out:
            details["timed_out"] = True
            raise ToolError(_join(body, f"Command timed out after {timeout:g} seconds"), details)
        if res.killed:
            details["aborted"] = True
            raise ToolError(_join(body, "Command aborted"), details)
        if res.code != 0:
            raise ToolError(_join(body, f"Command exited with code {res.code}"), details)
        return ToolResult([text(body or "(no output)")], details)

    return Tool("bash", _DESCRIPTION, _PARAMETERS, execute, label="bash")


def _join(body: str, status: str) -> str:
    body = body.rstrip("\n")
    return f"{body}\n\n{status}" if body else status
