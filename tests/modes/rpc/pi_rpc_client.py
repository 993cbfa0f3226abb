"""An RPC client written from pi's ``docs/rpc.md`` alone, for any agent that speaks it.

It knows nothing of hookline: commands with an ``id``, responses matched by
that ``id``, events streamed between, ``extension_ui_request`` dialogs answered
by a callback, LF-only framing (a trailing ``\\r`` stripped). The same client
drives ``hookline --mode rpc`` and the real ``pi --mode rpc``.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Callable, Mapping, Sequence
from types import TracebackType
from typing import Any

Line = dict[str, Any]
#: Answers a dialog request: the fields of the ``extension_ui_response`` (without type/id).
DialogAnswer = Callable[[Line], Mapping[str, Any]]
DIALOGS = ("select", "confirm", "input", "editor")


class PiRpcClient:
    """One agent process in RPC mode; every line it printed stays in ``lines``."""

    def __init__(
        self,
        argv: Sequence[str],
        *,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
        answer: DialogAnswer | None = None,
        timeout: float = 60.0,
    ) -> None:
        self.argv = list(argv)
        self.cwd = cwd
        self.env = dict(env) if env is not None else None
        self.answer = answer or (lambda request: {"cancelled": True})
        self.timeout = timeout
        self.lines: list[Line] = []
        self._ids = itertools.count(1)
        self._proc: asyncio.subprocess.Process | None = None
        self._new_line = asyncio.Condition()
        self._reader: asyncio.Task[None] | None = None
        self._stderr = bytearray()
        self._stderr_reader: asyncio.Task[None] | None = None
        self.closed = False

    async def __aenter__(self) -> PiRpcClient:
        self._proc = await asyncio.create_subprocess_exec(
            *self.argv,
            cwd=self.cwd,
            env=self.env,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            limit=64 * 1024 * 1024,
        )
        self._reader = asyncio.create_task(self._read())
        self._stderr_reader = asyncio.create_task(self._read_stderr())
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        proc = self._proc
        if proc is not None and proc.returncode is None:
            proc.kill()
            await proc.wait()
        for task in (self._reader, self._stderr_reader):
            if task is not None:
                await asyncio.wait_for(task, self.timeout)

    @property
    def stderr(self) -> str:
        return self._stderr.decode(errors="replace")

    async def _read_stderr(self) -> None:
        assert self._proc is not None and self._proc.stderr is not None
        while chunk := await self._proc.stderr.read(65536):
            self._stderr += chunk

    async def _read(self) -> None:
        """Split stdout on LF only; answer dialogs as they come; wake every waiter."""
        assert self._proc is not None and self._proc.stdout is not None
        buffer = b""
        while chunk := await self._proc.stdout.read(65536):
            buffer += chunk
            *records, buffer = buffer.split(b"\n")
            for record in records:
                await self._take(record)
        if buffer:
            await self._take(buffer)
        async with self._new_line:
            self.closed = True
            self._new_line.notify_all()

    async def _take(self, record: bytes) -> None:
        text = record.decode()
        if text.endswith("\r"):
            text = text[:-1]
        if not text.strip():
            return
        line = json.loads(text)
        if line.get("type") == "extension_ui_request" and line.get("method") in DIALOGS:
            reply = {"type": "extension_ui_response", "id": line["id"], **self.answer(line)}
            await self.send(reply)
        async with self._new_line:
            self.lines.append(line)
            self._new_line.notify_all()

    async def send(self, command: Mapping[str, Any]) -> None:
        assert self._proc is not None and self._proc.stdin is not None
        self._proc.stdin.write(json.dumps(command).encode() + b"\n")
        await self._proc.stdin.drain()

    async def wait_for(self, match: Callable[[Line], bool], start: int = 0) -> Line:
        """The first line from index ``start`` on that ``match`` accepts."""

        def found() -> Line | None:
            return next((x for x in self.lines[start:] if match(x)), None)

        async def wait() -> Line:
            async with self._new_line:
                while (line := found()) is None:
                    if self.closed:
                        raise AssertionError(f"agent closed stdout; stderr:\n{self.stderr}")
                    await self._new_line.wait()
                return line

        return await asyncio.wait_for(wait(), self.timeout)

    async def call(self, command_type: str, **fields: Any) -> Line:
        """Send a command and return its response (``success`` may be false)."""
        request_id = f"c{next(self._ids)}"
        start = len(self.lines)
        await self.send({"type": command_type, "id": request_id, **fields})
        return await self.wait_for(
            lambda x: x.get("type") == "response" and x.get("id") == request_id, start
        )

    async def ok(self, command_type: str, **fields: Any) -> Any:
        """A command that must succeed; its ``data``."""
        response = await self.call(command_type, **fields)
        assert response["success"] is True, response
        assert response["command"] == command_type, response
        return response.get("data")

    async def run(self, message: str, **fields: Any) -> list[Line]:
        """``prompt`` and wait for ``agent_end``; the lines the run printed."""
        start = len(self.lines)
        await self.ok("prompt", message=message, **fields)
        await self.wait_for(lambda x: x.get("type") == "agent_end", start)
        return self.lines[start:]

    def events(self, kind: str, start: int = 0) -> list[Line]:
        return [x for x in self.lines[start:] if x.get("type") == kind]
