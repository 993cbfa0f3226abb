"""pi's modal-editor example: a vim-like prompt editor with a normal and an insert mode.

``ctx.ui.set_editor_component`` replaces the terminal app's prompt with a
``CustomEditor`` subclass at session start. It starts in insert mode, where keys
type as usual. Esc switches to normal mode (Esc there stops the agent, as in the
app's own editor); in normal mode ``h j k l`` move, ``0`` and ``$`` go to the
line's start and end, ``x`` deletes, ``i`` inserts and ``a`` appends; other
printable keys do nothing. Enter sends in both modes, and Ctrl+C, Ctrl+D and
the rest work as in the app. The mode is written on the editor's bottom rule.
Outside the terminal app there is no editor to replace (a notice says so).

    hookline --hook examples/pi/modal_editor.py
"""

from __future__ import annotations

from typing import Any, Literal

from hookline import HookAPI, HookContext
from hookline.components import (
    TUI,
    CustomEditor,
    EditorTheme,
    Keybindings,
    matches_key,
    truncate_to_width,
    visible_width,
)

#: What a key does in normal mode: the key it stands for (``None``: a mode switch).
NORMAL_KEYS: dict[str, str | None] = {
    "h": "\x1b[D",  # left
    "j": "\x1b[B",  # down
    "k": "\x1b[A",  # up
    "l": "\x1b[C",  # right
    "0": "\x01",  # line start
    "$": "\x05",  # line end
    "x": "\x1b[3~",  # delete the character under the cursor
    "i": None,  # insert
    "a": None,  # append: insert after the cursor
}


class ModalEditor(CustomEditor):
    """The editor in two modes; the keys it does not take go to ``CustomEditor``."""

    def __init__(
        self, tui: TUI | None, theme: EditorTheme | None, keybindings: Keybindings | None
    ) -> None:
        super().__init__(tui, theme, keybindings)
        self.mode: Literal["normal", "insert"] = "insert"

    def handle_input(self, data: str) -> None:
        if matches_key(data, "escape"):
            if self.mode == "insert":
                self.mode = "normal"
            else:
                super().handle_input(data)  # stop the agent, as the app's Esc does
            return
        if self.mode == "insert":
            super().handle_input(data)
            return
        if data in NORMAL_KEYS:
            sequence = NORMAL_KEYS[data]
            if data in ("i", "a"):
                self.mode = "insert"
                if data == "a":
                    super().handle_input("\x1b[C")
            elif sequence is not None:
                super().handle_input(sequence)
            return
        if len(data) == 1 and ord(data) >= 32:
            return  # normal mode types nothing
        super().handle_input(data)  # Enter, Ctrl+C, Ctrl+D ...

    def render(self, width: int) -> list[str]:
        lines = super().render(width)
        label = " NORMAL " if self.mode == "normal" else " INSERT "
        if lines and visible_width(lines[-1]) >= len(label):
            lines[-1] = truncate_to_width(lines[-1], width - len(label), "") + label
        return lines


def register(pi: HookAPI) -> None:
    @pi.on("session_start")
    def start(event: Any, ctx: HookContext) -> None:
        ctx.ui.set_editor_component(ModalEditor)
