"""Overlays over one another: which are shown, in what order, and which has the keys.

pi's model: each overlay shown goes on top and takes the keys, unless it is
``non_capturing``; a handle hides it for good, hides it for a while, or gives it
the keys (``focus`` also brings it to the front). When the overlay that has the
keys goes, they return to the topmost visible capturing overlay, else to whatever
had them before it (``None``: the app underneath).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hookline.components.component import Component
from hookline.components.overlay import OverlayOptions


@dataclass(eq=False)
class OverlayEntry:
    """One overlay on the stack."""

    component: Component
    options: OverlayOptions
    #: What had the keys when it was shown (``None``: the app).
    pre_focus: Component | None
    focus_order: int
    hidden: bool = False
    #: Called once when it leaves the stack.
    on_removed: Callable[[], None] | None = field(default=None, repr=False)


class OverlayStack:
    """The overlays of one screen, and the component that has the keys."""

    def __init__(
        self, size: Callable[[], tuple[int, int]], redraw: Callable[[], None] = lambda: None
    ) -> None:
        self._size = size
        self._redraw = redraw
        self.entries: list[OverlayEntry] = []
        #: The overlay component that has the keys; ``None``: the app underneath.
        self.focused: Component | None = None
        self._counter = 0

    def show(
        self,
        component: Component,
        options: OverlayOptions | None = None,
        *,
        on_removed: Callable[[], None] | None = None,
    ) -> OverlayHandle:
        self._counter += 1
        entry = OverlayEntry(
            component,
            options or OverlayOptions(),
            self.focused,
            self._counter,
            on_removed=on_removed,
        )
        self.entries.append(entry)
        if not entry.options.non_capturing and self.is_visible(entry):
            self._focus(component)
        self._redraw()
        return OverlayHandle(self, entry)

    def is_visible(self, entry: OverlayEntry) -> bool:
        if entry.hidden:
            return False
        visible = entry.options.visible
        return visible is None or bool(visible(*self._size()))

    def shown(self) -> list[OverlayEntry]:
        """The visible overlays, back to front."""
        return sorted((e for e in self.entries if self.is_visible(e)), key=lambda e: e.focus_order)

    def remove(self, entry: OverlayEntry) -> None:
        if entry not in self.entries:
            return
        self.entries.remove(entry)
        if self.focused is entry.component:
            top = self._topmost()
            self._focus(top.component if top is not None else entry.pre_focus)
        if entry.on_removed is not None:
            entry.on_removed()
        self._redraw()

    def clear(self) -> None:
        """Every overlay goes (the app is closing)."""
        for entry in list(self.entries):
            self.remove(entry)

    def _topmost(self) -> OverlayEntry | None:
        for entry in reversed(self.entries):
            if not entry.options.non_capturing and self.is_visible(entry):
                return entry
        return None

    def _focus(self, component: Component | None) -> None:
        if component is not None and all(e.component is not component for e in self.entries):
            component = None  # what had the keys has gone itself
        for entry in self.entries:
            _set_focused(entry.component, entry.component is component)
        self.focused = component


def _set_focused(component: Any, focused: bool) -> None:
    if hasattr(component, "focused"):
        component.focused = focused


class OverlayHandle:
    """Controls one overlay (pi's ``OverlayHandle``)."""

    def __init__(self, stack: OverlayStack, entry: OverlayEntry) -> None:
        self._stack = stack
        self._entry = entry

    def hide(self) -> None:
        """Remove the overlay for good."""
        self._stack.remove(self._entry)

    def set_hidden(self, hidden: bool) -> None:
        """Hide it for a while (the keys go elsewhere), or show it again."""
        stack, entry = self._stack, self._entry
        if entry.hidden == hidden:
            return
        entry.hidden = hidden
        if hidden and stack.focused is entry.component:
            top = stack._topmost()
            stack._focus(top.component if top is not None else entry.pre_focus)
        elif not hidden and not entry.options.non_capturing and stack.is_visible(entry):
            stack._counter += 1
            entry.focus_order = stack._counter
            stack._focus(entry.component)
        stack._redraw()

    def is_hidden(self) -> bool:
        return self._entry.hidden

    def focus(self) -> None:
        """Give it the keys and bring it to the front."""
        stack, entry = self._stack, self._entry
        if entry not in stack.entries or not stack.is_visible(entry):
            return
        stack._focus(entry.component)
        stack._counter += 1
        entry.focus_order = stack._counter
        stack._redraw()

    def unfocus(self) -> None:
        """Give the keys back: to the topmost other capturing overlay, else to what had them."""
        stack, entry = self._stack, self._entry
        if stack.focused is not entry.component:
            return
        top = stack._topmost()
        stack._focus(top.component if top is not None and top is not entry else entry.pre_focus)
        stack._redraw()

    def is_focused(self) -> bool:
        return self._stack.focused is self._entry.component
