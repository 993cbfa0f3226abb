"""The prompt: the app's own editor, or the one a hook put in its place.

``ctx.ui.set_editor_component(factory)`` swaps the app's editor (a
prompt_toolkit buffer) for a hook's component, as pi does: the factory gets
``(tui, editor_theme, keybindings)``, the component takes the text written so
far, the sent prompts for Up, and every key. Enter still sends to the agent
(``on_submit``); a component built on ``CustomEditor`` hands the app's keys
back (Esc stops, Ctrl+C clears or stops, Ctrl+D exits, Ctrl+O, Shift+Tab, the
hooks' shortcuts). ``None`` brings the app's editor back with the text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from prompt_toolkit.document import Document
from prompt_toolkit.layout import Window

from hookline.components import EditorTheme, default_keybindings
from hookline.modes.tui.component_host import ComponentControl, Terminal
from hookline.modes.tui.keys import KeyActions

if TYPE_CHECKING:
    from prompt_toolkit.buffer import Buffer

    from hookline.components import OverlayStack
    from hookline.core.theme import Theme


class PromptHost(KeyActions, Protocol):
    """What a hook's editor needs of the app beyond the editor's keys."""

    def send(self, text: str) -> None:
        """Send a prompt (the history already has it)."""

    def run_shortcut(self, data: str) -> bool:
        """Run the hook shortcut bound to the key ``data``; whether there was one."""

    def invalidate(self) -> None:
        """Draw the app again."""

    def size(self) -> tuple[int, int]:
        """The terminal's columns and rows."""

    @property
    def theme(self) -> Theme:
        """The app's theme (the editor's border colour comes from it)."""

    @property
    def overlays(self) -> OverlayStack:
        """The overlays a component may open (``tui.show_overlay``)."""


class Prompt:
    """Where the prompt is written: ``window`` is drawn and focused, ``text`` read."""

    def __init__(self, buffer: Buffer, window: Window, host: PromptHost) -> None:
        self.buffer = buffer
        self._default = window
        self._host = host
        #: The hook's editor component, or ``None`` for the app's own editor.
        self.custom: Any = None
        self._window: Window | None = None

    @property
    def window(self) -> Window:
        return self._window or self._default

    @property
    def text(self) -> str:
        return str(self.custom.get_text()) if self.custom is not None else self.buffer.text

    def set_text(self, text: str) -> None:
        if self.custom is not None:
            self.custom.set_text(text)
        else:
            self.buffer.text = text
            self.buffer.cursor_position = len(text)

    def paste(self, text: str) -> None:
        """Insert ``text`` at the cursor, as a paste (a hook's editor gets it bracketed)."""
        if self.custom is not None:
            self.custom.handle_input(f"\x1b[200~{text}\x1b[201~")
        else:
            self.buffer.insert_text(text)

    def clear(self) -> None:
        if self.custom is not None:
            self.custom.set_text("")
        else:
            self.buffer.reset()

    def replace(self, factory: Callable[..., Any] | None) -> None:
        """Put ``factory``'s editor in place of the current one (``None``: the app's),
        keeping the text written so far."""
        text = self.text
        if self.custom is not None:
            self.custom.focused = False
        if factory is None:
            self.custom, self._window = None, None
            # a reset reads the history again: Up finds what the hook's editor sent
            self.buffer.reset(Document(text, len(text)))
            return
        editor = factory(
            Terminal(self._host.size, self._host.invalidate, self._host.overlays),
            EditorTheme(border_color=lambda text: self._host.theme.fg("border_muted", text)),
            default_keybindings(),
        )
        self._wire(editor)
        for sent in self.buffer.history.get_strings():  # oldest first
            add = getattr(editor, "add_to_history", None)
            if callable(add):
                add(sent)
        editor.set_text(text)
        editor.focused = True
        self.custom = editor
        self._window = Window(
            ComponentControl(editor, self._host.invalidate),
            dont_extend_height=True,
            wrap_lines=False,
        )

    def _wire(self, editor: Any) -> None:
        """Enter sends; a ``CustomEditor``'s unset handlers do what the app's keys do."""
        host = self._host
        editor.on_submit = self._submit
        if not isinstance(getattr(editor, "action_handlers", None), dict):
            return
        if getattr(editor, "on_escape", None) is None:
            editor.on_escape = host.stop
        if getattr(editor, "on_ctrl_d", None) is None:
            editor.on_ctrl_d = host.exit
        if getattr(editor, "on_extension_shortcut", None) is None:
            editor.on_extension_shortcut = host.run_shortcut
        editor.action_handlers.setdefault("clear", host.interrupt)
        editor.action_handlers.setdefault("expand_tools", host.toggle_expanded)
        editor.action_handlers.setdefault("cycle_permission_mode", host.cycle_mode)

    def _submit(self, text: str) -> None:
        if not text.strip() or self.custom is None:
            return
        strings = self.buffer.history.get_strings()
        if not strings or strings[-1] != text:
            self.buffer.history.append_string(text)
        add = getattr(self.custom, "add_to_history", None)
        if callable(add):
            add(text)
        self.custom.set_text("")
        self._host.send(text)
