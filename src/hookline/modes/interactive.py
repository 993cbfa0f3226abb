"""A plain line-based interactive mode: prompts, slash commands and hook dialogs on the terminal.

It is deliberately small (the full TUI is separate work): each line is a
prompt, ``/name args`` runs a hook command (or ``/new``, ``/compact``,
``/branch N``, ``/quit``), ``!cmd`` runs a shell command through
``user_bash`` hooks. Dialogs read answers from the same terminal.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable, Sequence
from typing import Any

from hookline.agent.agent import Agent
from hookline.core.messages import content_text
from hookline.core.ui import NotifyType, StatusLine


async def _read(prompt: str) -> str | None:
    try:
        return await asyncio.to_thread(input, prompt)
    except EOFError:
        return None


class TerminalUI:
    """Hook dialogs as terminal questions."""

    def __init__(self) -> None:
        self.status = StatusLine()
        self._editor = ""

    async def select(self, title: str, options: Sequence[str]) -> str | None:
        print(title)
        for i, option in enumerate(options, 1):
            print(f"  {i}. {option}")
        answer = await _read("choose a number (empty cancels): ")
        if answer and answer.strip().isdigit() and 1 <= int(answer) <= len(options):
            return options[int(answer) - 1]
        return None

    async def confirm(self, title: str, message: str) -> bool:
        answer = await _read(f"{title}\n{message}\n[y/N] ")
        return (answer or "").strip().lower() in ("y", "yes")

    async def input(self, title: str, placeholder: str | None = None) -> str | None:
        answer = await _read(f"{title} " + (f"[{placeholder}] " if placeholder else ""))
        return answer if answer else placeholder

    async def editor(self, title: str, prefill: str | None = None) -> str | None:
        return await self.input(title, prefill)

    def notify(self, message: str, type: NotifyType = "info") -> None:
        print(f"[{type}] {message}", file=sys.stderr)

    def set_status(self, key: str, text: str | None) -> None:
        self.status.set(key, text)

    async def custom(self, factory: Callable[..., Any]) -> Any:
        return None

    def set_editor_text(self, text: str) -> None:
        self._editor = text

    def get_editor_text(self) -> str:
        return self._editor

    @property
    def theme(self) -> dict[str, Any]:
        return {}


async def run_interactive(agent: Agent, bundle: Any) -> int:
    ui = TerminalUI()
    agent.runner.set_ui(ui, True)
    agent.subscribe(
        lambda p: print(p["text"], end="", flush=True) if p["type"] == "text_delta" else None
    )
    await agent.start()
    print("hookline — type a prompt; /quit to leave, /help for commands")
    while True:
        line = await _read("\n> ")
        if line is None or line.strip() in ("/quit", "/exit"):
            break
        line = line.strip()
        if not line:
            continue
        if line.startswith("!"):
            result = await agent.run_user_bash(line[1:])
            print(content_text(result.content))
        elif line.startswith("/"):
            await _slash(agent, line[1:])
        else:
            await agent.prompt(line)
            print()
    # On a signal or an error the caller (cli) shuts down with its reason.
    await agent.shutdown("exit")
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
