"""The UI a hook talks to (``ctx.ui``), its no-UI defaults, and the status line rules."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypedDict, runtime_checkable

if TYPE_CHECKING:
    import asyncio

    from typing_extensions import Unpack

    from hookline.core.theme import Theme, ThemeInfo, ThemeResult

NotifyType = Literal["info", "warning", "error"]
WidgetPlacement = Literal["above", "below"]
#: What ``set_widget`` shows: lines of text, or a factory of a UI component (TUI only).
WidgetContent = Sequence[str] | Callable[..., Any]


class OverlayPlacement(TypedDict, total=False):
    """Where ``custom(..., overlay=True)`` puts its component (pi's ``overlayOptions``):
    sizes in cells or a percentage of the terminal (``"50%"``), an ``anchor`` such as
    ``"top-right"`` moved by ``offset_x``/``offset_y``, a ``margin`` from the edges."""

    anchor: str
    width: int | str
    min_width: int
    max_height: int | str
    #: cells on every side, or per side: ``{"top": 1, "left": 2}`` or an ``OverlayMargin``
    margin: Any
    offset_x: int
    offset_y: int
    row: int | str
    col: int | str
    visible: Callable[[int, int], bool]
    non_capturing: bool
    #: Called with the overlay's handle (``hide``, ``set_hidden``, ``focus`` ...) once shown.
    on_handle: Callable[[Any], None]


@runtime_checkable
class HookUI(Protocol):
    """``ctx.ui``: dialogs, notifications and the screen's parts a hook may fill.

    Every mode provides it: the terminal app draws it, RPC mode sends
    ``extension_ui_request`` lines its client answers, and where nobody can answer
    (print and JSON modes, a sub-agent, ``hooks test``) each dialog gives its default
    at once (``None``, ``False``) and ``ctx.has_ui`` is false; a hook that must not
    let something through unasked checks it. Text a hook shows has its terminal
    escape sequences removed (a theme's colours kept).

    Example:

        @pi.on("tool_call")
        async def ask(event, ctx):
            if event.tool_name != "bash":
                return None
            if not ctx.has_ui:
                return {"block": True, "reason": "blocked: no UI to ask"}
            if not await ctx.ui.confirm("Run this?", event.input["command"], timeout=30):
                return {"block": True, "reason": "declined"}
    """

    async def select(
        self,
        title: str,
        options: Sequence[str],
        *,
        timeout: float | None = None,
        signal: asyncio.Event | None = None,
        descriptions: Mapping[str, str] | None = None,
    ) -> str | None:
        """Ask the user to pick one of ``options``; the option chosen, or None when
        dismissed, timed out (``timeout`` seconds, a countdown shows) or closed by
        ``signal``. ``descriptions`` maps an option to a line shown beside it.

        Example:

            env = await ctx.ui.select(
                "Deploy to", ["staging", "prod"], descriptions={"prod": "customers see it"}
            )
        """
        ...

    async def confirm(
        self,
        title: str,
        message: str,
        *,
        timeout: float | None = None,
        signal: asyncio.Event | None = None,
    ) -> bool:
        """Ask a yes/no question; True only when the user says yes (False when dismissed,
        timed out, or where there is no UI).

        Example:

            if await ctx.ui.confirm("Force push?", "origin/main will be rewritten"):
                ...
        """
        ...

    async def input(
        self,
        title: str,
        placeholder: str | None = None,
        *,
        timeout: float | None = None,
        signal: asyncio.Event | None = None,
    ) -> str | None:
        """Ask for one line of text; the text, or None when dismissed or timed out.

        Example:

            branch = await ctx.ui.input("Branch name", placeholder="feature/...")
        """
        ...

    async def editor(
        self,
        title: str,
        prefill: str | None = None,
        *,
        timeout: float | None = None,
        signal: asyncio.Event | None = None,
        prompt_style: bool | None = None,
    ) -> str | None:
        """Ask for several lines, starting from ``prefill``; the text, or None when
        dismissed. By default (and with ``prompt_style=True``) Enter submits and
        Alt+Enter adds a line; with False, Enter adds a line and Ctrl+Enter submits.

        Example:

            message = await ctx.ui.editor("Commit message", prefill="fix: ")
        """
        ...

    def notify(self, message: str, type: NotifyType = "info") -> None:
        """Show ``message`` to the user without waiting; ``type`` is ``"info"``,
        ``"warning"`` or ``"error"`` (its colour and mark). Where there is no UI it is
        kept, not shown (``NoUI.notifications``).

        Example:

            ctx.ui.notify("tests passed", "info")
            ctx.ui.notify("3 files outside src/ were skipped", "warning")
        """
        ...

    def set_status(self, key: str, text: str | None) -> None:
        """Show ``text`` in the status line under ``key`` (one text per key, sorted by
        key); None or ``""`` removes it.

        Example:

            ctx.ui.set_status("deploy", "deploying…")
            ctx.ui.set_status("deploy", None)
        """
        ...

    async def custom(
        self,
        factory: Callable[..., Any],
        *,
        overlay: bool = False,
        **placement: Unpack[OverlayPlacement],
    ) -> Any:
        """Show a component of the hook's own until it calls ``done(value)``; returns that
        value. ``factory(tui, theme, keybindings, done)`` (pi's) builds it; it replaces
        the prompt editor, or with ``overlay=True`` floats over the screen where
        ``placement`` says (``anchor``, ``width``, ``margin``, ...: ``OverlayPlacement``).
        Only the terminal app can show one: elsewhere it returns None.

        Example:

            from hookline.components import SelectItem, SelectList

            def factory(tui, theme, keybindings, done):
                items = SelectList([SelectItem("apple"), SelectItem("banana")])
                items.on_select = lambda item: done(item.value)
                items.on_cancel = lambda: done(None)
                return items

            fruit = await ctx.ui.custom(factory, overlay=True, anchor="center", width="40%")
        """
        ...

    def set_editor_text(self, text: str) -> None:
        """Replace the text of the prompt editor (what the user is typing).

        Example:

            ctx.ui.set_editor_text("/deploy staging")
        """
        ...

    def get_editor_text(self) -> str:
        """The text in the prompt editor now (``""`` where there is none).

        Example:

            draft = ctx.ui.get_editor_text()
        """
        ...

    def paste_to_editor(self, text: str) -> None:
        """Insert ``text`` at the prompt editor's cursor, as a paste.

        Example:

            ctx.ui.paste_to_editor(result.stdout)
        """
        ...

    def set_editor_component(self, factory: Callable[..., Any] | None) -> None:
        """Use the hook's own editor for the prompt (``factory(tui, theme, keybindings)``,
        pi's); None restores the built-in one. Only the terminal app has a prompt
        editor: elsewhere a notification says so once.

        Example:

            from hookline.components import CustomEditor

            ctx.ui.set_editor_component(lambda tui, theme, keys: CustomEditor(tui, theme, keys))
        """
        ...

    def set_widget(
        self, key: str, content: WidgetContent | None, *, placement: WidgetPlacement = "above"
    ) -> None:
        """Show lines (or a component factory's component) ``"above"`` or ``"below"`` the
        prompt editor under ``key``; None removes it.

        Example:

            ctx.ui.set_widget("todo", ["todo:", "  - write the test"], placement="below")
        """
        ...

    def set_working_message(self, text: str | None) -> None:
        """Replace the text shown while the agent works (None: the default).

        Example:

            ctx.ui.set_working_message("Deploying…")
        """
        ...

    def set_title(self, title: str) -> None:
        """Set the terminal window's title.

        Example:

            ctx.ui.set_title(f"hookline · {ctx.cwd}")
        """
        ...

    def set_header(self, content: WidgetContent | None) -> None:
        """Replace the header above the transcript with lines or a component factory's
        component; None restores the default.

        Example:

            ctx.ui.set_header(["deploy bot", "  /deploy <env>"])
        """
        ...

    def set_footer(self, content: WidgetContent | None) -> None:
        """Replace the footer under the prompt editor: lines, or pi's factory
        ``factory(tui, theme, footer_data)`` whose component is redrawn live (it may
        read ``footer_data.get_git_branch()``, ``get_model()``, ``get_usage()``);
        None restores the default.

        Example:

            ctx.ui.set_footer([f"model: {ctx.model}"])
        """
        ...

    @property
    def theme(self) -> Theme:
        """The current theme, to colour a hook's text with pi's colour names
        (``fg(color, text)``, ``bg``, ``bold``); plain where nothing is coloured.

        Example:

            theme = ctx.ui.theme
            ctx.ui.set_status("tests", theme.fg("success", "✓ passed"))
        """
        ...

    def set_theme(self, theme: str | Theme) -> ThemeResult:
        """Switch to the theme named (or given); a ``ThemeResult(success, error)`` says
        whether it did (RPC and no-UI modes cannot).

        Example:

            result = ctx.ui.set_theme("light")
            if not result.success:
                ctx.ui.notify(result.error or "", "warning")
        """
        ...

    def get_theme(self, name: str) -> Theme | None:
        """The theme ``name`` without switching to it; None when there is none.

        Example:

            light = ctx.ui.get_theme("light")
        """
        ...

    def get_all_themes(self) -> list[ThemeInfo]:
        """The themes ``set_theme`` can switch to, as ``ThemeInfo(name, path)``.

        Example:

            names = [t.name for t in ctx.ui.get_all_themes()]
        """
        ...


_SPACES = re.compile(r" {2,}")
_CONTROL = str.maketrans({"\r": " ", "\n": " ", "\t": " "})
#: Terminal escape sequences (CSI, OSC, DCS/PM/APC strings, two-byte ESC forms) and the
#: C0/C1 control characters left after them.
_ESCAPES = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"  # OSC, ended by BEL or ST (or cut short)
    r"|\x1b[PX^_][^\x1b]*(?:\x1b\\)?"  # DCS, SOS, PM, APC
    r"|\x1b[ -/]*[0-~]?"  # two-byte forms, or a lone ESC
    r"|\x9b[0-?]*[ -/]*[@-~]"  # 8-bit CSI
)
_OTHER_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def strip_terminal_controls(text: str) -> str:
    """Text from a hook with every escape sequence and control character removed.

    Keeps ``\\n`` and ``\\t``; a hook's status or widget must never move the
    cursor, change the title, or write to the clipboard of the user's terminal.
    """
    return _OTHER_CONTROLS.sub("", _ESCAPES.sub("", text.replace("\r\n", "\n")))


_SGR = re.compile(r"(\x1b\[[0-9;:]*m)")


def strip_all_but_style(text: str) -> str:
    """:func:`strip_terminal_controls`, keeping the colour and attribute escapes (SGR)
    a theme writes, so a widget shows ``ctx.ui.theme.fg(...)`` in colour."""
    pieces = _SGR.split(text)
    return "".join(p if i % 2 else strip_terminal_controls(p) for i, p in enumerate(pieces))


def sanitize_status(text: str, *, keep_style: bool = False) -> str:
    """Escape sequences go (but colours, with ``keep_style``), ``\\r \\n \\t`` become
    spaces, runs of spaces collapse."""
    text = text.replace("\r", " ")
    text = strip_all_but_style(text) if keep_style else strip_terminal_controls(text)
    return _SPACES.sub(" ", text.translate(_CONTROL)).strip()


class StatusLine:
    """Hook status texts: one per key, shown sorted by key, cut to a width."""

    def __init__(self, separator: str = " · ", *, keep_style: bool = False) -> None:
        self._items: dict[str, str] = {}
        self._separator = separator
        #: Keep a theme's colour escapes (a terminal draws them); else plain text.
        self._keep_style = keep_style

    def set(self, key: str, text: str | None) -> None:
        """Set a key's text; ``None`` or empty removes it."""
        clean = sanitize_status(text, keep_style=self._keep_style) if text else ""
        if clean:
            self._items[key] = clean
        else:
            self._items.pop(key, None)

    def items(self) -> list[tuple[str, str]]:
        return sorted(self._items.items())

    def render(self, width: int) -> str:
        """The joined line, truncated with an ellipsis to ``width`` characters (colour
        escapes take no room)."""
        line = self._separator.join(t for _, t in self.items())
        if width <= 0:
            return ""
        pieces = _SGR.split(line)  # text, escape, text, ...
        if sum(len(p) for p in pieces[::2]) <= width:
            return line
        room, kept = width - 1, []
        for i, piece in enumerate(pieces):
            kept.append(piece if i % 2 else piece[: max(room, 0)])
            room -= 0 if i % 2 else len(piece)
        return "".join(kept) + "…" + ("\x1b[0m" if len(pieces) > 1 else "")


#: Said once where ``set_editor_component`` has no editor to replace.
NO_EDITOR_NOTICE = "a hook's editor (set_editor_component) is only used in the terminal app"


class NoUI:
    """The answers of a mode with no UI (print mode, tests, embedders).

    ``select``/``input``/``editor`` give ``None``, ``confirm`` gives ``False``,
    ``get_editor_text`` gives ``""``; the rest do nothing. Status is still kept
    so that embedders can read it.
    """

    def __init__(self) -> None:
        self.status = StatusLine()
        self.notifications: list[tuple[str, str]] = []
        self._told_no_editor = False

    async def select(
        self,
        title: str,
        options: Sequence[str],
        *,
        timeout: float | None = None,
        signal: asyncio.Event | None = None,
        descriptions: Mapping[str, str] | None = None,
    ) -> str | None:
        return None

    async def confirm(
        self,
        title: str,
        message: str,
        *,
        timeout: float | None = None,
        signal: asyncio.Event | None = None,
    ) -> bool:
        return False

    async def input(
        self,
        title: str,
        placeholder: str | None = None,
        *,
        timeout: float | None = None,
        signal: asyncio.Event | None = None,
    ) -> str | None:
        return None

    async def editor(
        self,
        title: str,
        prefill: str | None = None,
        *,
        timeout: float | None = None,
        signal: asyncio.Event | None = None,
        prompt_style: bool | None = None,
    ) -> str | None:
        return None

    def notify(self, message: str, type: NotifyType = "info") -> None:
        self.notifications.append((type, message))

    def set_status(self, key: str, text: str | None) -> None:
        self.status.set(key, text)

    async def custom(
        self,
        factory: Callable[..., Any],
        *,
        overlay: bool = False,
        **placement: Unpack[OverlayPlacement],
    ) -> Any:
        """No component can be shown without a terminal UI: always ``None``."""
        return None

    def set_editor_text(self, text: str) -> None:
        return None

    def get_editor_text(self) -> str:
        return ""

    def paste_to_editor(self, text: str) -> None:
        return None

    def set_editor_component(self, factory: Callable[..., Any] | None) -> None:
        """Only the terminal app has a prompt editor to replace: the factory is not
        called, and the first time a notification says so."""
        if factory is not None and not self._told_no_editor:
            self._told_no_editor = True
            self.notify(NO_EDITOR_NOTICE)

    def set_widget(
        self, key: str, content: WidgetContent | None, *, placement: WidgetPlacement = "above"
    ) -> None:
        return None

    def set_working_message(self, text: str | None) -> None:
        return None

    def set_title(self, title: str) -> None:
        return None

    def set_header(self, content: WidgetContent | None) -> None:
        return None

    def set_footer(self, content: WidgetContent | None) -> None:
        return None

    @property
    def theme(self) -> Theme:
        """pi's colour names, writing no colour: there is no terminal to colour."""
        from hookline.core.theme import plain_theme

        return plain_theme()

    def set_theme(self, theme: str | Theme) -> ThemeResult:
        from hookline.core.theme import ThemeResult

        return ThemeResult(False, "UI not available")

    def get_theme(self, name: str) -> Theme | None:
        return None

    def get_all_themes(self) -> list[ThemeInfo]:
        return []
