"""Interactive shell: ``!vim file``, ``!git rebase -i``, ``!htop`` get the whole terminal.

The Python version of pi's interactive-shell example. A ``!command`` the user types
runs through ``user_bash``; when it is an interactive program (an editor, a pager,
``git commit`` and the other git commands that open an editor, a system monitor, a
file manager, a database client, ``ssh`` ...), or is forced with ``!i command``, the
terminal app hands the terminal over (``tui.stop()``), runs the command in ``$SHELL``
with the terminal's own input and output, and takes it back (``tui.start()``) when
the program exits. The program is the terminal's foreground job, as under a shell:
Ctrl+C stops it, not the app. Other commands run as usual, their output captured.

``INTERACTIVE_COMMANDS`` adds commands to the list and ``INTERACTIVE_EXCLUDE``
removes some (comma-separated). Only the user's ``!`` commands are concerned, not
the model's bash calls. Without a terminal (print mode, RPC) such a command is not
run: the answer says it needs the terminal app.

Run it: ``hookline --hook examples/pi/interactive_shell.py``, then ``!vim notes.txt``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from typing import Any

from hookline import BashOutput, HookAPI, HookContext, UserBashEvent, UserBashResult
from hookline.components import TUI, Keybindings, Stoppable

DEFAULT_INTERACTIVE_COMMANDS = (
    # editors
    *("vim", "nvim", "vi", "nano", "emacs", "pico", "micro", "helix", "hx", "kak"),
    # pagers
    *("less", "more", "most"),
    # git commands that open an editor or ask
    *("git commit", "git rebase", "git merge", "git cherry-pick", "git revert"),
    *("git add -p", "git add --patch", "git add -i", "git add --interactive"),
    *("git stash -p", "git stash --patch", "git reset -p", "git reset --patch"),
    *("git checkout -p", "git checkout --patch", "git difftool", "git mergetool"),
    # system monitors, file managers, git TUIs, fuzzy finders
    *("htop", "top", "btop", "glances", "ranger", "nnn", "lf", "mc", "vifm"),
    *("tig", "lazygit", "gitui", "fzf", "sk"),
    # remote sessions, database clients, containers
    *("ssh", "telnet", "mosh", "psql", "mysql", "sqlite3", "mongosh", "redis-cli"),
    *("kubectl edit", "kubectl exec -it", "docker exec -it", "docker run -it"),
    *("tmux", "screen", "ncdu"),
)

NO_TERMINAL = "(interactive commands require TUI)"


def _listed(variable: str) -> list[str]:
    return [part.strip() for part in os.environ.get(variable, "").split(",") if part.strip()]


def interactive_commands() -> list[str]:
    """The defaults with ``INTERACTIVE_COMMANDS`` added and ``INTERACTIVE_EXCLUDE`` taken out."""
    excluded = {name.lower() for name in _listed("INTERACTIVE_EXCLUDE")}
    every = [*DEFAULT_INTERACTIVE_COMMANDS, *_listed("INTERACTIVE_COMMANDS")]
    return [name for name in every if name.lower() not in excluded]


def is_interactive(command: str) -> bool:
    """Whether ``command`` starts with an interactive program, or pipes into one
    (``cat log | less``)."""
    line = command.strip().lower()
    last_pipe = line.rsplit("|", 1)[1].strip() if "|" in line else None
    for name in (n.lower() for n in interactive_commands()):
        if line == name or line.startswith((f"{name} ", f"{name}\t")):
            return True
        if last_pipe is not None and (last_pipe == name or last_pipe.startswith(f"{name} ")):
            return True
    return False


def run_in_foreground(argv: list[str], cwd: str | None) -> int:
    """Run ``argv`` as the terminal's foreground job, as a shell does: in a process group
    of its own that the terminal's Ctrl+C (SIGINT) and Ctrl+Z reach, not this process.
    Without a terminal on stdin, a plain run."""
    if not os.isatty(0):
        return subprocess.run(argv, cwd=cwd, check=False).returncode

    def foreground() -> None:  # in the child, before the program starts
        os.setpgid(0, 0)
        previous = signal.signal(signal.SIGTTOU, signal.SIG_IGN)
        os.tcsetpgrp(0, os.getpgrp())
        signal.signal(signal.SIGTTOU, previous)

    previous = signal.signal(signal.SIGTTOU, signal.SIG_IGN)  # to take the terminal back
    try:
        with subprocess.Popen(argv, cwd=cwd, preexec_fn=foreground) as child:
            return child.wait()
    finally:
        os.tcsetpgrp(0, os.getpgrp())
        signal.signal(signal.SIGTTOU, previous)


def run_in_terminal(command: str, cwd: str | None) -> Any:
    """A component factory that runs ``command`` with the terminal to itself and answers
    its exit code; ``None`` where the ``tui`` has no terminal to hand over."""

    def factory(tui: TUI, theme: Any, keybindings: Keybindings, done: Any) -> None:
        if not isinstance(tui, Stoppable):
            done(None)
            return
        tui.stop()
        try:
            sys.stdout.write("\x1b[2J\x1b[H")  # a clear screen for the program, as pi does
            sys.stdout.flush()
            shell = os.environ.get("SHELL") or "/bin/sh"
            done(run_in_foreground([shell, "-c", command], cwd))
        finally:
            tui.start()

    return factory


def register(pi: HookAPI) -> None:
    @pi.on("user_bash")
    async def interactive(event: UserBashEvent, ctx: HookContext) -> UserBashResult | None:
        command = event.command
        forced = command.startswith(("i ", "i\t"))
        if forced:
            command = command[2:].strip()
        if not (forced or is_interactive(command)):
            return None  # an ordinary command: run as usual
        code = (
            await ctx.ui.custom(run_in_terminal(command, event.cwd or None)) if ctx.has_ui else None
        )
        if code is None:
            return UserBashResult(result=BashOutput(output=NO_TERMINAL, exit_code=1))
        output = (
            "(interactive command completed successfully)"
            if code == 0
            else f"(interactive command exited with code {code})"
        )
        return UserBashResult(result=BashOutput(output=output, exit_code=code))
