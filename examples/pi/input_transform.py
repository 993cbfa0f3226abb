"""pi's input-transform example: the ``input`` event rewrites or answers a prompt itself.

- ``?quick QUESTION`` becomes "Respond briefly in 1-2 sentences: QUESTION";
- ``ping`` is answered "pong" and ``time`` with the local time, both as a
  notification and without calling the model (``handled``);
- prompts a hook sent (``source == "extension"``) are left alone.

    hookline --hook examples/pi/input_transform.py -p "?quick What is Python?"
"""

from __future__ import annotations

import time
from typing import Any

from hookline import HookAPI, HookContext, InputEvent

QUICK = "?quick "

CONTINUE: dict[str, Any] = {"action": "continue"}
HANDLED: dict[str, Any] = {"action": "handled"}


def register(pi: HookAPI) -> None:
    @pi.on("input")
    def transform(event: InputEvent, ctx: HookContext) -> dict[str, Any]:
        if event.source == "extension":
            return CONTINUE
        if event.text.startswith(QUICK):
            query = event.text[len(QUICK) :].strip()
            if not query:
                ctx.ui.notify("Usage: ?quick <question>", "warning")
                return HANDLED
            return {"action": "transform", "text": f"Respond briefly in 1-2 sentences: {query}"}
        word = event.text.lower()
        if word == "ping":
            ctx.ui.notify("pong", "info")
            return HANDLED
        if word == "time":
            ctx.ui.notify(time.strftime("%c"), "info")
            return HANDLED
        return CONTINUE
