"""SSH: the built-in tools run on another machine.

The Python version of pi's ssh example. With ``--ssh user@host`` (or
``user@host:/remote/path``) the ``read``, ``write``, ``edit`` and ``bash`` tools, and the
user's own ``!commands``, run on that host over ``ssh``: each tool is the built-in one
made with ``operations=`` (``hookline.tools.operations``), so its parameters, limits and
messages stay and only the I/O moves. Local paths are mapped to the remote directory.
Without the flag the tools stay local.

Run it: ``hookline --hook examples/pi/ssh.py --ssh user@host:/srv/project``
(key-based ``ssh`` with no password prompt, and ``bash`` and ``base64`` on the host).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import dataclasses
import os
import shlex
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from hookline import (
    BeforeAgentStartEvent,
    BeforeAgentStartResult,
    HookAPI,
    HookContext,
    Tool,
    ToolResult,
    ToolUpdate,
    UserBashEvent,
    UserBashResult,
    create_bash_tool,
    create_edit_tool,
    create_read_tool,
    create_write_tool,
)


async def ssh_exec(host: str, command: str) -> bytes:
    """``ssh host command``'s output; ``OSError`` when it fails."""
    proc = await asyncio.create_subprocess_exec(
        "ssh",
        host,
        command,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await proc.communicate()
    if proc.returncode != 0:
        raise OSError(f"SSH failed ({proc.returncode}): {err.decode(errors='replace').strip()}")
    return out


@dataclass(frozen=True)
class Remote:
    """A directory on another host; read, write, edit and bash operations in one object."""

    host: str
    cwd: str
    local_cwd: str

    def path(self, local: str) -> str:
        return shlex.quote(local.replace(self.local_cwd, self.cwd, 1))

    async def read_file(self, path: str) -> bytes:
        return await ssh_exec(self.host, f"cat {self.path(path)}")

    async def access(self, path: str) -> None:
        await ssh_exec(self.host, f"test -r {self.path(path)}")

    async def write_file(self, path: str, content: str) -> None:
        data = base64.b64encode(content.encode()).decode()
        await ssh_exec(self.host, f"echo {data} | base64 -d > {self.path(path)}")

    async def mkdir(self, path: str) -> None:
        await ssh_exec(self.host, f"mkdir -p {self.path(path)}")

    async def exec(
        self,
        command: str,
        cwd: str,
        *,
        on_data: Callable[[bytes], None],
        signal: asyncio.Event | None,
        timeout: float | None,
        env: Mapping[str, str],
    ) -> int | None:
        proc = await asyncio.create_subprocess_exec(
            "ssh",
            self.host,
            f"cd {self.path(cwd)} && {command}",
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        assert proc.stdout is not None

        async def pump() -> None:
            assert proc.stdout is not None
            while chunk := await proc.stdout.read(65536):
                on_data(chunk)

        reading = asyncio.ensure_future(pump())
        stopping = asyncio.ensure_future(signal.wait() if signal else asyncio.Event().wait())
        try:
            await asyncio.wait({reading, stopping}, timeout=timeout, return_when="FIRST_COMPLETED")
        finally:
            stopping.cancel()
        if not reading.done():  # timed out or aborted: the connection is dropped
            reading.cancel()
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            await proc.wait()
            if signal is not None and signal.is_set():
                return None
            raise TimeoutError
        return await proc.wait()


def _via(local: Tool, remote: Callable[[], Remote | None], build: Callable[[Remote], Tool]) -> Tool:
    """``local`` that runs as ``build(remote)`` once a remote is set."""

    async def execute(
        tool_call_id: str,
        params: dict[str, Any],
        signal: asyncio.Event | None = None,
        on_update: ToolUpdate | None = None,
    ) -> ToolResult:
        where = remote()
        tool = local if where is None else build(where)
        return await tool.execute(tool_call_id, params, signal, on_update)

    return dataclasses.replace(local, execute=execute)


def register(pi: HookAPI) -> None:
    pi.register_flag("ssh", type="string", description="SSH remote: user@host or user@host:/path")
    local_cwd = os.getcwd()
    remote: Remote | None = None

    def current() -> Remote | None:
        return remote

    pi.register_tool(
        _via(
            create_read_tool(local_cwd),
            current,
            lambda r: create_read_tool(local_cwd, operations=r),
        )
    )
    pi.register_tool(
        _via(
            create_write_tool(local_cwd),
            current,
            lambda r: create_write_tool(local_cwd, operations=r),
        )
    )
    pi.register_tool(
        _via(
            create_edit_tool(local_cwd),
            current,
            lambda r: create_edit_tool(local_cwd, operations=r),
        )
    )
    pi.register_tool(
        _via(
            create_bash_tool(local_cwd),
            current,
            lambda r: create_bash_tool(local_cwd, operations=r),
        )
    )

    @pi.on("session_start")
    async def connect(event: Any, ctx: HookContext) -> None:
        nonlocal remote
        arg = pi.get_flag("ssh")
        if not isinstance(arg, str) or not arg:
            return
        host, _, path = arg.partition(":")
        if not path:  # no path given: the remote's home
            path = (await ssh_exec(host, "pwd")).decode().strip()
        remote = Remote(host, path, local_cwd)
        ctx.ui.set_status("ssh", ctx.ui.theme.fg("accent", f"SSH: {host}:{path}"))
        ctx.ui.notify(f"SSH mode: {host}:{path}", "info")

    @pi.on("user_bash")
    def user_bash(event: UserBashEvent, ctx: HookContext) -> UserBashResult | None:
        return None if remote is None else UserBashResult(operations=remote)

    @pi.on("before_agent_start")
    def prompt(event: BeforeAgentStartEvent, ctx: HookContext) -> BeforeAgentStartResult | None:
        if remote is None:
            return None
        where = f"Current working directory: {remote.cwd} (via SSH: {remote.host})"
        return BeforeAgentStartResult(
            system_prompt=event.system_prompt.replace(
                f"Current working directory: {local_cwd}", where
            )
            if local_cwd in event.system_prompt
            else f"{event.system_prompt}\n\n{where}"
        )
