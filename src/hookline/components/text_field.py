"""Text entry: ``Input`` (one line) and ``Editor`` (several), editing with pi's keys."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from hookline.components.ansi import truncate_to_width
from hookline.components.component import CURSOR_MARKER, TUI
from hookline.components.keys import Keybindings, default_keybindings, parse_key
from hookline.components.select_list import SelectListTheme

_REVERSE, _NORMAL = "\x1b[7m", "\x1b[27m"


def _cursor_cell(text: str, cursor: int, focused: bool) -> str:
    """``text`` with the character under ``cursor`` shown reversed (a space at the end)."""
    under = text[cursor] if cursor < len(text) else " "
    marker = CURSOR_MARKER if focused else ""
    return f"{text[:cursor]}{marker}{_REVERSE}{under}{_NORMAL}{text[cursor + 1 :]}"


def _printable(data: str) -> str | None:
    """The text a key types (one character, or a paste), or ``None`` for a control key."""
    if data.startswith("\x1b[200~"):
        return data.removeprefix("\x1b[200~").removesuffix("\x1b[201~")
    if data and all(c.isprintable() for c in data) and not data.startswith("\x1b"):
        return data
    return None


class _Line:
    """A line of text and a cursor in it, with the editing every field shares."""

    def __init__(self) -> None:
        self.text = ""
        self.cursor = 0

    def insert(self, text: str) -> None:
        self.text = self.text[: self.cursor] + text + self.text[self.cursor :]
        self.cursor += len(text)

    def edit(self, data: str, kb: Keybindings) -> bool:
        """Apply an editing key; ``False`` when ``data`` is not one."""
        t, c = self.text, self.cursor
        if kb.matches(data, "delete_char_backward"):
            if c > 0:
                self.text, self.cursor = t[: c - 1] + t[c:], c - 1
        elif kb.matches(data, "delete_char_forward"):
            self.text = t[:c] + t[c + 1 :]
        elif kb.matches(data, "cursor_left"):
            self.cursor = max(c - 1, 0)
        elif kb.matches(data, "cursor_right"):
            self.cursor = min(c + 1, len(t))
        elif kb.matches(data, "cursor_line_start"):
            self.cursor = 0
        elif kb.matches(data, "cursor_line_end"):
            self.cursor = len(t)
        elif kb.matches(data, "cursor_word_left"):
            self.cursor = len(t[:c].rstrip().rsplit(" ", 1)[0]) if " " in t[:c].rstrip() else 0
        elif kb.matches(data, "cursor_word_right"):
            rest = t[c:]
            skip = len(rest) - len(rest.lstrip())
            nxt = rest.lstrip().find(" ")
            self.cursor = len(t) if nxt < 0 else c + skip + nxt
        elif kb.matches(data, "delete_word_backward"):
            head = t[:c].rstrip()
            keep = head.rsplit(" ", 1)[0] + " " if " " in head else ""
            self.text, self.cursor = keep + t[c:], len(keep)
        elif kb.matches(data, "delete_to_line_start"):
            self.text, self.cursor = t[c:], 0
        elif kb.matches(data, "delete_to_line_end"):
            self.text = t[:c]
        else:
            return False
        return True


class Input:
    """One line of text: Enter calls ``on_submit(value)``, Esc ``on_escape()``.

    The text scrolls sideways to keep the cursor in view.
    """

    def __init__(self, *, keybindings: Keybindings | None = None) -> None:
        self._line = _Line()
        self.keybindings = keybindings or default_keybindings()
        self.focused = False
        self.on_submit: Callable[[str], object] | None = None
        self.on_escape: Callable[[], object] | None = None

    def get_value(self) -> str:
        return self._line.text

    def set_value(self, value: str) -> None:
        self._line.text = value
        self._line.cursor = len(value)

    def invalidate(self) -> None:
        return None

    def handle_input(self, data: str) -> None:
        kb = self.keybindings
        if kb.matches(data, "submit"):
            if self.on_submit is not None:
                self.on_submit(self._line.text)
        elif kb.matches(data, "select_cancel"):
            if self.on_escape is not None:
                self.on_escape()
        elif not self._line.edit(data, kb):
            typed = _printable(data)
            if typed is not None:
                self._line.insert(typed.replace("\n", " ").replace("\r", ""))

    def render(self, width: int) -> list[str]:
        prompt = "> "
        room = max(width - len(prompt) - 1, 1)
        text, cursor = self._line.text, self._line.cursor
        start = max(cursor - room, 0)
        shown = text[start : start + room]
        line = prompt + _cursor_cell(shown, cursor - start, self.focused)
        return [truncate_to_width(line, width, "")]


@dataclass(frozen=True, slots=True)
class EditorTheme:
    """The editor's border colour and its completion list's theme."""

    border_color: Callable[[str], str] = field(default=lambda s: s)
    select_list: SelectListTheme = field(default_factory=SelectListTheme)


#: Prompts an editor remembers for Up and Down (pi's limit).
_HISTORY_SIZE = 100


class Editor:
    """Several lines of text between two rules: Enter calls ``on_submit(text)``,
    Shift+Enter (or Alt+Enter, Ctrl+J) starts a new line, each change calls
    ``on_change(text)``. ``disable_submit`` makes Enter do nothing.

    Up in an empty editor (or on the first line while browsing) brings back the
    prompts given to ``add_to_history``, newest first; Down goes back towards
    the text being written, as pi's editor does.
    """

    def __init__(
        self,
        tui: TUI | None = None,
        theme: EditorTheme | None = None,
        *,
        padding_x: int = 0,
        keybindings: Keybindings | None = None,
    ) -> None:
        #: The host, for ``tui.request_render()`` from a timer.
        self.tui = tui
        self.theme = theme or EditorTheme()
        self.padding_x = padding_x
        self.keybindings = keybindings or default_keybindings()
        self.lines = [""]
        self.row = 0
        self.col = 0
        self.focused = False
        self.disable_submit = False
        self.on_submit: Callable[[str], object] | None = None
        self.on_change: Callable[[str], object] | None = None
        self._history: list[str] = []
        #: -1 while writing; 0 the newest prompt of the history shown, 1 the one before ...
        self._browsing = -1

    def get_text(self) -> str:
        return "\n".join(self.lines)

    def set_text(self, text: str) -> None:
        self._browsing = -1
        self._show(text)

    def _show(self, text: str) -> None:
        self.lines = text.replace("\r\n", "\n").split("\n")
        self.row = len(self.lines) - 1
        self.col = len(self.lines[-1])
        self._changed()

    def add_to_history(self, text: str) -> None:
        """Remember a sent prompt for Up (blank ones and a repeat of the last are not)."""
        text = text.strip()
        if not text or (self._history and self._history[0] == text):
            return
        self._history.insert(0, text)
        del self._history[_HISTORY_SIZE:]

    def _browse(self, step: int) -> None:
        """Move ``step`` prompts back (1) or forward (-1) in the history."""
        index = self._browsing + step
        if not self._history or not -1 <= index < len(self._history):
            return
        self._browsing = index
        self._show(self._history[index] if index >= 0 else "")

    def insert_text_at_cursor(self, text: str) -> None:
        line = self.lines[self.row]
        head, tail = line[: self.col], line[self.col :]
        parts = (head + text).replace("\r\n", "\n").split("\n")
        self.lines[self.row : self.row + 1] = [*parts[:-1], parts[-1] + tail]
        self.row += len(parts) - 1
        self.col = len(parts[-1])
        self._changed()

    def invalidate(self) -> None:
        return None

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change(self.get_text())

    def handle_input(self, data: str) -> None:
        kb = self.keybindings
        if kb.matches(data, "cursor_up"):
            self._up()
            return
        if kb.matches(data, "cursor_down"):
            self._down()
            return
        self._browsing = -1  # any other key edits what is shown
        if kb.matches(data, "new_line"):
            self.insert_text_at_cursor("\n")
        elif kb.matches(data, "submit"):
            if not self.disable_submit and self.on_submit is not None:
                self.on_submit(self.get_text())
        elif kb.matches(data, "delete_char_backward") and self.col == 0 and self.row > 0:
            self.col = len(self.lines[self.row - 1])
            self.lines[self.row - 1 : self.row + 1] = [
                self.lines[self.row - 1] + self.lines[self.row]
            ]
            self.row -= 1
            self._changed()
        elif (
            kb.matches(data, "delete_char_forward")
            and self.col == len(self.lines[self.row])
            and self.row < len(self.lines) - 1
        ):
            self.lines[self.row : self.row + 2] = [self.lines[self.row] + self.lines[self.row + 1]]
            self._changed()
        else:
            self._edit_line(data)

    def _up(self) -> None:
        if self.get_text() == "" or (self._browsing >= 0 and self.row == 0):
            self._browse(1)
        elif self.row == 0:
            self.col = 0
        else:
            self.row -= 1
            self.col = min(self.col, len(self.lines[self.row]))

    def _down(self) -> None:
        last = len(self.lines) - 1
        if self._browsing >= 0 and self.row == last:
            self._browse(-1)
        elif self.row == last:
            self.col = len(self.lines[last])
        else:
            self.row += 1
            self.col = min(self.col, len(self.lines[self.row]))

    def _edit_line(self, data: str) -> None:
        line = _Line()
        line.text, line.cursor = self.lines[self.row], self.col
        before = line.text
        if line.edit(data, self.keybindings):
            self.lines[self.row], self.col = line.text, line.cursor
            if line.text != before:
                self._changed()
            return
        typed = _printable(data)
        if typed is not None and parse_key(data) != "escape":
            self.insert_text_at_cursor(typed)

    def render(self, width: int) -> list[str]:
        rule = self.theme.border_color("─" * max(width, 1))
        margin = " " * self.padding_x
        room = max(width - 2 * self.padding_x - 1, 1)
        body: list[str] = []
        for number, text in enumerate(self.lines):
            chunks = [text[i : i + room] for i in range(0, len(text), room)] or [""]
            for index, chunk in enumerate(chunks):
                here = number == self.row and index * room <= self.col < (index + 1) * room + (
                    1 if index == len(chunks) - 1 else 0
                )
                shown = (
                    _cursor_cell(chunk, self.col - index * room, self.focused) if here else chunk
                )
                body.append(truncate_to_width(margin + shown, width, ""))
        return [rule, *body, rule]
