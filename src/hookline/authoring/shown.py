"""A hook's component under test: render it at a width, press keys, read what ``done`` gave.

``ScriptedUI.custom`` builds the component as the terminal app would (the factory
gets a ``tui``, the UI's theme, the default keybindings and ``done``) and waits
until the test closes it through its keys or ``close``::

    task = asyncio.ensure_future(harness.command("pick"))
    shown = await harness.ui.next_component()
    assert "apple" in shown.text(40)
    shown.press("down", "enter")
    await task
    assert shown.value == "banana"
"""

from __future__ import annotations

import asyncio
from typing import Any

from hookline.components import (
    Component,
    OverlayOptions,
    handle_input,
    key_sequence,
    strip_ansi,
)
from hookline.components.overlay_stack import OverlayHandle, OverlayStack


class ShownComponent:
    """One ``ctx.ui.custom`` component: its placement, its renders and its answer."""

    def __init__(
        self,
        overlay: bool,
        placement: dict[str, Any],
        columns: int,
        rows: int,
        overlays: OverlayStack,
    ) -> None:
        self.overlay = overlay
        #: The UI's overlays: this one (when ``overlay``) and those it showed itself.
        self.overlays = overlays
        #: The overlay options ``custom`` was called with (``anchor``, ``width`` ...).
        self.placement = placement
        self.columns = columns
        self.rows = rows
        #: How often the component asked to be drawn again (``tui.request_render()``).
        self.render_requests = 0
        #: Handed to the test by ``next_component`` already.
        self.seen = False
        self.component: Component | None = None
        self.future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()

    # the ``tui`` the factory gets
    def request_render(self) -> None:
        self.render_requests += 1

    def show_overlay(
        self, component: Component, options: OverlayOptions | None = None, **placement: Any
    ) -> OverlayHandle:
        """``tui.show_overlay``: onto the UI's overlay stack."""
        return self.overlays.show(component, options or OverlayOptions.from_placement(placement))

    def finish(self, value: Any = None) -> None:
        """``done(value)``: the component is closed and ``custom`` returns ``value``."""
        if not self.future.done():
            self.future.set_result(value)

    close = finish

    @property
    def done(self) -> bool:
        return self.future.done()

    @property
    def value(self) -> Any:
        """What ``done`` was called with (``None`` while it is open)."""
        return self.future.result() if self.future.done() else None

    def render(self, width: int | None = None) -> list[str]:
        """The component's lines at ``width`` (the UI's columns by default), styles kept."""
        if self.component is None:
            raise RuntimeError("the factory returned no component")
        return self.component.render(self.columns if width is None else width)

    def text(self, width: int | None = None) -> str:
        """The lines at ``width`` as plain text, one per line."""
        return "\n".join(strip_ansi(line) for line in self.render(width))

    def send(self, *data: str) -> ShownComponent:
        """Give raw terminal sequences to the component that has the keys: the overlay
        focused on the stack, else this one."""
        for item in data:
            target = self.overlays.focused or self.component
            if target is not None and not self.done:
                handle_input(target, item)
        return self

    def press(self, *keys: str) -> ShownComponent:
        """Press keys by id (``"down"``, ``"ctrl+c"``, ``Key.enter``), one after another."""
        return self.send(*(key_sequence(key) for key in keys))

    def type(self, text: str) -> ShownComponent:
        """Type ``text``, one key per character."""
        return self.send(*text)
