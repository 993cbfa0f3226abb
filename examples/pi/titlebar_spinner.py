"""Titlebar spinner: a braille spinner in the terminal's title while the agent works.

pi's titlebar-spinner example in Python. ``agent_start`` starts a task that sets
``ctx.ui.set_title`` to the next frame every 80 ms (``⠹ π - <session> - <folder>``);
``agent_end`` and ``session_shutdown`` stop it and put the plain title back.

    hookline --hook examples/pi/titlebar_spinner.py
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

from hookline import HookAPI, HookContext

FRAMES = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
#: Seconds between two frames.
INTERVAL = 0.08


def base_title(pi: HookAPI, cwd: str) -> str:
    """``π - <session name> - <folder>``, or ``π - <folder>`` for an unnamed session."""
    folder = Path(cwd).name
    session = pi.get_session_name()
    return f"π - {session} - {folder}" if session else f"π - {folder}"


def register(pi: HookAPI) -> None:
    spinner: asyncio.Task[None] | None = None

    async def spin(ctx: HookContext) -> None:
        frame = 0
        while True:
            ctx.ui.set_title(f"{FRAMES[frame % len(FRAMES)]} {base_title(pi, ctx.cwd)}")
            frame += 1
            await asyncio.sleep(INTERVAL)

    def stop(ctx: HookContext) -> None:
        nonlocal spinner
        if spinner is not None:
            spinner.cancel()
            spinner = None
        ctx.ui.set_title(base_title(pi, ctx.cwd))

    @pi.on("agent_start")
    def agent_start(event: Any, ctx: HookContext) -> None:
        nonlocal spinner
        stop(ctx)
        spinner = asyncio.get_running_loop().create_task(spin(ctx))

    @pi.on("agent_end")
    async def agent_end(event: Any, ctx: HookContext) -> None:
        task = spinner
        stop(ctx)
        if task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    @pi.on("session_shutdown")
    def shutdown(event: Any, ctx: HookContext) -> None:
        stop(ctx)
