"""``SettingsList``: rows of label and value, Enter or Space cycling the value."""

from __future__ import annotations

from hookline.components import (
    SelectItem,
    SelectList,
    SettingItem,
    SettingsList,
    key_sequence,
    settings_list_theme,
    strip_ansi,
)
from hookline.core.theme import theme_by_name


def plain(lines: list[str]) -> list[str]:
    return [strip_ansi(line).rstrip() for line in lines]


def build(changes: list[tuple[str, str]], closed: list[bool]) -> SettingsList:
    items = [
        SettingItem("read", "read", "enabled", ["enabled", "disabled"]),
        SettingItem("bash", "bash", "disabled", ["enabled", "disabled"], description="a shell"),
    ]
    return SettingsList(
        items, 5, None, lambda i, v: changes.append((i, v)), lambda: closed.append(True)
    )


def test_enter_and_space_cycle_the_selected_value() -> None:
    changes: list[tuple[str, str]] = []
    closed: list[bool] = []
    settings = build(changes, closed)
    assert plain(settings.render(40)) == [
        "→ read  enabled",
        "  bash  disabled",
        "",
        "  Enter/Space to change · Esc to cancel",
    ]
    settings.handle_input(key_sequence("enter"))
    settings.handle_input(key_sequence("down"))
    settings.handle_input(" ")
    assert changes == [("read", "disabled"), ("bash", "enabled")]
    assert plain(settings.render(40))[:4] == [
        "  read  disabled",
        "→ bash  enabled",
        "",
        "  a shell",
    ]
    settings.handle_input(key_sequence("down"))  # wraps to the top
    assert plain(settings.render(40))[0].startswith("→ read")
    settings.handle_input(key_sequence("escape"))
    assert closed == [True]


def test_a_submenu_picks_the_value() -> None:
    changes: list[tuple[str, str]] = []

    def submenu(current: str, done: object) -> SelectList:
        picker = SelectList([SelectItem("low"), SelectItem("high")])
        picker.on_select = lambda item: done(item.value)  # type: ignore[operator]
        return picker

    item = SettingItem("level", "level", "low", submenu=submenu)
    settings = SettingsList([item], 5, None, lambda i, v: changes.append((i, v)), lambda: None)
    settings.handle_input(key_sequence("enter"))
    assert plain(settings.render(40)) == ["→ low", "  high"]
    settings.handle_input(key_sequence("down"))
    settings.handle_input(key_sequence("enter"))
    assert changes == [("level", "high")]
    assert plain(settings.render(40))[0] == "→ level  high"


def test_the_themes_colours() -> None:
    dark = theme_by_name("dark")
    settings = SettingsList(
        [SettingItem("a", "a", "on", ["on", "off"])], 5, settings_list_theme(dark), print, print
    )
    first = settings.render(40)[0]
    assert first.startswith(dark.fg("accent", "→ ") + dark.fg("accent", "a"))
    assert dark.fg("accent", "on") in first
