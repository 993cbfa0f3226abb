"""pi's interactive-shell example: ``!vim file``, ``!git rebase -i``, ``!htop`` get the
whole terminal; the terminal app steps aside while they run.

A ``!`` command whose program is an editor, a pager, an interactive git command,
a monitor, a file manager, a git TUI, a fuzzy finder, a remote or database shell
(also after the last ``|``), or any command written ``!i COMMAND``, runs in the
terminal itself instead of being captured. ``INTERACTIVE_COMMANDS`` adds
commands (comma-separated), ``INTERACTIVE_EXCLUDE`` takes some away. Outside the
terminal app such a command is refused. The model's own bash calls are left alone.

    hookline --hook examples/pi/interactive_shell.py      then  !vim notes.txt
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Callable
from typing import Any

from hookline import HookAPI, HookContext, UserBashEvent

DEFAULT_INTERACTIVE_COMMANDS = [
    # editors
    *("vim", "nvim", "vi", "nano", "emacs", "pico", "micro", "helix", "hx", "kak"),
    # pagers
    *("less", "more", "most"),
    # interactive git
    *("git commit", "git rebase", "git merge", "git cherry-pick", "git revert"),
    *("git add -p", "git add --patch", "git add -i", "git add --interactive"),
    *("git stash -p", "git stash --patch", "git reset -p", "git reset --patch"),
    *("git checkout -p", "git checkout --patch", "git difftool", "git mergetool"),
    # monitors, file managers, git TUIs, fuzzy finders
    *("htop", "top", "btop", "glances", "ranger", "nnn", "lf", "mc", "vifm"),
    *("tig", "lazygit", "gitui", "fzf", "sk"),
    # remote sessions, database clients, containers, multiplexers
    *("ssh", "telnet", "mosh", "psql", "mysql", "sqlite3", "mongosh", "redis-cli"),
    *("kubectl edit", "kubectl exec -it", "docker exec -it", "docker run -it"),
    *("tmux", "screen", "ncdu"),
]


def _env_list(name: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, "").split(",") if item.strip()]


def interactive_commands() -> list[str]:
    excluded = {item.lower() for item in _env_list("INTERACTIVE_EXCLUDE")}
    commands = [*DEFAULT_INTERACTIVE_COMMANDS, *_env_list("INTERACTIVE_COMMANDS")]
    return [command for command in commands if command.lower() not in excluded]


def is_interactive(command: str) -> bool:
    """Starts with an interactive command, or pipes into one last."""
    line = command.strip().lower()
    after_pipe = line.rpartition("|")[2].strip() if "|" in line else None
    for known in (c.lower() for c in interactive_commands()):
        if line == known or line.startswith((f"{known} ", f"{known}\t")):
            return True
        if after_pipe is not None and (after_pipe == known or after_pipe.startswith(f"{known} ")):
            return True
    return False


_handing_over: set[asyncio.Task[None]] = set()


def _in_terminal(command: str, cwd: str) -> Callable[[Callable[[Any], None]], Any]:
    """A ``ctx.ui.custom`` factory that hands the terminal to ``command`` and answers its
    exit status; the app is redrawn when it ends."""

    def factory(done: Callable[[Any], None]) -> Any:
        from prompt_toolkit.application import run_in_terminal
        from prompt_toolkit.layout import Window

        def run() -> int:
            # Straight to the terminal: the app shows what is printed above itself.
            os.write(sys.__stdout__.fileno() if sys.__stdout__ else 1, b"\x1b[2J\x1b[H")
            shell = os.environ.get("SHELL") or "/bin/sh"
            return subprocess.run([shell, "-c", command], cwd=cwd, check=False).returncode

        async def hand_over() -> None:
            done(await run_in_terminal(run, in_executor=True))

        task = asyncio.ensure_future(hand_over())
        _handing_over.add(task)  # held until it ends: the loop keeps only weak references
        task.add_done_callback(_handing_over.discard)
        return Window(height=0)

    return factory


def register(pi: HookAPI) -> None:
    @pi.on("user_bash")
    async def interactive(event: UserBashEvent, ctx: HookContext) -> dict[str, Any] | None:
        command = event.command
        forced = command.startswith(("i ", "i\t"))
        if forced:
            command = command[2:].strip()
        if not forced and not is_interactive(command):
            return None  # captured as usual
        if not ctx.has_ui or ctx.mode != "interactive":
            output, code = "(interactive commands require TUI)", 1
        else:
            status = await ctx.ui.custom(_in_terminal(command, event.cwd))
            code = status if isinstance(status, int) else 1
            output = (
                "(interactive command completed successfully)"
                if code == 0
                else f"(interactive command exited with code {code})"
            )
        return {"result": {"output": output, "exit_code": code}}
