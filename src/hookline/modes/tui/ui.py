"""``ctx.ui`` in the terminal app: every HookUI call becomes a dialog, a line or a widget."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from hookline.core.ui import (
    NotifyType,
    OverlayPlacement,
    WidgetContent,
    WidgetPlacement,
    strip_terminal_controls,
)
from hookline.modes.tui.dialogs import CustomDialog, InputDialog, SelectDialog
from hookline.modes.tui.hook_render import LiveTheme, call_upto

#: The widget keys that hold a hook's header and footer (no hook key starts with NUL).
HEADER_KEY, FOOTER_KEY = "\0header", "\0footer"

if TYPE_CHECKING:
    from pathlib import Path

    from typing_extensions import Unpack

    from hookline.core.theme import Theme, ThemeInfo, ThemeResult
    from hookline.modes.tui.host import UIHost


class TuiUI:
    """The HookUI of the terminal app; dialogs wait their turn, one on screen at a time."""

    def __init__(self, app: UIHost) -> None:
        self._app = app

    async def select(
        self,
        title: str,
        options: Sequence[str],
        *,
        timeout: float | None = None,
        signal: asyncio.Event | None = None,
        descriptions: Mapping[str, str] | None = None,
    ) -> str | None:
        if not options:
            return None
        dialog = SelectDialog(
            title, list(options), descriptions=descriptions, timeout=timeout, signal=signal
        )
        answer = await self._app.ask(dialog)
        return answer if isinstance(answer, str) else None

    async def confirm(
        self,
        title: str,
        message: str,
        *,
        timeout: float | None = None,
        signal: asyncio.Event | None = None,
    ) -> bool:
        text = f"{title}\n{message}" if message else title
        dialog = SelectDialog(
            text,
            ["Yes", "No"],
            values=[True, False],
            default=False,
            timeout=timeout,
            signal=signal,
            keys={"y": 0, "n": 1},
        )
        return await self._app.ask(dialog) is True

    async def input(
        self,
        title: str,
        placeholder: str | None = None,
        *,
        timeout: float | None = None,
        signal: asyncio.Event | None = None,
    ) -> str | None:
        dialog = InputDialog(title, placeholder=placeholder, timeout=timeout, signal=signal)
        answer = await self._app.ask(dialog)
        return answer if isinstance(answer, str) else None

    async def editor(
        self,
        title: str,
        prefill: str | None = None,
        *,
        timeout: float | None = None,
        signal: asyncio.Event | None = None,
        prompt_style: bool | None = None,
    ) -> str | None:
        dialog = InputDialog(
            title,
            prefill=prefill,
            multiline=True,
            enter_submits=prompt_style is not False,
            timeout=timeout,
            signal=signal,
        )
        answer = await self._app.ask(dialog)
        return answer if isinstance(answer, str) else None

    def notify(self, message: str, type: NotifyType = "info") -> None:
        self._app.notice(message, type)

    def set_status(self, key: str, text: str | None) -> None:
        self._app.status.set(key, text)
        self._app.invalidate()

    async def custom(
        self,
        factory: Callable[..., Any],
        *,
        overlay: bool = False,
        **placement: Unpack[OverlayPlacement],
    ) -> Any:
        """``factory(tui, theme, keybindings, done)`` returns a component (pi's form), shown
        until ``done(value)``; a ``factory(done)`` returning a prompt_toolkit container is
        shown as it is. The answer is the value given to ``done``."""
        from hookline.components import is_component_factory
        from hookline.modes.tui.component_host import show_component

        if not is_component_factory(factory):
            return await self._app.ask(CustomDialog(factory, overlay=overlay))
        return await show_component(self._app, factory, overlay=overlay, placement=placement)

    def set_editor_text(self, text: str) -> None:
        self._app.prompt.set_text(strip_terminal_controls(text))
        self._app.invalidate()

    def get_editor_text(self) -> str:
        return self._app.prompt.text

    def paste_to_editor(self, text: str) -> None:
        self._app.prompt.paste(strip_terminal_controls(text))
        self._app.invalidate()

    def set_editor_component(self, factory: Callable[..., Any] | None) -> None:
        """``factory(tui, editor_theme, keybindings)`` builds the editor prompts are
        written in from now on (``None``: the app's own); see ``prompt.Prompt``."""
        self._app.set_editor_component(factory)

    def set_widget(
        self, key: str, content: WidgetContent | None, *, placement: WidgetPlacement = "above"
    ) -> None:
        """Lines, or ``factory(tui, theme)`` making a component (``render(width)``) or a
        prompt_toolkit container; ``None`` removes it."""
        self._app.set_widget(key, self._made(content), placement)

    def set_working_message(self, text: str | None) -> None:
        self._app.set_working_message(strip_terminal_controls(text).strip() if text else None)

    def set_header(self, content: WidgetContent | None) -> None:
        """Lines, or ``factory(tui, theme)``, at the top of the app; ``None`` removes them."""
        self._app.set_widget(HEADER_KEY, self._made(content), "header")

    def set_footer(self, content: WidgetContent | None) -> None:
        """Replace the footer (model, usage, mode, statuses) with lines, or with what
        ``factory(tui, theme, footer_data)`` makes: a component drawn at every frame, so
        it shows ``footer_data`` live. ``None`` brings the app's footer back."""
        self._app.set_widget(FOOTER_KEY, self._made(content, self._app.footer_data), "footer")

    def _made(self, content: WidgetContent | None, *more: Any) -> object | None:
        """Lines as they are; a factory called with pi's arguments (``tui``, ``theme``,
        then ``more``), as many as it takes; its theme follows ``set_theme``."""
        if content is None or not callable(content):
            return content
        from hookline.modes.tui.component_host import Terminal

        theme = LiveTheme(lambda: self._app.theme)
        tui = Terminal(self._app.size, self._app.invalidate, self._app.overlays)
        made: object = call_upto(content, tui, theme, *more)
        return made

    def set_title(self, title: str) -> None:
        clean = " ".join(strip_terminal_controls(title).split())
        self._app.set_title(clean)

    @property
    def theme(self) -> Theme:
        """The app's theme: its colours as ANSI escapes, for widgets and status texts."""
        return self._app.theme

    def set_theme(self, theme: str | Theme) -> ThemeResult:
        """Switch to a theme (a built-in or custom name, or a ``Theme``); the app is
        redrawn in it. A theme that cannot be loaded leaves the current one."""
        from hookline.core.theme import ThemeError, ThemeResult, detect_color_mode, theme_by_name

        if isinstance(theme, str):
            try:
                theme = theme_by_name(theme, detect_color_mode(), self._extra_themes())
            except ThemeError as exc:
                return ThemeResult(False, str(exc))
        self._app.set_theme(theme)
        return ThemeResult(True)

    def get_theme(self, name: str) -> Theme | None:
        """A theme by name, without switching to it; ``None`` when there is none."""
        from hookline.core.theme import ThemeError, detect_color_mode, theme_by_name

        try:
            return theme_by_name(name, detect_color_mode(), self._extra_themes())
        except ThemeError:
            return None

    def get_all_themes(self) -> list[ThemeInfo]:
        from hookline.core.theme import available_themes

        return available_themes(self._extra_themes())

    def _extra_themes(self) -> list[Path]:
        """The theme files the agent's resources hold (``resources_discover``)."""
        return self._app.theme_files
