"""A hook's component (``hookline.components``) drawn in the terminal app.

The component renders to ANSI lines for the width it is given; a
``ComponentControl`` turns them into a prompt_toolkit control and hands every
key to ``handle_input`` as the raw sequence the terminal sent. A
``ComponentDialog`` is an inline component in the editor's place; overlays live
on the app's ``OverlayStack``, each drawn by a window ``OverlayViews`` keeps.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from prompt_toolkit.application import get_app_or_none
from prompt_toolkit.formatted_text import ANSI, StyleAndTextTuples, to_formatted_text
from prompt_toolkit.key_binding import KeyBindings, KeyPress, KeyPressEvent
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import UIContent, UIControl, Window

from hookline.components import (
    Component,
    OverlayOptions,
    default_keybindings,
    handle_input,
    is_component,
)
from hookline.components.overlay_stack import OverlayEntry, OverlayHandle, OverlayStack
from hookline.core.ui import strip_all_but_style
from hookline.modes.tui.dialogs import CustomDialog, Dialog

if TYPE_CHECKING:
    from hookline.modes.tui.host import UIHost

#: Keys prompt_toolkit reports that are no key a user pressed.
_NOT_KEYS = {Keys.Any, Keys.CPRResponse, Keys.Vt100MouseEvent, Keys.WindowsMouseEvent, Keys.Ignore}
_NOT_KEYS |= {Keys.ScrollUp, Keys.ScrollDown, Keys.SIGINT}


def _raw(press: KeyPress) -> str:
    """The sequence the terminal sent: prompt_toolkit hands a paste over unwrapped."""
    if press.key == Keys.BracketedPaste:
        return f"\x1b[200~{press.data}\x1b[201~"
    return press.data


class Terminal:
    """The ``tui`` a component factory gets: redraw on request, the terminal's size, and
    the terminal itself handed over to another program (``stop``, then ``start``)."""

    def __init__(
        self,
        size: Callable[[], tuple[int, int]],
        redraw: Callable[[], None],
        overlays: OverlayStack,
    ) -> None:
        self._size = size
        self._redraw = redraw
        self._overlays = overlays
        self._held: contextlib.ExitStack | None = None

    def request_render(self) -> None:
        self._redraw()

    def stop(self) -> None:
        """The app erased, its input detached and the terminal in cooked mode: a program
        run now (``subprocess.run`` with the terminal's stdio) has the terminal to itself,
        as under prompt_toolkit's ``run_in_terminal``."""
        app = get_app_or_none()
        if app is None or not app.is_running or self._held is not None:
            return
        app.renderer.erase()
        held = contextlib.ExitStack()
        held.enter_context(app.input.detach())
        held.enter_context(app.input.cooked_mode())
        self._held = held

    def start(self) -> None:
        """The terminal taken back: raw keys again and the app drawn afresh."""
        held, self._held = self._held, None
        if held is None:
            return
        held.close()
        app = get_app_or_none()
        if app is not None and app.is_running:
            app.renderer.reset()
            app.renderer.request_absolute_cursor_position()
        self._redraw()

    def show_overlay(
        self, component: Component, options: OverlayOptions | None = None, **placement: Any
    ) -> OverlayHandle:
        """Show another component over the app (pi's ``tui.showOverlay``)."""
        if options is None:
            options = OverlayOptions.from_placement(placement)
        return self._overlays.show(component, options)

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
        self,
        component: Component,
        on_key: Callable[[], None],
        max_height: int | None = None,
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
    """A component shown in the editor's place until its ``done(value)``.

    The component handles every key itself, Esc and Ctrl+C too (as in pi): a
    component that never calls ``done`` stays until the app ends.
    """

    overlay = False

    def __init__(self, component: Component, *, redraw: Callable[[], None]) -> None:
        super().__init__("", None, None, None)
        self.kb = KeyBindings()  # no Esc binding of its own: the component decides
        self.component = component
        if hasattr(component, "focused"):
            component.focused = True
        self.focus = Window(ComponentControl(component, redraw), dont_extend_height=True)
        self.container = self.focus
        self.future.add_done_callback(lambda _: dispose(component))


def dispose(component: Component) -> None:
    """The component is closed: no longer focused, its ``dispose()`` called."""
    if hasattr(component, "focused"):
        component.focused = False
    hook = getattr(component, "dispose", None)
    if callable(hook):
        hook()


class OverlayViews:
    """The window that draws each overlay of the stack, made when first drawn."""

    def __init__(self, stack: OverlayStack, redraw: Callable[[], None]) -> None:
        self.stack = stack
        self._redraw = redraw
        self._windows: dict[int, tuple[OverlayEntry, ComponentControl, Window]] = {}

    def view(self, entry: OverlayEntry) -> tuple[ComponentControl, Window]:
        known = self._windows.get(id(entry))
        if known is None or known[0] is not entry:
            control = ComponentControl(entry.component, self._redraw)
            known = (entry, control, Window(control, dont_extend_height=True))
            self._windows[id(entry)] = known
            live = {id(e) for e in self.stack.entries}
            for key in [k for k in self._windows if k not in live]:
                del self._windows[key]
        return known[1], known[2]

    def focused_window(self) -> Window | None:
        """The window of the overlay that has the keys, if one has."""
        for entry in self.stack.entries:
            if entry.component is self.stack.focused:
                return self.view(entry)[1]
        return None


async def show_component(
    host: UIHost, factory: Callable[..., Any], *, overlay: bool, placement: Mapping[str, Any]
) -> Any:
    """``ctx.ui.custom`` with pi's factory: the component inline (a dialog in the
    editor's place) or on the overlay stack, until its ``done(value)``; ``value``."""
    options = OverlayOptions.from_placement(placement)
    on_handle = placement.get("on_handle")
    answer: asyncio.Future[Any] = asyncio.get_running_loop().create_future()

    def done(value: Any = None) -> None:
        if not answer.done():
            answer.set_result(value)

    terminal = Terminal(host.size, host.invalidate, host.overlays)
    built = factory(terminal, host.theme, default_keybindings(), done)
    if answer.done() or built is None:  # done inside the factory, or nothing to show
        return answer.result() if answer.done() else None
    if not is_component(built):  # a prompt_toolkit container after all
        dialog: Dialog = CustomDialog(lambda _: built, overlay=overlay)
    elif not overlay:
        dialog = ComponentDialog(built, redraw=host.invalidate)
    else:
        handle = host.overlays.show(built, options, on_removed=lambda: done(None))
        if on_handle is not None:
            on_handle(handle)
        try:
            return await answer
        finally:
            handle.hide()
            dispose(built)
    answer.add_done_callback(lambda f: dialog.finish(f.result()))
    return await host.ask(dialog)
