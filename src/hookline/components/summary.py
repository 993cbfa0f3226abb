"""A component where nothing can draw it (RPC, print and JSON modes): its text, once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hookline.components.ansi import strip_ansi
from hookline.components.component import (
    Component,
    accepts,
    is_component,
    is_component_factory,
)
from hookline.components.keys import default_keybindings
from hookline.components.overlay import OverlayOptions
from hookline.components.overlay_stack import OverlayHandle, OverlayStack

#: The width a component is rendered at for its summary.
SUMMARY_WIDTH = 80


def render_summary(component: Any, width: int = SUMMARY_WIDTH) -> str:
    """The component rendered once at ``width``, without escapes or trailing blanks:
    what a mode without a terminal shows in its place."""
    lines = [strip_ansi(line).rstrip() for line in component.render(width)]
    while lines and not lines[-1]:
        lines.pop()
    while lines and not lines[0]:
        lines.pop(0)
    return "\n".join(lines)


class _Headless:
    """The ``tui`` of a summary: nothing to redraw, a terminal of the summary's size."""

    columns = SUMMARY_WIDTH
    rows = 24

    def __init__(self) -> None:
        self.overlays = OverlayStack(lambda: (self.columns, self.rows))

    def request_render(self) -> None:
        return None

    def show_overlay(
        self, component: Component, options: OverlayOptions | None = None, **placement: Any
    ) -> OverlayHandle:
        """Kept on a stack nobody draws: only the component ``custom`` returned is shown."""
        return self.overlays.show(component, options or OverlayOptions.from_placement(placement))


def summarize(factory: Callable[..., Any], theme: Any) -> str | None:
    """What a mode without a terminal shows for ``ctx.ui.custom(factory)``: the summary
    of the component ``factory(tui, theme, keybindings, done)`` returns, its ``dispose()``
    called right after. ``None`` when there is nothing to show: a prompt_toolkit factory
    (``factory(done)``), no component, or an empty one."""
    if not is_component_factory(factory):
        return None
    component = factory(_Headless(), theme, default_keybindings(), lambda value=None: None)
    if not is_component(component):
        return None
    try:
        return render_summary(component) or None
    finally:
        dispose = getattr(component, "dispose", None)
        if callable(dispose):
            dispose()


def show_summary(factory: Callable[..., Any], theme: Any, notify: Callable[[str], None]) -> None:
    """``ctx.ui.custom`` where there is no terminal (print, JSON, RPC, line mode): the
    component's summary given to ``notify``; ``custom`` then answers ``None``."""
    text = summarize(factory, theme)
    if text:
        notify(text)


def widget_lines(factory: Callable[..., Any], theme: Any) -> list[str] | None:
    """A widget's lines where nothing can draw its component: pi's ``factory(tui,
    theme)`` rendered once at :data:`SUMMARY_WIDTH`, without escapes; ``None`` for
    any other factory (a prompt_toolkit one) or no component."""
    if not accepts(factory, 2):
        return None
    component = factory(_Headless(), theme)
    if not is_component(component):
        return None
    try:
        return [strip_ansi(line).rstrip() for line in component.render(SUMMARY_WIDTH)]
    finally:
        dispose = getattr(component, "dispose", None)
        if callable(dispose):
            dispose()
