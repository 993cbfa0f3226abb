"""The built-in components, rendered to plain values and driven with raw keys."""

from __future__ import annotations

from collections.abc import Callable

from hookline.components import (
    Box,
    Container,
    DynamicBorder,
    Editor,
    Input,
    Key,
    Loader,
    SelectItem,
    SelectList,
    SelectListTheme,
    SettingItem,
    SettingsList,
    Spacer,
    Text,
    TruncatedText,
    is_component,
    key_sequence,
    strip_ansi,
    visible_width,
)


def plain(lines: list[str]) -> list[str]:
    return [strip_ansi(line).rstrip() for line in lines]


def keys(component: object, *ids: str) -> None:
    for key in ids:
        component.handle_input(key_sequence(key))  # type: ignore[attr-defined]


def test_text_wraps_inside_its_padding_and_fills_its_background() -> None:
    text = Text("alpha beta gamma", padding_x=1, padding_y=1)
    assert [strip_ansi(line) for line in text.render(12)] == [
        " " * 12,
        " alpha beta ",
        " gamma      ",
        " " * 12,
    ]
    painted = Text("hi", 0, 0, custom_bg_fn=lambda s: f"\x1b[44m{s}\x1b[49m")
    (line,) = painted.render(6)
    assert line.startswith("\x1b[44m") and visible_width(line) == 6
    assert Text("   ").render(10) == []


def test_truncated_text_spacer_and_border() -> None:
    assert plain(TruncatedText("a long line of text").render(10)) == ["a long ..."]
    assert Spacer(2).render(5) == ["", ""]
    assert DynamicBorder(lambda s: f"<{s}>").render(3) == ["<───>"]


def test_container_stacks_children_and_box_pads_and_frames_them() -> None:
    stack = Container()
    first, second = Text("one", 0, 0), Text("two", 0, 0)
    stack.add_child(first)
    stack.add_child(second)
    assert plain(stack.render(10)) == ["one", "two"]
    stack.remove_child(first)
    assert plain(stack.render(10)) == ["two"]
    box = Box(1, 0, border=lambda s: s, title="Title")
    box.add_child(Text("body", 0, 0))
    assert [strip_ansi(line) for line in box.render(12)] == [
        "╭─ Title ──╮",
        "│ body     │",
        "╰──────────╯",
    ]
    stack.clear()
    assert stack.render(10) == []


def test_select_list_moves_wraps_filters_and_answers() -> None:
    items = [SelectItem("apple", "Apple", "red"), SelectItem("banana"), SelectItem("cherry")]
    theme = SelectListTheme(selected_text=lambda s: f"[{s}]")
    chosen: list[str] = []
    changes: list[str] = []
    cancelled: list[bool] = []
    picker = SelectList(items, 2, theme)
    picker.on_select = lambda item: chosen.append(item.value)
    picker.on_selection_change = lambda item: changes.append(item.value)
    picker.on_cancel = lambda: cancelled.append(True)
    lines = plain(picker.render(30))
    assert lines[0].startswith("[→ Apple") and lines[1].startswith("  banana")
    assert lines[-1].strip() == "(1/3)"  # more items than shown
    keys(picker, Key.up)  # wraps to the last
    assert changes == ["cherry"]
    keys(picker, Key.down, Key.down, Key.enter)
    assert chosen == ["banana"]
    picker.set_filter("ch")
    assert plain(picker.render(30)) == ["[→ cherry]"]
    picker.set_filter("zzz")
    assert "No matching" in plain(picker.render(30))[0]
    keys(picker, "escape")
    assert cancelled == [True]


def test_select_list_shows_descriptions_beside_labels_when_wide() -> None:
    picker = SelectList([SelectItem("a", "Alpha", "the first letter")], 5)
    (line,) = plain(picker.render(60))
    assert "Alpha" in line and "the first letter" in line


def test_input_edits_and_submits() -> None:
    field = Input()
    submitted: list[str] = []
    field.on_submit = submitted.append
    for char in "helo":
        field.handle_input(char)
    keys(field, "left")
    field.handle_input("l")
    keys(field, "ctrl+e")
    field.handle_input("!")
    assert field.get_value() == "hello!"
    assert strip_ansi(field.render(20)[0]).startswith("> hello!")
    keys(field, "ctrl+w")
    assert field.get_value() == ""
    field.set_value("done")
    keys(field, "enter")
    assert submitted == ["done"]


def test_editor_takes_several_lines_and_reports_changes() -> None:
    editor = Editor()
    changes: list[str] = []
    submitted: list[str] = []
    editor.on_change = changes.append
    editor.on_submit = submitted.append
    for char in "one":
        editor.handle_input(char)
    keys(editor, "shift+enter")
    for char in "two":
        editor.handle_input(char)
    assert editor.get_text() == "one\ntwo"
    assert changes[-1] == "one\ntwo"
    keys(editor, "up", "end", "backspace")
    assert editor.get_text() == "on\ntwo"
    lines = plain(editor.render(20))
    assert lines[0] == "─" * 20 and lines[-1] == "─" * 20
    assert [line.rstrip() for line in lines[1:-1]] == ["on", "two"]
    keys(editor, "enter")
    assert submitted == ["on\ntwo"]
    editor.set_text("new")
    assert editor.get_text() == "new"


def test_loader_shows_its_message_without_an_event_loop() -> None:
    loader = Loader(None, message="Working")
    lines = plain(loader.render(20))
    assert lines[0] == "" and "Working" in lines[1]
    loader.stop()


def test_every_builtin_is_a_component() -> None:
    for component in (Text(), TruncatedText(), Spacer(), Box(), Container(), Input(), Editor()):
        assert is_component(component)
        assert all(visible_width(line) <= 20 for line in component.render(20))


def test_settings_list_cycles_values_opens_submenus_and_searches() -> None:
    changes: list[tuple[str, str]] = []
    cancelled: list[bool] = []

    def submenu(current: str, done: Callable[[str | None], None]) -> SelectList:
        picker = SelectList([SelectItem("vim"), SelectItem("emacs")], 5)
        picker.on_select = lambda item: done(item.value)
        picker.on_cancel = lambda: done(None)
        return picker

    settings = SettingsList(
        [
            SettingItem("theme", "Theme", "dark", "Colours of the app", values=["dark", "light"]),
            SettingItem("keys", "Key bindings", "emacs", submenu=submenu),
        ],
        5,
        None,
        lambda id, value: changes.append((id, value)),
        lambda: cancelled.append(True),
    )
    lines = plain(settings.render(40))
    assert lines[0] == "→ Theme         dark" and "  Colours of the app" in lines
    keys(settings, "enter")
    assert changes == [("theme", "light")]
    keys(settings, "down", "space")
    assert plain(settings.render(40))[0] == "→ vim"  # the submenu, in its place
    keys(settings, "enter")
    assert changes[-1] == ("keys", "vim")
    assert plain(settings.render(40))[1] == "→ Key bindings  vim"
    keys(settings, "escape")
    assert cancelled == [True]
    searching = SettingsList(
        [SettingItem("a", "Alpha", "1"), SettingItem("b", "Beta", "2")],
        5,
        None,
        lambda id, value: None,
        lambda: None,
        enable_search=True,
    )
    for char in "bet":
        searching.handle_input(char)
    assert [line for line in plain(searching.render(40)) if "Alpha" in line or "Beta" in line] == [
        "→ Beta   2"
    ]
