"""Message renderer: ``/status`` messages drawn in colour, with their time when expanded.

pi's message-renderer example in Python. ``/status [warn|error] text`` sends a custom
message of type ``status-update`` (its level and time in ``details``);
``pi.register_message_renderer`` draws it in the terminal app as
``[LEVEL] text`` in the level's colour, on the theme's custom-message background
with a margin of one, and with ``at HH:MM:SS`` under it when expanded (Ctrl+O).
The renderer returns a component (``render(width)`` → lines); other modes show the
message's text.

    hookline --hook examples/pi/message_renderer.py      then  /status warn disk low
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping
from typing import Any

from hookline import CommandContext, HookAPI, Theme

LEVEL_COLORS = {"error": "error", "warn": "warning"}
_SGR = re.compile(r"\x1b\[[0-9;]*m")


class Box:
    """Lines of text with ``padding`` blank columns and rows around them, each line
    painted with ``background`` across the width (pi-tui's ``Box``)."""

    def __init__(self, text: str, padding: int, background: Any) -> None:
        self._text, self._padding, self._background = text, padding, background

    def render(self, width: int) -> list[str]:
        side = " " * self._padding
        inner = [side + line for line in self._text.split("\n")]
        blank = [""] * self._padding
        lines = [*blank, *inner, *blank]
        return [
            self._background(line + " " * max(width - len(_SGR.sub("", line)), 0)) for line in lines
        ]

    def invalidate(self) -> None:
        """Nothing is cached."""


def render_status(message: Mapping[str, Any], options: Mapping[str, Any], theme: Theme) -> Box:
    details = message.get("details") or {}
    level = str(details.get("level", "info"))
    prefix = theme.fg(LEVEL_COLORS.get(level, "success"), f"[{level.upper()}]")
    text = f"{prefix} {message['content']}"
    if options.get("expanded") and details.get("timestamp"):
        at = time.strftime("%H:%M:%S", time.localtime(details["timestamp"]))
        text += "\n" + theme.fg("dim", f"  at {at}")
    return Box(text, 1, lambda line: theme.bg("custom_message_bg", line))


def register(pi: HookAPI) -> None:
    pi.register_message_renderer("status-update", render_status)

    @pi.register_command(
        "status", description="Send a status message (usage: /status [warn|error] message)"
    )
    def status(args: str, ctx: CommandContext) -> None:
        words = args.split()
        level, content = "info", args.strip()
        if words and words[0] in ("warn", "error"):
            level, content = words[0], " ".join(words[1:]) or "Status update"
        pi.send_message(
            {
                "custom_type": "status-update",
                "content": content,
                "display": True,
                "details": {"level": level, "timestamp": time.time()},
            }
        )
