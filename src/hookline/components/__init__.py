"""Components for a hook's own UI, with pi-tui's contract: render to lines for a width,
take raw keys, invalidate.

``ctx.ui.custom(factory)`` calls ``factory(tui, theme, keybindings, done)`` and shows
the component it returns: in the terminal app inline or as an overlay, elsewhere as
a text summary (:func:`render_summary`). Nothing here draws to a terminal itself;
components render to strings, so they are tested as plain values.
"""

from __future__ import annotations

from hookline.components.ansi import (
    strip_ansi,
    truncate_to_width,
    visible_width,
    wrap_text_with_ansi,
)
from hookline.components.basic import Box, DynamicBorder, Spacer, Text, TruncatedText
from hookline.components.component import (
    CURSOR_MARKER,
    TUI,
    Component,
    Container,
    Focusable,
    Stoppable,
    accepts,
    handle_input,
    is_component,
    is_component_factory,
)
from hookline.components.custom_editor import CustomEditor
from hookline.components.keys import (
    Key,
    Keybindings,
    default_keybindings,
    key_sequence,
    matches_key,
    parse_key,
    released_key,
)
from hookline.components.loader import Loader
from hookline.components.overlay import (
    OverlayAnchor,
    OverlayLayout,
    OverlayMargin,
    OverlayOptions,
    overlay_size,
    resolve_overlay_layout,
)
from hookline.components.overlay_stack import OverlayEntry, OverlayHandle, OverlayStack
from hookline.components.select_list import SelectItem, SelectList, SelectListTheme
from hookline.components.settings_list import (
    SettingItem,
    SettingsList,
    SettingsListTheme,
    settings_list_theme,
)
from hookline.components.summary import render_summary, show_summary, summarize, widget_lines
from hookline.components.text_field import Editor, EditorTheme, Input

__all__ = [
    "CURSOR_MARKER",
    "TUI",
    "Box",
    "Component",
    "Container",
    "CustomEditor",
    "DynamicBorder",
    "Editor",
    "EditorTheme",
    "Focusable",
    "Input",
    "Key",
    "Keybindings",
    "Loader",
    "OverlayAnchor",
    "OverlayEntry",
    "OverlayHandle",
    "OverlayLayout",
    "OverlayMargin",
    "OverlayOptions",
    "OverlayStack",
    "SelectItem",
    "SelectList",
    "SelectListTheme",
    "SettingItem",
    "SettingsList",
    "SettingsListTheme",
    "Spacer",
    "Stoppable",
    "Text",
    "TruncatedText",
    "accepts",
    "default_keybindings",
    "handle_input",
    "is_component",
    "is_component_factory",
    "key_sequence",
    "matches_key",
    "overlay_size",
    "parse_key",
    "released_key",
    "render_summary",
    "resolve_overlay_layout",
    "settings_list_theme",
    "show_summary",
    "strip_ansi",
    "summarize",
    "truncate_to_width",
    "visible_width",
    "widget_lines",
    "wrap_text_with_ansi",
]
