"""The terminal app's colours, drawn from the current theme (``ctx.ui.set_theme`` restyles).

Each class of the app's prompt_toolkit style names the theme colour it is
drawn in; ``Palette`` holds the current theme and the style made from it, so a
frame always reads the theme of now.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from prompt_toolkit.styles import Style

from hookline.core.theme import Theme, default_theme_name, detect_color_mode, theme_by_name

if TYPE_CHECKING:
    import rich.theme

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


#: The transcript's named rich styles (``theme.error`` ...) and rich's Markdown styles:
#: the theme colour and the attributes of each.
_RICH: dict[str, tuple[str, str]] = {
    "theme.accent": ("accent", ""),
    "theme.success": ("success", ""),
    "theme.error": ("error", ""),
    "theme.error.bold": ("error", "bold"),
    "theme.warning": ("warning", ""),
    "theme.muted": ("muted", ""),
    "theme.muted.italic": ("muted", "italic"),
    "theme.output": ("tool_output", ""),
    "theme.label": ("custom_message_label", ""),
    "markdown.code": ("md_code", "bold"),
    "markdown.block_quote": ("md_quote", ""),
    "markdown.hr": ("md_hr", ""),
    "markdown.item.bullet": ("md_list_bullet", "bold"),
    "markdown.item.number": ("md_list_bullet", ""),
    "markdown.h1": ("md_heading", "bold underline"),
    "markdown.h2": ("md_heading", "bold"),
    "markdown.h3": ("md_heading", "bold"),
    "markdown.h4": ("md_heading", "italic"),
    "markdown.link": ("md_link", ""),
    "markdown.link_url": ("md_link_url", "underline"),
}


@lru_cache(maxsize=8)
def rich_styles(theme: Theme) -> rich.theme.Theme:
    """The transcript's styles in ``theme``'s colours, for a rich console (256 colours,
    the palette entries the theme itself writes, so no two conversions differ)."""
    import rich.theme

    def colour(name: str) -> str:
        index = theme.color_index(name)
        return "default" if index is None else f"color({index})"

    return rich.theme.Theme(
        {
            name: f"{attributes} {colour(color)}".strip()
            for name, (color, attributes) in _RICH.items()
        }
    )


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


@lru_cache(maxsize=8)
def app_style(theme: Theme) -> Style:
    """The prompt_toolkit style of ``theme`` (made once per theme object, the last few kept)."""
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
