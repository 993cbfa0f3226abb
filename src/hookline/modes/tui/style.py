"""The terminal app's colours, drawn from the current theme (``ctx.ui.set_theme`` restyles).

Each class of the app's prompt_toolkit style names the theme colour it is
drawn in; ``Palette`` holds the current theme and the style made from it, so a
frame always reads the theme of now.
"""

from __future__ import annotations

from functools import cache

from prompt_toolkit.styles import Style

from hookline.core.theme import Theme, default_theme_name, detect_color_mode, theme_by_name

#: Each style class: the theme colour of its text (``bg:`` for its background) and the
#: attributes added to it.
_CLASSES: dict[str, tuple[str, str]] = {
    "dialog.border": ("border_muted", ""),
    "dialog.title": ("accent", "bold"),
    "dialog.option": ("text", ""),
    "dialog.selected": ("accent", "bold reverse"),
    "dialog.description": ("muted", "italic"),
    "dialog.hint": ("dim", ""),
    "placeholder": ("dim", "italic"),
    "prompt": ("accent", "bold"),
    "working": ("warning", ""),
    "footer": ("dim", ""),
    "status": ("muted", ""),
    "widget": ("text", ""),
    "rule": ("border_muted", ""),
    "overlay": ("bg:custom_message_bg", ""),
    "frame.border": ("border", ""),
}


def style_rules(theme: Theme) -> dict[str, str]:
    """The app's style classes in ``theme``'s colours (prompt_toolkit's syntax)."""
    rules = {}
    for name, (color, attributes) in _CLASSES.items():
        background = color.startswith("bg:")
        value = theme.hex(color.removeprefix("bg:"))
        rules[name] = " ".join(
            part for part in (f"bg:{value}" if background and value else value, attributes) if part
        )
    return rules


@cache
def app_style(theme: Theme) -> Style:
    """The prompt_toolkit style of ``theme`` (made once per theme object)."""
    return Style.from_dict(style_rules(theme))


def startup_theme() -> Theme:
    """The theme the app starts in: light on a light terminal, else dark."""
    return theme_by_name(default_theme_name(), detect_color_mode())


class Palette:
    """The app's current theme and its style."""

    def __init__(self, theme: Theme) -> None:
        self.theme = theme

    @property
    def style(self) -> Style:
        return app_style(self.theme)
