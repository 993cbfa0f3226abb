"""Seeing a hook that holds the event loop with sync code.

A deadline cancels a handler at an ``await``; ``time.sleep(60)``, ``while
True: pass`` or a backtracking regex never reach one, and nothing on the
event loop's thread can interrupt them. A thread can see them, though: it
posts a heartbeat to the loop, and when the loop has not run it for
``threshold`` seconds it looks at the loop thread's stack for a hook's code.
That is reported at once on stderr (the loop cannot carry a report while it
is held), again each time the wait doubles, and to the runner's error
listeners once the loop is back. Ending such a process is the signal
handler's job (``hookline.cli``): it does not need the loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import threading
import time
from types import CodeType, FrameType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hookline.core.runner import HookRunner


class LoopWatchdog:
    """A daemon thread that reports hook code blocking ``loop`` past ``threshold`` seconds."""

    def __init__(
        self,
        runner: HookRunner,
        loop: asyncio.AbstractEventLoop,
        threshold: float,
        *,
        stderr_fd: int = 2,
    ) -> None:
        self.runner = runner
        self.loop = loop
        self.threshold = threshold
        self._fd = stderr_fd
        self._interval = min(max(threshold / 4, 0.05), 1.0)
        self._stopped = threading.Event()
        self._thread: threading.Thread | None = None
        self._loop_thread = 0

    def start(self) -> None:
        """Start watching; call from the loop's own thread."""
        self._loop_thread = threading.get_ident()
        self._thread = threading.Thread(target=self._watch, name="hookline-watchdog", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stopped.set()

    def _watch(self) -> None:
        while not self._stopped.wait(self._interval):
            beat = threading.Event()
            try:
                self.loop.call_soon_threadsafe(beat.set)
            except RuntimeError:  # the loop is closed
                return
            posted = time.monotonic()
            next_report = self.threshold
            culprit: tuple[str, str, str] | None = None
            while not beat.wait(self._interval):
                if self._stopped.is_set():
                    return
                held = time.monotonic() - posted
                if held < next_report:
                    continue
                next_report *= 2
                found = self._hook_on_stack()
                if found is None:
                    continue
                culprit = found
                path, event, where = found
                line = (
                    f"hookline: hook {path} is blocking the event loop ({where}) for {held:.0f} s"
                )
                # os.write: no lock a stuck thread could hold (a sys.stderr buffer could be).
                with contextlib.suppress(OSError):
                    os.write(self._fd, (line + "\n").encode("utf-8", "replace"))
            if culprit is not None:
                path, event, where = culprit
                held = time.monotonic() - posted
                text = f"blocked the event loop for {held:.1f} s ({where}); use async code"
                self._call_soon(path, event, text)

    def _call_soon(self, path: str, event: str, text: str) -> None:
        with contextlib.suppress(RuntimeError):
            self.loop.call_soon_threadsafe(self.runner.report, path, event, text)

    def _hook_on_stack(self) -> tuple[str, str, str] | None:
        """(hook path, event, "sync code in NAME, line N") of the innermost hook frame."""
        frame: FrameType | None = sys._current_frames().get(self._loop_thread)
        files, handlers = self._hook_code()
        while frame is not None:
            path = files.get(frame.f_code.co_filename)
            if path is not None:
                where = f"sync code in {frame.f_code.co_name}, line {frame.f_lineno}"
                return path, _event_of(frame, handlers), where
            frame = frame.f_back
        return None

    def _hook_code(self) -> tuple[dict[str, str], dict[CodeType, list[str]]]:
        """Source file -> hook path, for every loaded hook's module and handlers; and each
        handler's code -> the events it was registered for."""
        files: dict[str, str] = {}
        handlers: dict[CodeType, list[str]] = {}
        for hook in self.runner.hooks:
            files[hook.path] = hook.path
            for event, registered in hook.handlers.items():
                for fn in registered:
                    code = getattr(fn, "__code__", None)
                    if code is None:
                        continue
                    files.setdefault(code.co_filename, hook.path)
                    events = handlers.setdefault(code, [])
                    if event not in events:
                        events.append(event)
        return files, handlers


def _event_of(frame: FrameType | None, handlers: dict[CodeType, list[str]]) -> str:
    """The event of the handler that is ``frame`` or one of its callers, known by its code
    (no frame's locals are read): the event it was registered for, or each of them when
    one function handles several."""
    while frame is not None:
        events = handlers.get(frame.f_code)
        if events:
            return " or ".join(events)
        frame = frame.f_back
    return "sync code"
