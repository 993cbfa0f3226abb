"""The app's rows, top to bottom, and the hooks' widgets among them.

Hook header, live area, working line, widgets above the editor, a rule, the
editor or a dialog (under the preview of the call it asks about), completions,
widgets below, the footer (or the one a hook replaced it with), the hooks'
status line (a hook's footer shows the statuses itself). A hook's overlay floats
over them: a component at the place its overlay options resolve to on the screen
(the app takes the terminal's height less one row while one shows), a
prompt_toolkit container centred.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from prompt_toolkit.filters import Condition, has_completions
from prompt_toolkit.formatted_text import ANSI, StyleAndTextTuples, to_formatted_text
from prompt_toolkit.layout import (
    AnyContainer,
    ConditionalContainer,
    Container,
    Dimension,
    DynamicContainer,
    Float,
    FloatContainer,
    FormattedTextControl,
    HSplit,
    Window,
)
from prompt_toolkit.layout.menus import CompletionsMenu

from hookline.components import overlay_size, resolve_overlay_layout
from hookline.components.overlay_stack import OverlayEntry
from hookline.core.ui import StatusLine
from hookline.modes.tui.component_host import OverlayViews
from hookline.modes.tui.dialogs import CustomDialog, DialogHost
from hookline.modes.tui.hook_render import made_container
from hookline.modes.tui.live_area import LiveArea
from hookline.modes.tui.preview import ApprovalPreview
from hookline.modes.tui.prompt import Prompt


class Widgets:
    """Hook widgets by key: where each goes ("above"/"below" the editor, or the
    "header"/"footer" a hook replaced) and the container shown."""

    def __init__(self, width: Callable[[], int]) -> None:
        self._shown: dict[str, tuple[str, AnyContainer, object]] = {}
        self._width = width

    def set(self, key: str, made: object | None, placement: str) -> None:
        """Lines, a component (``render(width)``, drawn at each frame) or a prompt_toolkit
        container (what a factory made); ``None`` removes it. The one replaced is
        disposed of (its ``dispose()``, when it has one: a footer unsubscribing)."""
        old = self._shown.pop(key, None)
        if old is not None:
            _dispose(old[2])
        if made is not None:
            self._shown[key] = (placement, made_container(made, self._width), made)

    def at(self, placement: str) -> list[AnyContainer]:
        return [c for p, c, _ in self._shown.values() if p == placement]

    def box(self, placement: str) -> AnyContainer:
        items = self.at(placement)
        return HSplit(items) if items else Window(height=0)


def _dispose(made: object) -> None:
    from hookline.core.calling import HOOK_FAILURES

    dispose = getattr(made, "dispose", None)
    if callable(dispose):
        with contextlib.suppress(*HOOK_FAILURES):
            dispose()


class Rows:
    """Builds the app's container from its parts; what each row shows is read at each frame."""

    def __init__(
        self,
        *,
        dialogs: DialogHost,
        preview: ApprovalPreview,
        widgets: Widgets,
        live: LiveArea,
        prompt: Prompt,
        working: Callable[[], StyleAndTextTuples],
        busy: Callable[[], bool],
        footer: Callable[[], StyleAndTextTuples],
        status: StatusLine,
        width: Callable[[], int],
        height: Callable[[], int],
        overlays: OverlayViews,
    ) -> None:
        self._dialogs = dialogs
        self._preview = preview
        self._widgets = widgets
        self._live = live
        self._prompt = prompt
        self._working = working
        self._busy = busy
        self._footer_text = footer
        self._status = status
        self._width = width
        self._height = height
        self._overlays = overlays

    def root(self) -> AnyContainer:
        """The app, with a float for a hook's overlay component over it.

        The app draws only its own rows (not full screen): while an overlay is up,
        blank rows below the footer make room when the app is shorter than it.
        """
        app = self._rows()
        overlay = ConditionalContainer(
            DynamicContainer(self._overlay_container), filter=Condition(self._overlay_shown)
        )

        def room() -> Dimension:
            if self._overlays.stack.shown():  # the screen's height, where pi places them
                return Dimension.exact(max(self._screen_rows() - self._app_rows(app), 0))
            if not self._overlay_shown():
                return Dimension.exact(0)
            width = self._width()
            needed = overlay.preferred_height(width, 1000).preferred
            return Dimension.exact(max(needed - app.preferred_height(width, 1000).preferred, 0))

        placed = [
            _PlacedOver(index, self._overlays, self._width, self._screen_rows)
            for index in range(MAX_OVERLAYS)
        ]
        return FloatContainer(
            HSplit([app, Window(height=room)]),
            floats=[_CenteredOver(overlay, app, self._width, self._overlay_shown), *placed],
        )

    def _screen_rows(self) -> int:
        """The rows component overlays are placed on: the terminal's less one (an app
        exactly as tall as the terminal leaves a copy of itself in the scrollback at
        each print above it)."""
        return max(self._height() - 1, 1)

    def _app_rows(self, app: Container) -> int:
        return app.preferred_height(self._width(), 1000).preferred

    def _overlay(self) -> CustomDialog | None:
        dialog = self._dialogs.current
        return dialog if isinstance(dialog, CustomDialog) and dialog.overlay else None

    def _overlay_shown(self) -> bool:
        return self._overlay() is not None

    def _overlay_container(self) -> AnyContainer:
        dialog = self._overlay()
        return dialog.container if dialog is not None else Window(height=0)

    def _rows(self) -> HSplit:
        no_dialog = Condition(lambda: self._dialogs.current is None)
        return HSplit(
            [
                DynamicContainer(lambda: self._widgets.box("header")),
                ConditionalContainer(self._live.window(), filter=Condition(self._live.shown)),
                ConditionalContainer(
                    Window(FormattedTextControl(self._working), height=1),
                    filter=Condition(self._busy),
                ),
                DynamicContainer(lambda: self._widgets.box("above")),
                ConditionalContainer(  # a hook's editor draws its own rules
                    Window(height=1, char="─", style="class:rule"),
                    filter=Condition(lambda: self._prompt.custom is None),
                ),
                DynamicContainer(self._center),
                ConditionalContainer(
                    CompletionsMenu(max_height=8, scroll_offset=1),
                    filter=no_dialog & has_completions,
                ),
                DynamicContainer(lambda: self._widgets.box("below")),
                DynamicContainer(self._footer),
                ConditionalContainer(
                    Window(FormattedTextControl(self._status_fragments), height=1),
                    filter=Condition(self._status_shown),
                ),
            ]
        )

    def _center(self) -> AnyContainer:
        dialog = self._dialogs.current
        if dialog is not None and not getattr(dialog, "overlay", False):
            if self._preview.shown():  # the call this dialog asks about, right above it
                return self._preview.container(dialog.container)
            return dialog.container
        return self._prompt.window

    def _footer(self) -> AnyContainer:
        replaced = self._widgets.at("footer")
        if replaced:
            return replaced[0]
        return Window(FormattedTextControl(self._footer_text), height=1, style="class:footer")

    def _status_shown(self) -> bool:
        """There are status texts and the footer is the app's (a hook's footer shows them
        itself, from ``footer_data.get_extension_statuses()``, as in pi)."""
        return bool(self._status.items()) and not self._widgets.at("footer")

    def _status_fragments(self) -> StyleAndTextTuples:
        # a theme's colours drawn over the status style
        return to_formatted_text(ANSI(self._status.render(self._width())), style="class:status")


class _CenteredOver(Float):
    """A float centred on the rows the app draws, not on the terminal.

    The app is not full screen: its drawing area reaches the terminal's bottom
    while its rows may end higher, so ``top`` is measured again at each frame.
    """

    def __init__(
        self,
        content: Container,
        over: Container,
        width: Callable[[], int],
        shown: Callable[[], bool],
    ) -> None:
        super().__init__(content, z_index=10)
        self._content, self._over, self._width, self._shown = content, over, width, shown

    @property  # type: ignore[override]
    def top(self) -> int:
        if not self._shown():
            return 0  # nothing floats: measuring the app here cost a third of each frame
        width = self._width()
        rows = self._over.preferred_height(width, 1000).preferred
        height = self._content.preferred_height(width, 1000).preferred
        return max((rows - height) // 2, 0)

    @top.setter
    def top(self, value: int | None) -> None:
        """Set by ``Float.__init__``; the position is always computed."""


#: The most component overlays drawn at once (the topmost ones).
MAX_OVERLAYS = 8


class _PlacedOver(Float):
    """The ``index``-th visible overlay of the stack (back to front), at the cell its
    options resolve to on the terminal.

    While one shows the app is as tall as the screen (the terminal less one row),
    so the float's rows are the screen's; its width is the one the component
    renders at, its height what it rendered (cut to ``max_height``).
    """

    def __init__(
        self,
        index: int,
        views: OverlayViews,
        columns: Callable[[], int],
        rows: Callable[[], int],
    ) -> None:
        content = ConditionalContainer(
            DynamicContainer(self._window), filter=Condition(lambda: self._entry() is not None)
        )
        super().__init__(
            content, z_index=10 + index, width=self._get_width, height=self._get_height
        )
        self._index, self._views, self._columns, self._rows = index, views, columns, rows

    def _entry(self) -> OverlayEntry | None:
        shown = self._views.stack.shown()[-MAX_OVERLAYS:]
        return shown[self._index] if self._index < len(shown) else None

    def _window(self) -> AnyContainer:
        entry = self._entry()
        return self._views.view(entry)[1] if entry is not None else Window(height=0)

    def _place(self) -> tuple[int, int, int, int]:
        """``(top, left, width, height)``; a cell when nothing floats here."""
        entry = self._entry()
        if entry is None:
            return 0, 0, 1, 1
        columns, rows = self._columns(), self._rows()
        width, limit = overlay_size(entry.options, columns, rows)
        control = self._views.view(entry)[0]
        control.max_height = limit
        height = max(len(control.lines(width)), 1)
        layout = resolve_overlay_layout(entry.options, height, columns, rows)
        return layout.row, layout.col, width, height

    def _get_width(self) -> int:
        return self._place()[2]

    def _get_height(self) -> int:
        return self._place()[3]

    @property  # type: ignore[override]
    def top(self) -> int:
        return self._place()[0]

    @top.setter
    def top(self, value: int | None) -> None:
        """Set by ``Float.__init__``; the position is always computed."""

    @property  # type: ignore[override]
    def left(self) -> int:
        return self._place()[1]

    @left.setter
    def left(self, value: int | None) -> None:
        """Set by ``Float.__init__``; the position is always computed."""


def prompt_prefix(line: int, wrapped: int) -> StyleAndTextTuples:
    """``› `` before the editor's first line, two spaces before the others."""
    return [("class:prompt", "› " if line == 0 and wrapped == 0 else "  ")]
