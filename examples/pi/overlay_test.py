"""pi's overlay-test example: ``/overlay-test`` floats a panel with inline text inputs.

The overlay is a component drawn by hand: a bordered panel with edge cases for
compositing (wide characters, styled text, emoji) and a menu whose first two
items take text in place. Up/Down choose, typing goes into the chosen field,
Enter answers ``{"action", "query"}`` (shown as a notification), Esc cancels.
Needs the terminal app; elsewhere the panel is shown once as text.

    hookline --hook examples/pi/overlay_test.py      then  /overlay-test
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hookline import CommandContext, HookAPI, Theme
from hookline.components import CURSOR_MARKER, TUI, Keybindings, matches_key, visible_width

Result = dict[str, str | None]
WIDE = "中文日本語한글テスト漢字繁體简体ひらがなカタカナ가나다라마바"


@dataclass
class Item:
    label: str
    has_input: bool
    text: str = ""
    cursor: int = 0


class OverlayTestComponent:
    """The panel: 70 columns wide whatever the terminal, as pi's."""

    width = 70

    def __init__(self, theme: Theme, done: Callable[[Result | None], None]) -> None:
        self.theme = theme
        self.done = done
        self.focused = False
        self.selected = 0
        self.items = [
            Item("Search", True),
            Item("Run", True),
            Item("Settings", False),
            Item("Cancel", False),
        ]

    def handle_input(self, data: str) -> None:
        if matches_key(data, "escape"):
            self.done(None)
            return
        current = self.items[self.selected]
        if matches_key(data, "return"):
            self.done(
                {"action": current.label, "query": current.text if current.has_input else None}
            )
        elif matches_key(data, "up"):
            self.selected = max(0, self.selected - 1)
        elif matches_key(data, "down"):
            self.selected = min(len(self.items) - 1, self.selected + 1)
        elif current.has_input:
            self._edit(current, data)

    @staticmethod
    def _edit(item: Item, data: str) -> None:
        if matches_key(data, "backspace"):
            if item.cursor > 0:
                item.text = item.text[: item.cursor - 1] + item.text[item.cursor :]
                item.cursor -= 1
        elif matches_key(data, "left"):
            item.cursor = max(0, item.cursor - 1)
        elif matches_key(data, "right"):
            item.cursor = min(len(item.text), item.cursor + 1)
        elif len(data) == 1 and ord(data) >= 32:
            item.text = item.text[: item.cursor] + data + item.text[item.cursor :]
            item.cursor += 1

    def render(self, width: int) -> list[str]:
        th = self.theme
        inner = self.width - 2

        def row(content: str) -> str:
            pad = " " * max(0, inner - visible_width(content))
            return th.fg("border", "│") + content + pad + th.fg("border", "│")

        styled = " ".join(
            th.fg(color, word)
            for color, word in (
                ("error", "RED"),
                ("success", "GREEN"),
                ("warning", "YELLOW"),
                ("accent", "ACCENT"),
                ("dim", "DIM"),
                ("error", "more"),
                ("success", "colors"),
            )
        )
        lines = [
            th.fg("border", f"╭{'─' * inner}╮"),
            row(f" {th.fg('accent', '🧪 Overlay Test')}"),
            row(""),
            row(f" {th.fg('dim', '─── Edge Cases (borders should align) ───')}"),
            row(f" Wide: {th.fg('warning', WIDE)}"),
            row(f" Styled: {styled}"),
            row(" Emoji: 🚀 💻 🎉 🔥 😀 🎯 🌟 💡 🎨 🔧 📦 🏆 🌈 🎪 🎭 🎬 🎮 🎲"),
            row(""),
            row(f" {th.fg('dim', '─── Actions ───')}"),
        ]
        lines += [row(self._item(i, item)) for i, item in enumerate(self.items)]
        lines += [
            row(""),
            row(f" {th.fg('dim', '↑↓ navigate • type to input • Enter select • Esc cancel')}"),
            th.fg("border", f"╰{'─' * inner}╯"),
        ]
        return lines

    def _item(self, index: int, item: Item) -> str:
        th = self.theme
        chosen = index == self.selected
        prefix = " ▶ " if chosen else "   "
        if not item.has_input:
            return prefix + th.fg("accent" if chosen else "text", item.label)
        label = th.fg("accent" if chosen else "text", f"{item.label}:")
        shown = item.text
        if chosen:
            under = shown[item.cursor] if item.cursor < len(shown) else " "
            marker = CURSOR_MARKER if self.focused else ""
            shown = (
                f"{shown[: item.cursor]}{marker}\x1b[7m{under}\x1b[27m{shown[item.cursor + 1 :]}"
            )
        return f"{prefix}{label} {shown}"

    def invalidate(self) -> None:
        return None


def register(pi: HookAPI) -> None:
    @pi.register_command("overlay-test", description="Test overlay rendering with edge cases")
    async def overlay_test(args: str, ctx: CommandContext) -> None:
        def factory(
            tui: TUI, theme: Theme, keybindings: Keybindings, done: Callable[[Any], None]
        ) -> OverlayTestComponent:
            return OverlayTestComponent(theme, done)

        result = await ctx.ui.custom(factory, overlay=True)
        if result:
            query = result["query"]
            ctx.ui.notify(f'{result["action"]}: "{query}"' if query else result["action"], "info")
