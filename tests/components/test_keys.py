"""Raw key sequences and pi's key ids."""

from __future__ import annotations

import pytest

from hookline.components import Key, Keybindings, key_sequence, matches_key, parse_key


@pytest.mark.parametrize(
    ("data", "key"),
    [
        ("\r", "enter"),
        ("\x1b", "escape"),
        ("\t", "tab"),
        ("\x1b[Z", "shift+tab"),
        ("\x03", "ctrl+c"),
        ("\x7f", "backspace"),
        ("\x1b[A", "up"),
        ("\x1bOB", "down"),
        ("\x1b[1;5D", "ctrl+left"),
        ("\x1b[1;2C", "shift+right"),
        ("\x1b[3~", "delete"),
        ("\x1b[5~", "pageup"),
        ("\x1bx", "alt+x"),
        ("\x1b[99;5u", "ctrl+c"),  # the kitty protocol
        ("\x1b[13;2u", "shift+enter"),
        ("a", "a"),
        (" ", "space"),
    ],
)
def test_parse_key_names_raw_sequences(data: str, key: str) -> None:
    assert parse_key(data) == key
    assert matches_key(data, key)


def test_matches_key_accepts_pis_spellings_and_the_key_helpers() -> None:
    assert matches_key("\r", "return") and matches_key("\r", Key.enter)
    assert matches_key("\x1b", "esc") and matches_key("\x1b", Key.escape)
    assert matches_key("\x1b[5~", "pageUp") and matches_key("\x1b[5~", Key.page_up)
    assert matches_key("\x03", Key.ctrl("c")) and matches_key("\x03", "Ctrl+C")
    assert matches_key("\x1b[Z", Key.shift("tab"))
    assert matches_key("A", "shift+a")
    assert matches_key("+", "+") and matches_key("\x1b+", "alt++")
    assert not matches_key("\x1b[A", "down")
    assert not matches_key("\x1b[99;5:3u", "ctrl+c")  # a key release is no key


def test_key_sequence_is_the_inverse_of_parse_key() -> None:
    for key in ("enter", "ctrl+k", "alt+b", "shift+up", "ctrl+shift+p", "f5", "delete", "q"):
        assert parse_key(key_sequence(key)) == key


def test_keybindings_match_actions_by_pi_or_snake_case_name() -> None:
    kb = Keybindings()
    assert kb.matches("\x1b[A", "select_up") and kb.matches("\x1b[A", "selectUp")
    assert kb.matches("\x03", "select_cancel") and kb.matches("\x1b", "tui.select.cancel")
    custom = Keybindings({"selectUp": ["ctrl+p"]})
    assert custom.matches("\x10", "select_up") and not custom.matches("\x1b[A", "select_up")


def test_a_kitty_key_release_names_its_key_and_is_no_press() -> None:
    from hookline.components import parse_key, released_key

    assert released_key("\x1b[97;1:3u") == "a"
    assert released_key("\x1b[97;5:3u") == "ctrl+a"
    assert parse_key("\x1b[97;1:3u") is None
    assert released_key("\x1b[97;1:1u") is None and released_key("a") is None
