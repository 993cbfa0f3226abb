"""File-watcher trigger: a line written to a file becomes a prompt for the agent.

The Python version of pi's "file watcher" example. From ``session_start``
on, the hook looks at a trigger file (``$HOOKLINE_TRIGGER_FILE``, default
``.hookline/trigger.txt`` in the project) a few times a second; when it holds
text, the text is sent as a user prompt (``pi.send``: queued while the agent
is busy, else it starts a run) and the file is emptied. Watching stops at
``session_shutdown``. Polling the file's size and modification time is
portable and costs one ``stat`` per look.

Try it: ``echo "Run the tests" > .hookline/trigger.txt``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from pathlib import Path

from hookline import HookAPI, HookContext, SessionShutdownEvent, SessionStartEvent

#: Seconds between two looks at the file.
INTERVAL = 0.25
#: Longest prompt taken from the file; the rest is dropped.
MAX_BYTES = 64 * 1024


def trigger_file(cwd: str) -> Path:
    """Where the trigger is read from: ``$HOOKLINE_TRIGGER_FILE`` or the project's default."""
    return Path(cwd, os.environ.get("HOOKLINE_TRIGGER_FILE", ".hookline/trigger.txt"))


def take(path: Path) -> str:
    """The file's text (stripped), emptying the file; ``""`` when there is none."""
    try:
        with path.open("r+", encoding="utf-8", errors="replace") as f:
            text = f.read(MAX_BYTES).strip()
            if text:
                f.seek(0)
                f.truncate()
    except FileNotFoundError:
        return ""
    return text


def register(pi: HookAPI) -> None:
    watcher: list[asyncio.Task[None]] = []

    async def watch(path: Path) -> None:
        seen: tuple[int, int] | None = None
        while True:
            with contextlib.suppress(OSError):
                stat = path.stat()
                if (stat.st_size, stat.st_mtime_ns) != seen and stat.st_size:
                    text = take(path)
                    if text:
                        pi.send(f"External trigger: {text}")
                    stat = path.stat()
                seen = (stat.st_size, stat.st_mtime_ns)
            await asyncio.sleep(INTERVAL)

    @pi.on("session_start")
    def start(event: SessionStartEvent, ctx: HookContext) -> None:
        if watcher:
            return
        path = trigger_file(ctx.cwd)
        watcher.append(asyncio.get_running_loop().create_task(watch(path)))
        ctx.ui.notify(f"Watching {path}", "info")

    @pi.on("session_shutdown")
    async def stop(event: SessionShutdownEvent, ctx: HookContext) -> None:
        while watcher:
            task = watcher.pop()
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
