"""pi's file-trigger example: text written to a file becomes a message the agent answers.

From ``session_start`` on, the hook looks at a trigger file
(``$HOOKLINE_TRIGGER_FILE``, default ``/tmp/agent-trigger.txt`` as in pi) a
few times a second; when it holds text, the text is sent as a ``file-trigger``
custom message, "External trigger: <text>", shown in the transcript and with
``trigger_turn`` so the model responds (a turn starts when the agent is idle),
and the file is emptied. Watching stops at ``session_shutdown``.

pi watches the file with ``fs.watch``; here the file's size and modification
time are polled, which is portable and costs one ``stat`` per look, and a file
that does not exist yet is simply waited for.

    hookline --hook examples/pi/file_trigger.py
    echo "Run the tests" > /tmp/agent-trigger.txt
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from pathlib import Path

from hookline import HookAPI, HookContext, SessionShutdownEvent, SessionStartEvent

#: Seconds between two looks at the file.
INTERVAL = 0.25
#: Longest text taken from the file; the rest is dropped.
MAX_BYTES = 64 * 1024


def trigger_file() -> Path:
    """Where the trigger is read from: ``$HOOKLINE_TRIGGER_FILE`` or pi's default."""
    return Path(os.environ.get("HOOKLINE_TRIGGER_FILE", "/tmp/agent-trigger.txt"))


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
                        message = {
                            "custom_type": "file-trigger",
                            "content": f"External trigger: {text}",
                            "display": True,
                        }
                        pi.send_message(message, trigger_turn=True)
                    stat = path.stat()
                seen = (stat.st_size, stat.st_mtime_ns)
            await asyncio.sleep(INTERVAL)

    @pi.on("session_start")
    def start(event: SessionStartEvent, ctx: HookContext) -> None:
        if watcher:
            return
        path = trigger_file()
        watcher.append(asyncio.get_running_loop().create_task(watch(path)))
        if ctx.has_ui:
            ctx.ui.notify(f"Watching {path}", "info")

    @pi.on("session_shutdown")
    async def stop(event: SessionShutdownEvent, ctx: HookContext) -> None:
        while watcher:
            task = watcher.pop()
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
