"""What you send from the editor: a prompt, a ``/command``, ``!cmd`` or ``!!cmd``.

Nothing reaches the model before the hooks that watch it are loaded: what is
sent while they load waits, in order, and each goes once the one before it
is done.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from hookline.core.messages import content_text
from hookline.modes.tui import render
from hookline.modes.tui.commands import BUILTINS

if TYPE_CHECKING:
    from hookline.core.tool import ToolResult
    from hookline.modes.tui.host import CommandHost
    from hookline.modes.tui.tasks import Tasks
    from hookline.modes.tui.transcript import Transcript


class Submissions:
    """Runs each submitted text as a task; holds them while the agent loads."""

    def __init__(
        self,
        host: CommandHost,
        tasks: Tasks,
        transcript: Transcript,
        measure: Callable[[], None],
    ) -> None:
        self._host = host
        self._tasks = tasks
        self._transcript = transcript
        #: Measures the footer's counts again (after a command, which may change them).
        self._measure = measure
        #: Texts submitted while loading, sent in order once loaded.
        self.queued: list[str] = []

    def submit(self, text: str) -> None:
        """Send ``text`` now, or once the hooks are loaded."""
        if not self._host.loaded.is_set():
            self.queued.append(text)
            self._host.invalidate()
            return
        # Ctrl+C cancels a running `!cmd` (its process group is killed); a turn is
        # stopped through agent.abort() instead, so it ends cleanly.
        self._tasks.spawn(self.handle(text), command=text.lstrip().startswith(("!", "$")))

    def send_queued(self) -> None:
        """The hooks are loaded: send what waited."""
        if self.queued:
            self._tasks.spawn(self._send_queued())

    async def _send_queued(self) -> None:
        """What was submitted while loading, in order, each once the one before is done."""
        while self.queued:
            await self.handle(self.queued.pop(0))

    async def handle(self, text: str) -> None:
        """One submitted editor text: ``/command``, ``!bash``, ``!!bash``, ``$python``,
        ``$$python`` or a prompt."""
        stripped = text.strip()
        if stripped.startswith("!"):
            keep = not stripped.startswith("!!")
            command = stripped[1 if keep else 2 :].strip()
            await self._user_bash(command, keep)
        elif stripped.startswith("$"):
            keep = not stripped.startswith("$$")
            await self._user_python(stripped[1 if keep else 2 :].strip(), keep)
        elif stripped.startswith("/") and not stripped.startswith("//"):
            await self._command(stripped[1:])
            self._measure()
        else:
            await self._host.agent.prompt(text)

    async def _user_bash(self, command: str, keep: bool) -> None:
        if not command:
            return
        agent = self._host.agent
        self._host.print(render.user_block(("!" if keep else "!!") + command))
        result = await agent.run_user_bash(command)
        self._ran(command, result, "user_bash", f"I ran `{command}` in the shell" if keep else "")

    async def _user_python(self, code: str, keep: bool) -> None:
        """``$code`` (``$$code``: the model is not told), through ``user_python`` hooks."""
        if not code:
            return
        agent = self._host.agent
        self._host.print(render.user_block(("$" if keep else "$$") + code))
        result = await agent.run_user_python(code, exclude_from_context=not keep)
        said = f"I ran this Python:\n```python\n{code}\n```\nIt printed" if keep else ""
        self._ran(code, result, "user_python", said)

    def _ran(self, what: str, result: ToolResult, custom_type: str, said: str) -> None:
        """Show what the user's own command printed; with ``said``, tell the model too."""
        output = content_text(result.content)
        details = result.details if isinstance(result.details, dict) else {}
        self._transcript.bash_output(what, output, bool(details.get("exit_code")))
        if said:
            self._host.agent.send_message(
                {
                    "role": "custom",
                    "custom_type": custom_type,
                    "content": f"{said}:\n{output}",
                    "display": False,
                },
                False,
            )

    async def _command(self, text: str) -> None:
        name, _, args = text.partition(" ")
        builtin = BUILTINS.get(name)
        if builtin is not None:
            await builtin.run(self._host, args)
        elif not await self._host.agent.runner.run_command(name, args):
            self._host.notice(f"no command /{name} (try /help)", "warning")
