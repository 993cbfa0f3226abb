"""The Editor's prompt history and the CustomEditor's hand-back of the app's keys."""

from __future__ import annotations

from hookline.components import CustomEditor, Editor, key_sequence


def press(editor: Editor, *keys: str) -> None:
    for key in keys:
        editor.handle_input(key_sequence(key))


def test_up_in_an_empty_editor_brings_back_sent_prompts_newest_first() -> None:
    editor = Editor()
    for text in ("first", "second", "second", "  "):
        editor.add_to_history(text)
    press(editor, "up")
    assert editor.get_text() == "second"
    press(editor, "up")
    assert editor.get_text() == "first"
    press(editor, "up")  # no older one
    assert editor.get_text() == "first"
    press(editor, "down", "down")
    assert editor.get_text() == ""


def test_up_in_a_written_editor_moves_the_cursor_not_the_history() -> None:
    editor = Editor()
    editor.add_to_history("old")
    editor.set_text("one\ntwo")
    press(editor, "up")
    assert (editor.get_text(), editor.row) == ("one\ntwo", 0)
    press(editor, "up")
    assert (editor.get_text(), editor.col) == ("one\ntwo", 0)


def test_typing_while_browsing_edits_the_prompt_shown() -> None:
    editor = Editor()
    editor.add_to_history("old")
    press(editor, "up")
    editor.handle_input("!")
    press(editor, "down")
    assert editor.get_text() == "old!"


def test_a_bracketed_paste_keeps_its_lines() -> None:
    editor = Editor()
    editor.handle_input("\x1b[200~a\nb\x1b[201~")
    assert editor.get_text() == "a\nb"


def test_custom_editor_hands_the_app_keys_to_its_handlers() -> None:
    calls: list[str] = []
    editor = CustomEditor()
    editor.on_escape = lambda: calls.append("escape")
    editor.on_ctrl_d = lambda: calls.append("exit")
    editor.on_action("clear", lambda: calls.append("clear"))
    editor.on_action("expandTools", lambda: calls.append("expand"))
    press(editor, "escape", "ctrl+d", "ctrl+c", "ctrl+o")
    assert calls == ["escape", "exit", "clear", "expand"]


def test_custom_editor_ctrl_d_deletes_when_there_is_text() -> None:
    exits: list[bool] = []
    editor = CustomEditor()
    editor.on_ctrl_d = lambda: exits.append(True)
    editor.set_text("ab")
    press(editor, "left", "ctrl+d")
    assert (editor.get_text(), exits) == ("a", [])


def test_a_hook_shortcut_sees_the_key_first() -> None:
    editor = CustomEditor()
    editor.on_extension_shortcut = lambda data: data == "x"
    editor.handle_input("x")
    editor.handle_input("y")
    assert editor.get_text() == "y"
