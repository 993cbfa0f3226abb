"""Drive the real ``hookline`` terminal app in a tmux pane: keys in, screen text out.

Each ``Pane`` has its own tmux server (``-L``), so tests run in parallel
without sharing anything. Waiting is always for something on the screen (or
the process ending), polled with a deadline; a miss fails with the screen.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from types import TracebackType

import pytest

#: Only a hung app ever waits this long.
DEADLINE = 20.0
WIDTH, HEIGHT = 100, 30
EXITED = "[hookline exited "

needs_tmux = pytest.mark.skipif(
    shutil.which("tmux") is None, reason="tmux is not installed: the terminal tests need a pty"
)


def flat(text: str) -> str:
    """``text`` with every run of whitespace, line ends included, as one space."""
    return " ".join(text.split())


class Pane:
    """``hookline ARGS`` in a detached tmux session of ``WIDTH``x``HEIGHT``."""

    def __init__(self, tmp_path: Path, *args: str, cwd: Path | None = None) -> None:
        self.tmp_path = tmp_path
        self.server = f"hookline-test-{uuid.uuid4().hex[:12]}"
        self.target = "app"
        self.stderr_file = tmp_path / f"stderr-{self.server}.txt"
        self.cwd = cwd or tmp_path
        self.args = args

    def __enter__(self) -> Pane:
        conf = self.tmp_path / "tmux.conf"
        conf.write_text("set -g remain-on-exit on\nset -g history-limit 5000\n")
        env = {k: v for k, v in os.environ.items() if not k.startswith("TMUX")}
        env["TERM"] = "xterm-256color"
        # The shell prints the exit status: tmux's own pane_dead_status can lag behind.
        command = (
            f"cd {shlex.quote(str(self.cwd))} && "
            + shlex.join([sys.executable, "-m", "hookline.cli", *self.args])
            + f" 2>{shlex.quote(str(self.stderr_file))}; code=$?; echo; echo {EXITED}$code]"
        )
        subprocess.run(
            [
                "tmux",
                "-L",
                self.server,
                "-f",
                str(conf),
                "new-session",
                "-d",
                "-s",
                self.target,
                "-x",
                str(WIDTH),
                "-y",
                str(HEIGHT),
                command,
            ],
            env=env,
            check=True,
            timeout=DEADLINE,
        )
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        subprocess.run(["tmux", "-L", self.server, "kill-server"], capture_output=True, check=False)

    def tmux(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-L", self.server, *args],
            capture_output=True,
            text=True,
            check=True,
            timeout=DEADLINE,
        )
        return done.stdout

    # -- input -------------------------------------------------------------------

    def keys(self, *keys: str) -> None:
        """tmux key names: ``Enter``, ``Down``, ``C-c``, ``Escape``..."""
        self.tmux("send-keys", "-t", self.target, *keys)

    def type(self, text: str) -> None:
        """Literal text, typed (not pasted)."""
        self.tmux("send-keys", "-t", self.target, "-l", text)

    def paste(self, text: str) -> None:
        """``text`` as a bracketed paste, the way a terminal delivers a paste."""
        self.tmux("set-buffer", "-b", "paste", text)
        self.tmux("paste-buffer", "-p", "-d", "-b", "paste", "-t", self.target)

    # -- output ------------------------------------------------------------------

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", self.target)

    def styled_screen(self) -> str:
        """The screen with its colours and attributes, as SGR escapes (tmux's ``-e``)."""
        return self.tmux("capture-pane", "-p", "-e", "-t", self.target)

    def scrollback(self) -> str:
        """Everything the pane has shown, scrolled-off lines included."""
        return self.tmux("capture-pane", "-p", "-S", "-", "-t", self.target)

    def wait_for(
        self, check: str | Callable[[str], bool], *, whole: bool = False, styled: bool = False
    ) -> str:
        """The screen once ``check`` (text on screen, or a predicate) holds; ``styled``:
        the screen with its colours (``styled_screen``), checked and returned."""
        test = (lambda s: check in s) if isinstance(check, str) else check
        read = self.scrollback if whole else self.styled_screen if styled else self.screen
        deadline = time.monotonic() + DEADLINE
        while True:
            text = read()
            if test(text):
                return text
            if time.monotonic() > deadline or self.dead():
                text = read()
                if test(text):
                    return text
                raise AssertionError(
                    f"not on screen: {check!r}\n--- screen ---\n{self.scrollback()}\n"
                    f"--- stderr ---\n{self.stderr()}"
                )
            time.sleep(0.05)

    def wait_all(self, texts: Sequence[str]) -> str:
        return self.wait_for(lambda s: all(t in s for t in texts), whole=True)

    def wait_flat(self, texts: Sequence[str]) -> str:
        """Like ``wait_all``, for texts that may wrap: compared with runs of whitespace
        (line ends included) as one space; returns the flattened scrollback."""
        return flat(self.wait_for(lambda s: all(flat(t) in flat(s) for t in texts), whole=True))

    def ready(self) -> str:
        """The editor is up (the footer is drawn)."""
        return self.wait_for("msgs · ctx")

    def dead(self) -> bool:
        return EXITED in self.screen()

    def wait_exit(self) -> int:
        """The app's exit status once it ended."""
        screen = self.wait_for(EXITED, whole=True)
        found = re.search(re.escape(EXITED) + r"(\d+)\]", screen)
        assert found is not None, screen
        return int(found.group(1))

    def title(self) -> str:
        return self.tmux("display", "-p", "-t", self.target, "#{pane_title}").strip()

    def stderr(self) -> str:
        try:
            return self.stderr_file.read_text(errors="replace")
        except FileNotFoundError:
            return ""
