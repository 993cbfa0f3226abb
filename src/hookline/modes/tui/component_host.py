"""A hook's component (``hookline.components``) drawn in the terminal app.

The component renders to ANSI lines for the width it is given; a
``ComponentControl`` turns them into a prompt_toolkit control and hands every
key to ``handle_input`` as the raw sequence the terminal sent. A
``ComponentDialog`` is the dialog ``ctx.ui.custom`` waits on: inline in the
editor's place, or an overlay placed by its ``OverlayOptions``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from prompt_toolkit.application import get_app_or_none
from prompt_toolkit.formatted_text import ANSI, StyleAndTextTuples, to_formatted_text
from prompt_toolkit.key_binding import KeyBindings, KeyPress, KeyPressEvent
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import UIContent, UIControl, Window

from hookline.components import Component, OverlayOptions, handle_input
from hookline.core.ui import strip_all_but_style
from hookline.modes.tui.dialogs import Dialog

#: Keys prompt_toolkit reports that are no key a user pressed.
_NOT_KEYS = {Keys.Any, Keys.CPRResponse, Keys.Vt100MouseEvent, Keys.WindowsMouseEvent, Keys.Ignore}
_NOT_KEYS |= {Keys.ScrollUp, Keys.ScrollDown, Keys.SIGINT}


def _raw(press: KeyPress) -> str:
    """The sequence the terminal sent: prompt_toolkit hands a paste over unwrapped."""
    if press.key == Keys.BracketedPaste:
        return f"\x1b[200~{press.data}\x1b[201~"
    return press.data


class Terminal:
    """The ``tui`` a component factory gets: redraw on request, the terminal's size."""

    def __init__(self, size: Callable[[], tuple[int, int]], redraw: Callable[[], None]) -> None:
        self._size = size
        self._redraw = redraw

    def request_render(self) -> None:
        self._redraw()

    @property
    def columns(self) -> int:
        return self._size()[0]

    @property
    def rows(self) -> int:
        return self._size()[1]


class ComponentControl(UIControl):
    """Draws a component at the window's width and gives it the keys.

    Rendered once a frame (prompt_toolkit asks for the height, then the content);
    only colour escapes reach the screen, so a component cannot move the cursor.
    """

    def __init__(
        self, component: Component, on_key: Callable[[], None], max_height: int | None = None
    ) -> None:
        self.component = component
        self.max_height = max_height
        self._cache: tuple[int, int, list[StyleAndTextTuples]] | None = None
        self._keys = KeyBindings()

        def _key(event: KeyPressEvent) -> None:
            for press in event.key_sequence:
                handle_input(component, _raw(press))
            on_key()

        # every key by name too: an exact binding of the app (a hook shortcut) would
        # otherwise win over ``<any>``
        for key in Keys:
            if key not in _NOT_KEYS:
                self._keys.add(key)(_key)
        self._keys.add(Keys.Any)(_key)

    def lines(self, width: int) -> list[StyleAndTextTuples]:
        app = get_app_or_none()
        frame = app.render_counter if app is not None else -1
        if self._cache is not None and self._cache[:2] == (width, frame):
            return self._cache[2]
        lines = self.component.render(width)
        if self.max_height is not None:
            lines = lines[: self.max_height]
        out: list[StyleAndTextTuples] = [
            list(to_formatted_text(ANSI(strip_all_but_style(line)))) for line in lines
        ]
        self._cache = (width, frame, out)
        return out

    def preferred_width(self, max_available_width: int) -> int | None:
        return None

    def preferred_height(
        self,
        width: int,
        max_available_height: int,
        wrap_lines: bool,
        get_line_prefix: Any,
    ) -> int | None:
        return len(self.lines(width))

    def is_focusable(self) -> bool:
        return True

    def create_content(self, width: int, height: int | None) -> UIContent:
        lines = self.lines(width)
        return UIContent(get_line=lambda i: lines[i], line_count=len(lines), show_cursor=False)

    def get_key_bindings(self) -> KeyBindings:
        return self._keys


class ComponentDialog(Dialog):
    """A component ``ctx.ui.custom`` shows until its ``done(value)`` is called.

    The component handles every key itself, Esc and Ctrl+C too (as in pi): a
    component that never calls ``done`` stays until the app ends.
    """

    def __init__(
        self,
        component: Component,
        *,
        overlay: bool,
        options: OverlayOptions,
        redraw: Callable[[], None],
    ) -> None:
        super().__init__("", None, None, None)
        self.kb = KeyBindings()  # no Esc binding of its own: the component decides
        self.component = component
        self.overlay = overlay
        self.options = options
        if hasattr(component, "focused"):
            component.focused = True
        self.control = ComponentControl(component, redraw)
        self.focus = Window(self.control, dont_extend_height=True, wrap_lines=False)
        self.container = self.focus
        self.future.add_done_callback(lambda _: self._dispose())

    def _dispose(self) -> None:
        if hasattr(self.component, "focused"):
            self.component.focused = False
        dispose = getattr(self.component, "dispose", None)
        if callable(dispose):
            dispose()

    def height(self, width: int) -> int:
        """How many rows the component takes at ``width`` (capped by ``max_height``)."""
        return len(self.control.lines(width))
