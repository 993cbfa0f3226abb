"""Custom header: the pi mascot at the top of the terminal app, drawn by a component.

pi's custom-header example in Python. At session start (with a UI),
``ctx.ui.set_header(factory)`` puts the mascot above everything else;
``factory(tui, theme)`` returns a component, any object with ``render(width)``
returning lines of ANSI text, coloured with the theme. ``/builtin-header`` takes
it away again.

    hookline --hook examples/pi/custom_header.py      then  /builtin-header
"""

from __future__ import annotations

from typing import Any

from hookline import CommandContext, HookAPI, HookContext, Theme, __version__

BLOCK, PUPIL = "█", "▌"


def mascot(theme: Theme) -> list[str]:
    """pi's mascot: two eyes looking sideways, a wide top bar, two legs."""
    eye = BLOCK + theme.fg("dim", PUPIL)
    legs = f"     {theme.fg('accent', BLOCK * 2)}    {theme.fg('accent', BLOCK * 2)}"
    return ["", f"     {eye}  {eye}", f"  {theme.fg('accent', BLOCK * 14)}", *[legs] * 4, ""]


class MascotHeader:
    """The header component: the mascot, then a line naming the agent."""

    def __init__(self, theme: Theme) -> None:
        self._theme = theme

    def render(self, width: int) -> list[str]:
        theme = self._theme
        subtitle = theme.fg("muted", "   hookline coding agent") + theme.fg(
            "dim", f" v{__version__}"
        )
        return [*mascot(theme), subtitle]

    def invalidate(self) -> None:
        """Nothing is cached: each render reads the theme."""


def register(pi: HookAPI) -> None:
    @pi.on("session_start")
    def start(event: Any, ctx: HookContext) -> None:
        if ctx.has_ui:
            ctx.ui.set_header(lambda tui, theme: MascotHeader(theme))

    @pi.register_command("builtin-header", description="Restore the built-in header")
    def builtin_header(args: str, ctx: CommandContext) -> None:
        ctx.ui.set_header(None)
        ctx.ui.notify("Built-in header restored", "info")
