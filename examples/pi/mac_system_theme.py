"""Mac system theme: the ``dark`` or ``light`` theme, following the system's appearance.

pi's mac-system-theme example in Python. At session start it asks macOS whether dark
mode is on (``osascript``), switches with ``ctx.ui.set_theme``, and asks again every
2 seconds, switching when the answer changes; ``session_shutdown`` stops asking.
A failing command counts as light, as in pi.

``SYSTEM_THEME_COMMAND`` replaces the question with any shell command that prints
``true`` for dark (a Linux desktop's own query, or a test's), and
``SYSTEM_THEME_INTERVAL`` the seconds between two questions.

    hookline --hook examples/pi/mac_system_theme.py
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

from hookline import HookAPI, HookContext

OSASCRIPT = (
    'osascript -e \'tell application "System Events" to tell appearance preferences'
    " to return dark mode'"
)


async def is_dark_mode() -> bool:
    """What the system says: ``true`` printed by the command is dark; anything else light."""
    command = os.environ.get("SYSTEM_THEME_COMMAND", OSASCRIPT)
    try:
        process = await asyncio.create_subprocess_shell(
            command, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL
        )
        stdout, _ = await process.communicate()
    except OSError:
        return False
    return process.returncode == 0 and stdout.decode().strip() == "true"


def register(pi: HookAPI) -> None:
    watcher: asyncio.Task[None] | None = None

    async def follow(ctx: HookContext, current: str) -> None:
        interval = float(os.environ.get("SYSTEM_THEME_INTERVAL", "2"))
        while True:
            await asyncio.sleep(interval)
            theme = "dark" if await is_dark_mode() else "light"
            if theme != current:
                current = theme
                ctx.ui.set_theme(current)

    @pi.on("session_start")
    async def start(event: Any, ctx: HookContext) -> None:
        nonlocal watcher
        current = "dark" if await is_dark_mode() else "light"
        ctx.ui.set_theme(current)
        if watcher is not None:
            watcher.cancel()
        watcher = asyncio.get_running_loop().create_task(follow(ctx, current))

    @pi.on("session_shutdown")
    def shutdown(event: Any, ctx: HookContext) -> None:
        nonlocal watcher
        if watcher is not None:
            watcher.cancel()
            watcher = None
