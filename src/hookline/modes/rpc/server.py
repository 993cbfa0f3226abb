"""The RPC server: reads commands from stdin, runs each as a task, writes the lines out.

What the lines are is the package's affair (``hookline.modes.rpc``); here is
when things happen. Every command runs as its own task, so reading never
waits for one: an ``abort`` or a dialog answer is read while a prompt, a
hook or a dialog is still pending. The session's start (``session_start``
hooks) is such a task too, begun before the first line is read; other
commands wait for it. EOF closes every dialog with its no-UI value, so a
hook waiting on the host never holds the process. ``abort`` closes open
dialogs (``extension_ui_cancelled``, they resolve as cancelled), lets the run
end on the abort signal for ``ABORT_GRACE`` seconds, then cancels what is
still running (a hung hook).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Mapping
from typing import Any, TextIO

from hookline.agent.agent import Agent
from hookline.agent.model_catalog import ModelCatalog
from hookline.core.calling import HookError
from hookline.modes.print_mode import LineWriter, dumps
from hookline.modes.rpc.commands import ANSWERED, COMMANDS, Handler
from hookline.modes.rpc.events import PI_EVENTS, PiWire
from hookline.modes.rpc.protocol import Request, response
from hookline.modes.rpc.ui import RpcUI
from hookline.modes.rpc.wire import (
    MAX_LINE_BYTES,
    LineTooLong,
    open_stdin,
    parse_command,
    read_lines,
)

#: How long an aborted command may take to end on the abort signal before it is
#: cancelled, and again before a command that ignores cancellation is given up on.
ABORT_GRACE = 1.0
_ABORTED_TOOL = "Tool call aborted: the run was cancelled before the tool finished."


class RpcServer:
    """Reads commands, runs them on the agent, writes responses and events."""

    def __init__(
        self,
        agent: Agent,
        make_provider: Callable[[str], Any] | None = None,
        out: TextIO | None = None,
        catalog: ModelCatalog | None = None,
        *,
        all_events: bool = False,
    ) -> None:
        self.agent = agent
        #: Send hookline's own event lines too (``--rpc-events all``), not pi's alone.
        self.all_events = all_events
        self.make_provider = make_provider
        #: The models ``get_available_models`` lists and ``cycle_model`` goes through.
        self.catalog = catalog or ModelCatalog(os.environ)
        self._out = LineWriter(out)
        self.ui = RpcUI(self.write)
        agent.runner.set_ui(self.ui, True)
        self._wire = PiWire()
        agent.subscribe(self._publish)
        agent.runner.on_error(self._hook_error)
        #: Running commands and their type.
        self._tasks: dict[asyncio.Task[Any], str] = {}
        #: The stop signals of running ``bash`` commands (``abort_bash`` sets them).
        self.bash_signals: set[asyncio.Event] = set()
        #: Commands an abort gave up on (they ignored cancellation).
        self._abandoned: set[asyncio.Task[Any]] = set()
        #: The session's start (``session_start`` hooks): commands but ``abort`` wait for it.
        self._started: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._started.set_result(None)

    def write(self, payload: Mapping[str, Any]) -> None:
        self._out(dumps(payload))

    def _publish(self, payload: dict[str, Any]) -> None:
        for line in self._wire.lines(payload):
            if self.all_events or line["type"] in PI_EVENTS:
                self.write(line)

    def _hook_error(self, error: HookError) -> None:
        """A hook failed: pi's ``extension_error`` event (the run goes on)."""
        self.write(
            {
                "type": "extension_error",
                "extensionPath": error.hook_path,
                "event": error.event,
                "error": error.error,
            }
        )

    def respond(
        self, command: str, request_id: Any, data: Any = None, error: str | None = None
    ) -> None:
        self.write(response(command, request_id, data, error))

    async def serve(self, stdin: asyncio.StreamReader) -> int:
        """Read commands until EOF; the session starts alongside, so a ``session_start``
        dialog's answer, an ``abort`` and EOF are read while its hooks run."""
        self._started = asyncio.ensure_future(self.agent.start())
        self.track(self._started, "start")
        try:
            async for line in read_lines(stdin):
                if isinstance(line, LineTooLong):
                    self.respond(
                        "parse",
                        None,
                        error=f"line of {line.size} bytes is over the "
                        f"{MAX_LINE_BYTES // (1024 * 1024)} MiB limit; ignored",
                    )
                    continue
                text = line.decode("utf-8", errors="replace").strip()
                if text:
                    self.handle_line(text)
            # EOF: the host is gone; open and later dialogs answer as if there were no UI.
            self.ui.cancel_all()
            live = [t for t in self._tasks if t not in self._abandoned]
            if live:
                await asyncio.wait(live)
            if self._started.done() and not self._started.cancelled():
                self._started.result()  # a start-up that raised is the run's error
            if not self._abandoned:  # a run given up on never makes the agent idle
                await self.agent.wait_for_idle()
        except asyncio.CancelledError:
            # SIGTERM: stop the commands still running; the caller shuts the agent down.
            self.agent.abort()
            for task in list(self._tasks):
                task.cancel()
            if self._tasks:
                await asyncio.wait(list(self._tasks), timeout=ABORT_GRACE)
            raise
        finally:
            self.ui.cancel_all()
        await self.agent.shutdown("quit")
        return 0

    def handle_line(self, text: str) -> None:
        """Answer a dialog at once, or start the command as a task: never wait for one."""
        try:
            message = parse_command(text)
        except ValueError as exc:
            self.respond("parse", None, error=str(exc))
            return
        kind = message["type"]
        if kind == "extension_ui_response":
            error = self.ui.resolve(message)
            if error is not None:
                self.respond(kind, message.get("id"), error=error)
            return
        handler = COMMANDS.get(kind)
        if handler is None:
            self.respond(
                kind[:80],
                message.get("id"),
                error=f"unknown command {kind[:80]!r}; known: " + ", ".join(sorted(COMMANDS)),
            )
            return
        self.track(asyncio.ensure_future(self._run(kind, message, handler)), kind)

    def track(self, task: asyncio.Task[Any], kind: str) -> None:
        """A running command (or work it left running): abort and EOF wait for it."""
        self._tasks[task] = kind
        task.add_done_callback(self._forget)

    def _forget(self, task: asyncio.Task[Any]) -> None:
        self._tasks.pop(task, None)
        self._abandoned.discard(task)  # given up on, but it ended after all

    async def abort_running(self) -> dict[str, int]:
        """End every running command now, whatever it waits on.

        Open dialogs close as cancelled, the agent's abort signal stops the
        model and the tools; a command still running after ``ABORT_GRACE``
        (a hook that hangs) is cancelled, and one that ignores that too is
        given up on after another grace (its response says so).
        """
        me = asyncio.current_task()
        running = [t for t, kind in self._tasks.items() if t is not me and kind != "abort"]
        self.agent.abort()
        self.ui.refusing = True
        try:
            closed = self.ui.close_dialogs("abort")
            cancelled: set[asyncio.Task[Any]] = set()
            abandoned: set[asyncio.Task[Any]] = set()
            if running:
                _, cancelled = await asyncio.wait(running, timeout=ABORT_GRACE)
            for task in cancelled:
                task.cancel()
            if cancelled:
                _, abandoned = await asyncio.wait(cancelled, timeout=ABORT_GRACE)
            orphans = self.agent.runner.orphans  # never waited for at exit
            for task in abandoned:
                self._abandoned.add(task)
                orphans.add(task)
                task.add_done_callback(orphans.discard)
            if cancelled and not self.agent.is_streaming:
                self._close_cancelled_tool_calls()
        finally:
            self.ui.refusing = False
        return {
            "dialogsClosed": closed,
            "commandsCancelled": len(cancelled),
            "commandsAbandoned": len(abandoned),
        }

    def _close_cancelled_tool_calls(self) -> None:
        """A cancelled run may have left a tool call without result: answer it as aborted."""
        session = self.agent.session
        for entry_id in session.answer_open_tool_calls(_ABORTED_TOOL):
            entry = session.get_entry(entry_id)
            if entry is None or entry["type"] != "message":
                continue
            result = entry["message"]
            if result["role"] == "tool":
                self.agent.publish(
                    {
                        "type": "tool_execution_end",
                        "tool_name": result["tool_name"],
                        "tool_call_id": result["tool_call_id"],
                        # pi's AgentToolResult, as the agent publishes it
                        "result": {"content": result["content"], "details": None},
                        "result_text": _ABORTED_TOOL,
                        "is_error": True,
                    }
                )
            self.agent.publish({"type": "message", "message": result})

    async def _run(self, kind: str, message: Request, handler: Handler) -> None:
        request_id = message.get("id")
        try:
            if kind != "abort":  # commands follow session_start; abort may end it
                await asyncio.wait([self._started])
            data = await handler(self, message)
        except asyncio.CancelledError:
            self.respond(kind, request_id, error="aborted before it finished")
            raise
        except Exception as exc:
            self.respond(kind, request_id, error=f"{type(exc).__name__}: {exc}")
        else:
            if data is not ANSWERED:
                self.respond(kind, request_id, data)


async def run_rpc(
    agent: Agent,
    make_provider: Callable[[str], Any] | None = None,
    out: TextIO | None = None,
    catalog: ModelCatalog | None = None,
    *,
    all_events: bool = False,
) -> int:
    """Serve the protocol on stdin and ``out`` (the CLI passes its private stdout).

    ``catalog``: the models on offer (the CLI passes the settings' model and
    ``--base-url``); by default the environment's. ``all_events``: hookline's own
    event lines too (``--rpc-events all``); by default only those pi's clients expect.
    """
    server = RpcServer(agent, make_provider, out, catalog, all_events=all_events)
    return await server.serve(await open_stdin())
