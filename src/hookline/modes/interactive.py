"""Interactive mode: the terminal app on a terminal, a line mode on a pipe.

On a terminal (stdin and stdout are TTYs) ``run_interactive`` runs the
prompt_toolkit + rich app of ``hookline.modes.tui``. When stdin is a pipe
(scripts, CI) there is no screen to draw on, so it reads one prompt per line:
``/name args`` runs a command (``/new``, ``/compact``, ``/branch N``,
``/quit`` or a hook's), ``!cmd`` runs a shell command through ``user_bash``
hooks, ``$code`` Python through ``user_python`` hooks, and dialogs read their
answer from the next line.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from hookline.core.messages import content_text
from hookline.core.ui import NotifyType, NoUI, OverlayPlacement

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from hookline.agent.agent import Agent
    from hookline.modes.tui.launch import Launch


def on_terminal() -> bool:
    """True when the terminal app can run: both stdin and stdout are TTYs."""
    return sys.stdin.isatty() and sys.stdout.isatty()


async def _read(prompt: str) -> str | None:
    try:
        return await asyncio.to_thread(input, prompt)
    except EOFError:
        return None


class TerminalUI(NoUI):
    """Hook dialogs as questions on the next input line (the line mode's UI)."""

    def __init__(self) -> None:
        super().__init__()
        self._editor = ""

    async def select(
        self,
        title: str,
        options: Sequence[str],
        *,
        timeout: float | None = None,
        signal: asyncio.Event | None = None,
        descriptions: Mapping[str, str] | None = None,
    ) -> str | None:
        print(title)
        for i, option in enumerate(options, 1):
            note = (descriptions or {}).get(option)
            print(f"  {i}. {option}" + (f" — {note}" if note else ""))
        answer = await _read("choose a number (empty cancels): ")
        if answer and answer.strip().isdigit() and 1 <= int(answer) <= len(options):
            return options[int(answer) - 1]
        return None

    async def confirm(
        self,
        title: str,
        message: str,
        *,
        timeout: float | None = None,
        signal: asyncio.Event | None = None,
    ) -> bool:
        answer = await _read(f"{title}\n{message}\n[y/N] ")
        return (answer or "").strip().lower() in ("y", "yes")

    async def input(
        self,
        title: str,
        placeholder: str | None = None,
        *,
        timeout: float | None = None,
        signal: asyncio.Event | None = None,
    ) -> str | None:
        answer = await _read(f"{title} " + (f"[{placeholder}] " if placeholder else ""))
        return answer if answer else placeholder

    async def editor(
        self,
        title: str,
        prefill: str | None = None,
        *,
        timeout: float | None = None,
        signal: asyncio.Event | None = None,
        prompt_style: bool | None = None,
    ) -> str | None:
        return await self.input(title, prefill)

    def notify(self, message: str, type: NotifyType = "info") -> None:
        super().notify(message, type)
        print(f"[{type}] {message}", file=sys.stderr)

    async def custom(
        self,
        factory: Callable[..., Any],
        *,
        overlay: bool = False,
        **placement: Unpack[OverlayPlacement],
    ) -> Any:
        """No terminal to draw a component on: its text summary is shown as a
        notification (rendered once, 80 columns, no colours) and the answer is ``None``."""
        from hookline.components import show_summary

        show_summary(factory, self.theme, self.notify)
        return None

    def set_editor_text(self, text: str) -> None:
        self._editor = text

    def get_editor_text(self) -> str:
        return self._editor


async def run_interactive(
    agent: Agent, bundle: Any, launch: Launch | None = None, prompt: str | None = None
) -> int:
    """The terminal app on a terminal, else the line mode; ``prompt`` is sent first.

    With ``launch`` the app is already on the screen (drawn while the agent loaded).
    """
    if launch is not None:
        code = await launch.serve(agent, bundle, prompt)
        await agent.shutdown("quit")
        return code
    if on_terminal():
        from hookline.modes.tui import run_tui

        code = await run_tui(agent, bundle, prompt)
        await agent.shutdown("quit")
        return code
    return await run_lines(agent, prompt)


async def run_lines(agent: Agent, prompt: str | None = None) -> int:
    """``prompt``, then one prompt per stdin line until EOF or ``/quit``."""
    ui = TerminalUI()
    agent.runner.set_ui(ui, True)
    agent.subscribe(
        lambda p: print(p["text"], end="", flush=True) if p["type"] == "text_delta" else None
    )
    await agent.start()
    print("hookline — type a prompt; /quit to leave, /help for commands")
    while True:
        line = prompt if prompt is not None else await _read("\n> ")
        prompt = None
        if line is None or line.strip() in ("/quit", "/exit"):
            break
        line = line.strip()
        if not line:
            continue
        if line.startswith("!"):
            result = await agent.run_user_bash(line[1:])
            print(content_text(result.content))
        elif line.startswith("$"):
            result = await agent.run_user_python(line[1:])
            print(content_text(result.content))
        elif line.startswith("/"):
            await _slash(agent, line[1:])
        else:
            await agent.prompt(line)
            print()
    # On a signal or an error the caller (cli) shuts down with its reason.
    await agent.shutdown("quit")
    return 0


async def _slash(agent: Agent, text: str) -> None:
    name, _, args = text.partition(" ")
    if name == "help":
        names = ["new", "compact", "branch N", "quit"] + [
            c.name for c in agent.runner.get_registered_commands()
        ]
        print("commands: " + ", ".join("/" + n for n in names))
    elif name == "new":
        await agent.new_session()
    elif name == "compact":
        await agent.compact(args or None)
    elif name == "branch" and args.strip().isdigit():
        await agent.branch(int(args))
    elif not await agent.runner.run_command(name, args):
        print(f"no command /{name} (try /help)")
