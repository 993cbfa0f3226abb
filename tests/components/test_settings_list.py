"""``settings_list_theme``: a ``SettingsList`` in a theme's colours, as the app draws it."""

from __future__ import annotations

from hookline.components import SettingItem, SettingsList, settings_list_theme
from hookline.core.theme import theme_by_name


def test_the_selected_row_is_in_the_accent_and_values_muted() -> None:
    dark = theme_by_name("dark")
    items = [SettingItem("a", "a", "on", values=["on", "off"]), SettingItem("b", "b", "off")]
    settings = SettingsList(items, 5, settings_list_theme(dark), print, print)
    first, second = settings.render(40)[:2]
    assert first.startswith(dark.fg("accent", "→ ") + dark.fg("accent", "a"))
    assert dark.fg("accent", "on") in first
    assert dark.fg("muted", "off") in second
