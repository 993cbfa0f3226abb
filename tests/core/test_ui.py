"""``ctx.ui`` without a UI, and the status line rules."""

from __future__ import annotations

from hookline.core.context import HookContext
from hookline.core.ui import HookUI, NoUI, StatusLine, sanitize_status


async def test_no_ui_defaults() -> None:
    ui = NoUI()
    assert await ui.select("t", ["a", "b"]) is None
    assert await ui.input("t", "placeholder") is None
    assert await ui.editor("t", "prefill") is None
    assert await ui.confirm("t", "m") is False
    assert ui.get_editor_text() == ""
    ui.set_editor_text("ignored")
    assert ui.get_editor_text() == ""
    assert await ui.custom(lambda *a: "component") is None
    assert ui.theme.fg("error", "x") == "x"
    assert ui.set_theme("light").success is False
    ui.notify("hello")
    ui.notify("careful", "warning")
    assert ui.notifications == [("info", "hello"), ("warning", "careful")]
    assert isinstance(ui, HookUI)


def test_context_defaults_to_no_ui() -> None:
    ctx = HookContext("/w")
    assert isinstance(ctx.ui, NoUI)
    assert ctx.has_ui is False
    assert ctx.session_file is None
    assert ctx.cwd == "/w"


def test_status_kept_per_key_and_sorted_by_key() -> None:
    line = StatusLine()
    line.set("b", "second")
    line.set("a", "first")
    line.set("c", "third")
    line.set("b", "second again")
    assert line.items() == [("a", "first"), ("b", "second again"), ("c", "third")]
    assert line.render(200) == "first · second again · third"
    line.set("b", None)
    line.set("c", "")
    assert line.render(200) == "first"


def test_status_sanitizes_control_whitespace() -> None:
    assert sanitize_status("a\r\nb\tc") == "a b c"
    assert sanitize_status("a    b \n\n c") == "a b c"
    line = StatusLine()
    line.set("k", "  line1\n\tline2\r  ")
    assert line.render(100) == "line1 line2"
    line.set("k", "\n\t\r ")  # nothing left: removed
    assert line.items() == []


def test_status_truncated_to_width() -> None:
    line = StatusLine(separator=" | ")
    line.set("a", "abcdef")
    line.set("b", "ghij")
    assert line.render(13) == "abcdef | ghij"
    assert line.render(100) == "abcdef | ghij"
    cut = line.render(8)
    assert len(cut) == 8
    assert cut == "abcdef |"[:7] + "…"
    assert line.render(1) == "…"
    assert line.render(0) == ""


def test_no_ui_keeps_status() -> None:
    ui = NoUI()
    ui.set_status("z", "last")
    ui.set_status("a", "first\nline")
    assert ui.status.render(80) == "first line · last"
