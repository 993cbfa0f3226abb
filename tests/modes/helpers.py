"""Run the real ``hookline`` CLI as a subprocess: scripts, hooks, print runs and an RPC client.

Every child gets ``os.environ`` as the autouse ``isolated_home`` fixture left
it, so HOME and HOOKLINE_HOME point into the test's tmp folder.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

#: Generous: only a hung child ever reaches it.
TIMEOUT = 30.0
CLI = [sys.executable, "-m", "hookline.cli"]

Line = dict[str, Any]


def write_script(path: Path, turns: Sequence[Any]) -> str:
    """A scripted-model file (JSON is YAML too); returns the ``--model`` spec."""
    path.write_text(json.dumps({"turns": list(turns)}), encoding="utf-8")
    return f"scripted:{path}"


def write_hook(path: Path, body: str) -> Path:
    """A hook module file from dedented source."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(body).lstrip(), encoding="utf-8")
    return path


def run_cli(
    *args: str,
    cwd: Path | None = None,
    stdin: str | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """``hookline ARGS`` to the end, output captured as text."""
    return subprocess.run(
        [*CLI, *args],
        cwd=cwd,
        input=stdin if stdin is not None else "",
        capture_output=True,
        text=True,
        env=env if env is not None else os.environ.copy(),
        timeout=TIMEOUT,
        check=False,
    )


def json_lines(text: str) -> list[Line]:
    """Every non-empty line parsed (a non-JSON line fails the test with the line shown)."""
    out = []
    for line in text.splitlines():
        if line.strip():
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError as exc:  # pragma: no cover - failure path
                raise AssertionError(f"not a JSON line: {line!r}") from exc
    return out


def session_files(home: Path) -> list[Path]:
    """Every session file under ``$HOOKLINE_HOME/sessions``."""
    return sorted((home / ".hookline" / "sessions").rglob("*.jsonl"))


def read_jsonl(path: Path) -> list[Line]:
    """A session file's lines, each of which must be valid JSON."""
    return json_lines(path.read_text(encoding="utf-8"))


def types_of(lines: Sequence[Line]) -> list[str]:
    return [str(line.get("type")) for line in lines]


def assert_in_order(seen: Sequence[str], wanted: Sequence[str]) -> None:
    """``wanted`` is a subsequence of ``seen``."""
    rest = iter(seen)
    for name in wanted:
        assert any(name == s for s in rest), f"{name!r} missing or out of order in {seen}"


class RpcClient:
    """``hookline --mode rpc`` over asyncio pipes: send commands, read lines, answer UI."""

    def __init__(self, *args: str, cwd: Path | None = None) -> None:
        self.args = args
        self.cwd = cwd
        self.proc: asyncio.subprocess.Process | None = None
        #: Every line read so far, in order.
        self.seen: list[Line] = []
        self._ids = 0
        self._stderr: list[bytes] = []
        self._drain: asyncio.Task[None] | None = None

    async def __aenter__(self) -> RpcClient:
        self.proc = await asyncio.create_subprocess_exec(
            *CLI,
            "--mode",
            "rpc",
            *self.args,
            cwd=self.cwd,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=os.environ.copy(),
            limit=16 * 1024 * 1024,
        )
        self._drain = asyncio.create_task(self._read_stderr())
        return self

    async def _read_stderr(self) -> None:
        """Keep stderr flowing so the child never blocks on a full pipe."""
        stderr = self.process.stderr
        assert stderr is not None
        while chunk := await stderr.read(65536):
            self._stderr.append(chunk)

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        proc = self.proc
        if proc is not None and proc.returncode is None:
            proc.kill()
            await proc.wait()
        if self._drain is not None:
            await asyncio.wait_for(self._drain, TIMEOUT)

    @property
    def process(self) -> asyncio.subprocess.Process:
        assert self.proc is not None, "use `async with RpcClient(...)`"
        return self.proc

    async def send(self, message: Line | str) -> None:
        """One line on stdin (a dict is JSON-encoded, a str is sent as is)."""
        stdin = self.process.stdin
        assert stdin is not None
        text = message if isinstance(message, str) else json.dumps(message)
        stdin.write(text.encode() + b"\n")
        await stdin.drain()

    async def read(self) -> Line:
        """The next stdout line; EOF or a hang fails the test."""
        stdout = self.process.stdout
        assert stdout is not None
        raw = await asyncio.wait_for(stdout.readline(), TIMEOUT)
        if not raw:
            err = await self.stderr()
            raise AssertionError(f"rpc process closed stdout; stderr:\n{err}")
        line: Line = json.loads(raw)
        assert isinstance(line, dict) and isinstance(line.get("type"), str), line
        self.seen.append(line)
        return line

    async def read_until(self, match: Callable[[Line], bool]) -> list[Line]:
        """Lines up to and including the first that ``match`` accepts."""
        lines = []
        while True:
            line = await self.read()
            lines.append(line)
            if match(line):
                return lines

    async def command(self, message: Line) -> tuple[Line, list[Line]]:
        """Send a command with a fresh id; its response and every line before it."""
        self._ids += 1
        request_id = f"req-{self._ids}"
        await self.send({**message, "id": request_id})
        lines = await self.read_until(
            lambda m: m["type"] == "response" and m.get("id") == request_id
        )
        return lines[-1], lines[:-1]

    async def ok(self, message: Line) -> Any:
        """A command that must succeed; returns its ``data``."""
        response, _ = await self.command(message)
        assert response["success"] is True, response
        assert response["command"] == message["type"], response
        return response.get("data")

    async def prompt(self, message: str, **extra: Any) -> list[Line]:
        """A ``prompt`` run to its end: every line up to ``agent_end``, then idle.

        pi's ``prompt`` is answered at once and its events stream after; the
        run is over at ``agent_end`` and the agent idle once ``get_state``
        says ``isStreaming: false`` (polled: the last work after ``agent_end``
        runs alongside the next command).
        """
        self._ids += 1
        request_id = f"req-{self._ids}"
        await self.send({"type": "prompt", "message": message, "id": request_id, **extra})
        lines = await self.read_until(lambda m: m["type"] == "agent_end")
        answers = [m for m in lines if m["type"] == "response" and m.get("id") == request_id]
        assert answers and answers[0]["success"] is True, answers
        while (await self.ok({"type": "get_state"}))["isStreaming"]:
            pass
        return lines

    async def close_stdin(self) -> int:
        """EOF on stdin; the exit code once stdout is drained."""
        stdin = self.process.stdin
        assert stdin is not None
        stdin.close()
        stdout = self.process.stdout
        assert stdout is not None
        rest = await asyncio.wait_for(stdout.read(), TIMEOUT)
        self.seen.extend(json_lines(rest.decode()))
        return await asyncio.wait_for(self.process.wait(), TIMEOUT)

    async def stderr(self) -> str:
        """Everything the child wrote on stderr (waits for it to exit; kills it if running)."""
        if self.process.returncode is None:
            self.process.kill()
        await asyncio.wait_for(self.process.wait(), TIMEOUT)
        if self._drain is not None:
            await asyncio.wait_for(self._drain, TIMEOUT)
        return b"".join(self._stderr).decode()
