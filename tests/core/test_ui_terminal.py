"""The UI calls a terminal adds (timeouts, widgets, title) and escape stripping of hook text."""

from __future__ import annotations

import asyncio

import pytest

from hookline.core.ui import HookUI, NoUI, StatusLine, sanitize_status, strip_terminal_controls


async def test_no_ui_accepts_the_new_options_and_answers_at_once() -> None:
    ui = NoUI()
    signal = asyncio.Event()
    assert await ui.select("t", ["a"], timeout=5, signal=signal, descriptions={"a": "x"}) is None
    assert await ui.confirm("t", "m", timeout=1, signal=signal) is False
    assert await ui.input("t", "p", timeout=1) is None
    assert await ui.editor("t", "p", signal=signal) is None
    assert await ui.custom(lambda done: None, overlay=True) is None
    ui.set_widget("k", ["line"], placement="below")
    ui.set_widget("k", None)
    ui.set_working_message("busy")
    ui.set_title("title")
    ui.set_header(["header"])
    ui.set_footer(None)
    ui.paste_to_editor("text")
    assert ui.get_editor_text() == ""
    assert isinstance(ui, HookUI)


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("a\x1b[2Jb", "ab"),  # clear screen
        ("a\x1b]0;evil title\x07b", "ab"),  # set the window title (BEL)
        ("a\x1b]52;c;ZXZpbA==\x1b\\b", "ab"),  # write the clipboard (ST)
        ("a\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\b", "alinkb"),  # hyperlink
        ("a\x1bPq#0;2;0;0;0\x1b\\b", "ab"),  # DCS (sixel)
        ("a\x9b31mb", "ab"),  # 8-bit CSI
        ("a\x1b7\x1b8b", "ab"),  # save/restore cursor
        ("a\x00\x07\x08\x7fb", "ab"),  # other control characters
        ("a\x1b", "a"),  # a lone escape at the end
        ("a\x1b]0;never ended", "a"),  # an OSC cut short eats the rest
    ],
)
def test_escape_sequences_and_controls_are_stripped(raw: str, clean: str) -> None:
    assert strip_terminal_controls(raw) == clean
    assert sanitize_status(raw) == clean


def test_strip_keeps_newlines_and_tabs_for_multi_line_widgets() -> None:
    assert strip_terminal_controls("one\r\ntwo\tthree\rx") == "one\ntwo\tthreex"


def test_status_line_never_keeps_an_escape() -> None:
    line = StatusLine()
    line.set("k", "ok\x1b]0;pwned\x07\x1b[31m red\x1b[0m")
    assert line.render(80) == "ok red"
    assert "\x1b" not in line.render(80)
