"""Model status: the model in the status line, and a notice when you change it.

pi's model-status example in Python. ``model_select`` fires when the model changes
(``/model``, RPC ``set_model``, or restored with a resumed session, ``source``
``restore``); the handler notifies the change (not on a restore), shows
``🤖 <model id>`` in the status line, and logs ``previous → next (source)``.

    hookline --hook examples/pi/model_status.py      then  /model
"""

from __future__ import annotations

import logging
from typing import Any

from hookline import HookAPI, HookContext, ModelSelectEvent

log = logging.getLogger(__name__)


def model_name(model: dict[str, Any] | None) -> str:
    """``provider/id``, or ``none``."""
    return f"{model['provider']}/{model['id']}" if model else "none"


def register(pi: HookAPI) -> None:
    @pi.on("model_select")
    def model_select(event: ModelSelectEvent, ctx: HookContext) -> None:
        after, before = model_name(event.model), model_name(event.previous_model)
        if event.source != "restore":
            ctx.ui.notify(f"Model: {after}", "info")
        ctx.ui.set_status("model", f"🤖 {event.model['id']}")
        log.info("[model_select] %s → %s (%s)", before, after, event.source)
