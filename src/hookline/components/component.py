"""What a component is (pi-tui's contract) and the container that stacks them.

A component renders itself to lines for a width: each line ANSI-styled text at most
``width`` cells wide. One that takes keys has ``handle_input(data)``, called with
the raw terminal sequence of each key while it has the focus (match it with
:func:`~hookline.components.keys.matches_key`). ``invalidate()`` drops whatever it
cached (the theme changed). The host draws it again after a key, or when the
component asks through ``tui.request_render()``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

#: Put where the cursor is in a rendered line by a focused component (zero width;
#: the host removes it). pi's marker, so a port can keep it.
CURSOR_MARKER = "\x1b_pi:c\x07"


@runtime_checkable
class Component(Protocol):
    """Renders to lines; ``handle_input(data: str)`` is optional (a component that takes keys)."""

    def render(self, width: int) -> list[str]: ...

    def invalidate(self) -> None: ...


@runtime_checkable
class Focusable(Protocol):
    """A component told when it has the focus (it then draws :data:`CURSOR_MARKER`)."""

    focused: bool


class TUI(Protocol):
    """The host a component is drawn by (the factory's first argument)."""

    def request_render(self) -> None:
        """Draw again soon (after a timer tick, or state changed outside a key)."""

    @property
    def columns(self) -> int:
        """The terminal's width in cells."""

    @property
    def rows(self) -> int:
        """The terminal's height in rows."""

    def show_overlay(self, component: Component, options: Any = None, **placement: Any) -> Any:
        """Show another component over the screen (pi's ``showOverlay``); its
        ``OverlayHandle``. ``options`` is an ``OverlayOptions``, or give them by name."""


@runtime_checkable
class Stoppable(Protocol):
    """A ``tui`` that can hand the terminal to another program (pi's ``tui.stop()`` and
    ``tui.start()``): the terminal app's can; a mode without a terminal has none to give."""

    def stop(self) -> None:
        """Give the terminal up: the app is erased and no longer reads the keys."""

    def start(self) -> None:
        """Take the terminal back and draw the app again."""


def is_component(value: Any) -> bool:
    """Whether ``value`` is a component (it has ``render``): not a prompt_toolkit
    container, nor a rich renderable (rich's ``Text`` has a ``render`` method too)."""
    if not callable(getattr(value, "render", None)):
        return False
    return not any(hasattr(value, name) for name in _NOT_COMPONENTS)


#: What marks a prompt_toolkit container and a rich renderable.
_NOT_COMPONENTS = ("__pt_container__", "__rich_console__", "__rich__")


def accepts(factory: Callable[..., Any], count: int) -> bool:
    """Whether ``factory`` can be called with ``count`` positional arguments."""
    try:
        inspect.signature(factory).bind(*[None] * count)
    except TypeError:
        return False
    except ValueError:  # no signature to read (a builtin): assume it can
        return True
    return True


def is_component_factory(factory: Callable[..., Any]) -> bool:
    """Whether ``factory`` takes pi's four arguments (``tui, theme, keybindings, done``)
    and so returns a component; a factory of one (``done``) is the terminal app's
    older form, returning a prompt_toolkit container."""
    return accepts(factory, 4)


def handle_input(component: Any, data: str) -> None:
    """Give ``data`` to ``component`` when it takes keys."""
    handler = getattr(component, "handle_input", None)
    if callable(handler):
        handler(data)


class Container:
    """Children drawn one under another."""

    def __init__(self, children: list[Component] | None = None) -> None:
        self.children: list[Component] = list(children or [])

    def add_child(self, component: Component) -> None:
        self.children.append(component)

    def remove_child(self, component: Component) -> None:
        if component in self.children:
            self.children.remove(component)

    def clear(self) -> None:
        self.children.clear()

    def invalidate(self) -> None:
        for child in self.children:
            child.invalidate()

    def render(self, width: int) -> list[str]:
        return [line for child in self.children for line in child.render(width)]
