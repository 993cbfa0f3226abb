"""Custom footer: ``/footer`` swaps the footer for tokens, model and git branch.

pi's custom-footer example in Python. ``ctx.ui.set_footer(factory)`` replaces the
footer; ``factory(tui, theme, footer_data)`` returns a component drawn at every
frame. The tokens come from the session (``ctx.session_manager``), the model from
``ctx.model_info``; the git branch is what ``footer_data`` adds, and
``footer_data.on_branch_change(tui.request_render)`` draws the footer again when
you switch branches (its unsubscribe is the component's ``dispose``, called when
the footer is replaced). ``/footer`` again brings the built-in footer back.

    hookline --hook examples/pi/custom_footer.py      then  /footer
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from hookline import CommandContext, HookAPI, Theme


def short(n: int) -> str:
    return str(n) if n < 1000 else f"{n / 1000:.1f}k"


def visible_width(text: str) -> int:
    """Columns ``text`` takes once its colour escapes are drawn."""
    return len(re.sub(r"\x1b\[[0-9;]*m", "", text))


class StatsFooter:
    """``↑input ↓output`` on the left, ``model (branch)`` on the right."""

    def __init__(
        self, ctx: CommandContext, theme: Theme, footer_data: Any, dispose: Callable[[], None]
    ) -> None:
        self._ctx, self._theme, self._data = ctx, theme, footer_data
        self.dispose = dispose

    def tokens(self) -> tuple[int, int]:
        given = taken = 0
        for entry in self._ctx.session_manager.get_branch():
            message = entry.get("message") if entry.get("type") == "message" else None
            if isinstance(message, dict) and message.get("role") == "assistant":
                usage = message.get("usage") or {}
                given += int(usage.get("input_tokens", 0))
                taken += int(usage.get("output_tokens", 0))
        return given, taken

    def render(self, width: int) -> list[str]:
        given, taken = self.tokens()
        branch = self._data.get_git_branch()
        model = self._ctx.model_info
        left = self._theme.fg("dim", f"↑{short(given)} ↓{short(taken)}")
        suffix = f" ({branch})" if branch else ""
        name = model.id if model else "no-model"
        room = width - visible_width(left) - 1 - len(suffix)
        if len(name) > room:  # a narrow pane keeps the branch: the model's name gives way
            name = "…" + name[len(name) - max(room - 1, 0) :] if room > 1 else ""
        right = self._theme.fg("dim", name + suffix)
        pad = " " * max(1, width - visible_width(left) - visible_width(right))
        return [left + pad + right]

    def invalidate(self) -> None:
        """Nothing is cached: each render reads the session."""


def register(pi: HookAPI) -> None:
    enabled = False

    @pi.register_command("footer", description="Toggle custom footer")
    def footer(args: str, ctx: CommandContext) -> None:
        nonlocal enabled
        enabled = not enabled
        if enabled:

            def make(tui: Any, theme: Theme, footer_data: Any) -> StatsFooter:
                unsubscribe = footer_data.on_branch_change(tui.request_render)
                return StatsFooter(ctx, theme, footer_data, unsubscribe)

            ctx.ui.set_footer(make)
            ctx.ui.notify("Custom footer enabled", "info")
        else:
            ctx.ui.set_footer(None)
            ctx.ui.notify("Default footer restored", "info")
