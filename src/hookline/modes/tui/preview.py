"""What a call will do, shown above the dialog that asks whether it may.

The agent announces a call it is about to ask about (``permission_request``);
the activity keeps it as its pending ``Approval`` until the call runs or ends.
While a dialog is up and an approval is pending, the call's preview is drawn
right above the dialog, whatever the dialog asks; once the dialog is answered
it is gone. The preview is the tool's own ``meta["render_preview"](args,
options)`` (a string or a rich renderable: the built-in write, edit and bash
tools have one, and so may a hook's tool); a tool without one shows its
arguments, and a renderer that raises falls back to that and is reported.
It is drawn off the loop (highlighting a long file takes a while; a line
says so meanwhile), and a preview taller than the room it has scrolls
(PgUp/PgDn, Shift+↑/↓).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import ANSI, StyleAndTextTuples
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import (
    AnyContainer,
    ConditionalContainer,
    FormattedTextControl,
    HSplit,
    Window,
)

from hookline.modes.tui import render
from hookline.modes.tui.transcript import hook_failures, tool_renderer

if TYPE_CHECKING:
    from rich.console import RenderableType

    from hookline.core.theme import Theme
    from hookline.modes.tui.activity import Activity, Approval
    from hookline.modes.tui.host import LoadedAgent
    from hookline.modes.tui.style import Palette

#: Rows the rest of the app keeps while a preview is up (live call, dialog, footer...).
RESERVED_ROWS = 14
#: A preview always gets at least this many rows, however small the terminal.
MIN_ROWS = 3


def call_preview(loaded: LoadedAgent, approval: Approval, width: int) -> RenderableType | None:
    """What ``approval``'s call will do: the tool's own preview, else its arguments;
    ``None`` for a call with nothing to show. A renderer that raises is reported."""
    fn = tool_renderer(loaded, approval.tool_name, "render_preview")
    if fn is not None:
        try:
            drawn = render.drawn(fn(approval.args, {"width": width}))
        except hook_failures() as exc:
            loaded.agent.runner.report("", f"render_preview:{approval.tool_name}", exc)
            drawn = None
        if drawn is not None:
            return drawn
    return arguments_preview(approval.args)


def arguments_preview(args: dict[str, Any]) -> RenderableType | None:
    """A call's arguments as highlighted JSON: the preview of a tool without its own."""
    if not args:
        return None
    from rich.syntax import Syntax

    text = json.dumps(args, indent=2, ensure_ascii=False, default=str)
    return Syntax(render.clean(text), "json", theme="monokai", word_wrap=True)


def _lines(renderable: RenderableType | None, width: int, theme: Theme) -> list[str] | None:
    if renderable is None:
        return None
    return render.to_ansi(renderable, width, theme).rstrip("\n").split("\n")


class ApprovalPreview:
    """The pending approval's preview above the dialog: drawn once per call and width,
    scrolled by keys while it is up."""

    def __init__(
        self,
        activity: Activity,
        loaded: LoadedAgent,
        dialog_up: Callable[[], bool],
        width: Callable[[], int],
        rows: Callable[[], int],
        redraw: Callable[[], None],
        palette: Palette,
    ) -> None:
        self._activity = activity
        self._palette = palette
        self._loaded = loaded
        self._dialog_up = dialog_up
        self._width = width
        self._rows = rows
        self._redraw = redraw
        #: The lines drawn, for which approval and width; the first line in view.
        self._drawn: tuple[Approval | None, int, list[str] | None] = (None, 0, None)
        self._job: asyncio.Future[None] | None = None
        self.top = 0
        self._view: list[AnyContainer] = [
            Window(FormattedTextControl(self._text), height=self.height, dont_extend_height=True),
            ConditionalContainer(
                Window(FormattedTextControl(self._hint), height=1), filter=Condition(self._scrolls)
            ),
        ]
        #: The scrolling keys, for the app's key bindings.
        self.keys = self._keys()

    def lines(self) -> list[str] | None:
        """The pending call's preview lines, or ``None`` when there is nothing to show."""
        approval = self._activity.approval
        if approval is None or not self._dialog_up():
            return None
        width = self._width()
        if self._drawn[0] is not approval or self._drawn[1] != width:
            if self._drawn[0] is not approval:
                self.top = 0
            self._drawn = (
                approval,
                width,
                [
                    render.dim_ansi("preparing the preview…", width, self._palette.theme).rstrip(
                        "\n"
                    )
                ],
            )
            if self._job is not None:
                self._job.cancel()
            self._job = asyncio.ensure_future(self._draw(approval, width))
        return self._drawn[2]

    async def _draw(self, approval: Approval, width: int) -> None:
        """Draw the preview off the loop (highlighting a long file takes a while): the
        renderer is the tool's code and runs on the loop, only drawing its result does not;
        a result that fails to draw falls back to the arguments, reported."""
        shown = call_preview(self._loaded, approval, width)
        try:
            lines = await asyncio.to_thread(_lines, shown, width, self._palette.theme)
        except hook_failures() as exc:
            self._loaded.agent.runner.report("", f"render_preview:{approval.tool_name}", exc)
            lines = await asyncio.to_thread(
                _lines, arguments_preview(approval.args), width, self._palette.theme
            )
        if self._drawn[0] is approval and self._drawn[1] == width:  # still the one asked
            self._drawn = (approval, width, lines)
            self._redraw()

    def shown(self) -> bool:
        return bool(self.lines())

    def height(self) -> int:
        """Rows the preview's text gets: all its lines when they fit."""
        room = max(self._rows() - RESERVED_ROWS, MIN_ROWS)
        return min(len(self.lines() or ()), room)

    def scroll(self, lines: int) -> None:
        """Move the view by ``lines`` (negative: up), kept inside the preview."""
        total = len(self.lines() or ())
        self.top = min(max(self.top + lines, 0), max(total - self.height(), 0))

    def container(self, dialog: AnyContainer) -> AnyContainer:
        """The preview, then ``dialog`` under it."""
        return HSplit([*self._view, dialog])

    def _keys(self) -> KeyBindings:
        """PgUp/PgDn a page, Shift+↑/↓ a line, while the preview is up."""
        kb = KeyBindings()
        up = Condition(self.shown)

        def move(by: Callable[[], int]) -> Callable[[KeyPressEvent], None]:
            def handler(event: KeyPressEvent) -> None:
                self.scroll(by())

            return handler

        kb.add("pageup", filter=up)(move(lambda: -max(self.height() - 1, 1)))
        kb.add("pagedown", filter=up)(move(lambda: max(self.height() - 1, 1)))
        kb.add("s-up", filter=up)(move(lambda: -1))
        kb.add("s-down", filter=up)(move(lambda: 1))
        return kb

    def _scrolls(self) -> bool:
        return len(self.lines() or ()) > self.height()

    def _text(self) -> StyleAndTextTuples:
        lines = self.lines() or []
        shown = lines[self.top : self.top + self.height()]
        return list(ANSI("\n".join(shown)).__pt_formatted_text__())

    def _hint(self) -> StyleAndTextTuples:
        total, height = len(self.lines() or ()), self.height()
        last = min(self.top + height, total)
        text = f"lines {self.top + 1}–{last} of {total} · pgup/pgdn scroll"
        return [("class:dialog.hint", text)]
