"""Widget placement: one widget above the editor, one below it.

pi's widget-placement example in Python. ``ctx.ui.set_widget(key, lines)`` puts a
widget above the editor; ``placement="below"`` puts it between the editor and the
footer. Both are set when the session starts and again after a session switch
(``/new``, ``/resume``). Without a terminal UI nothing is shown.

    hookline --hook examples/pi/widget_placement.py
"""

from __future__ import annotations

from typing import Any

from hookline import HookAPI, HookContext


def apply_widgets(ctx: HookContext) -> None:
    if not ctx.has_ui:
        return
    ctx.ui.set_widget("widget-above", ["Above editor widget"])
    ctx.ui.set_widget("widget-below", ["Below editor widget"], placement="below")


def register(pi: HookAPI) -> None:
    @pi.on("session_start")
    def start(event: Any, ctx: HookContext) -> None:
        apply_widgets(ctx)

    @pi.on("session_switch")
    def switch(event: Any, ctx: HookContext) -> None:
        apply_widgets(ctx)
