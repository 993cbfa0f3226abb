"""Widths, cuts and wraps of styled text, counted in terminal cells."""

from __future__ import annotations

from hookline.components import (
    CURSOR_MARKER,
    strip_ansi,
    truncate_to_width,
    visible_width,
    wrap_text_with_ansi,
)

RED, RESET = "\x1b[31m", "\x1b[0m"


def test_escapes_take_no_room_and_wide_characters_take_two() -> None:
    assert visible_width(f"{RED}abc{RESET}") == 3
    assert visible_width("中文") == 4
    assert visible_width(f"a{CURSOR_MARKER}b") == 2
    assert visible_width("\x1b]8;;https://x\x07link\x1b]8;;\x07") == 4


def test_truncate_keeps_styles_and_closes_them_before_the_ellipsis() -> None:
    cut = truncate_to_width(f"{RED}hello world{RESET}", 8)
    assert strip_ansi(cut) == "hello..."
    assert cut.startswith(RED) and cut.endswith(RESET + "...")
    assert truncate_to_width("short", 10) == "short"
    assert truncate_to_width("short", 8, pad=True) == "short   "
    assert visible_width(truncate_to_width("中文中文中文", 5, "…")) <= 5


def test_wrap_breaks_at_words_and_reopens_the_style_on_each_line() -> None:
    lines = wrap_text_with_ansi(f"one {RED}two three four{RESET} five", 10)
    assert [strip_ansi(line) for line in lines] == ["one two", "three four", "five"]
    assert lines[1].startswith(RED) and lines[1].endswith(RESET)
    assert all(visible_width(line) <= 10 for line in lines)


def test_wrap_breaks_a_word_longer_than_the_line_and_keeps_newlines() -> None:
    assert wrap_text_with_ansi("abcdefghij", 4) == ["abcd", "efgh", "ij"]
    assert wrap_text_with_ansi("a\n\nb", 10) == ["a", "", "b"]
    assert wrap_text_with_ansi("  indented", 20) == ["  indented"]
