"""Overlays over one another: order, visibility, and which has the keys (pi's rules)."""

from __future__ import annotations

from hookline.components import OverlayOptions, OverlayStack, Text


def make() -> tuple[OverlayStack, list[int]]:
    redraws: list[int] = []
    return OverlayStack(lambda: (100, 30), lambda: redraws.append(1)), redraws


def test_each_overlay_goes_on_top_and_takes_the_keys() -> None:
    stack, redraws = make()
    a, b = Text("a"), Text("b")
    first = stack.show(a)
    second = stack.show(b)
    assert [e.component for e in stack.shown()] == [a, b] and stack.focused is b
    assert second.is_focused() and not first.is_focused() and redraws
    second.hide()
    assert stack.focused is a and [e.component for e in stack.shown()] == [a]
    first.hide()
    assert stack.focused is None and stack.shown() == []


def test_a_non_capturing_overlay_shows_without_the_keys_until_focused() -> None:
    stack, _ = make()
    controller, panel = Text("controller"), Text("panel")
    stack.show(controller)
    handle = stack.show(panel, OverlayOptions(non_capturing=True))
    assert stack.focused is controller
    handle.focus()
    assert stack.focused is panel and stack.shown()[-1].component is panel  # to the front
    handle.unfocus()
    assert stack.focused is controller


def test_hidden_for_a_while_then_back_on_top_with_the_keys() -> None:
    stack, _ = make()
    under, over = Text("under"), Text("over")
    stack.show(under)
    handle = stack.show(over)
    handle.set_hidden(True)
    assert handle.is_hidden() and stack.focused is under
    assert [e.component for e in stack.shown()] == [under]
    handle.set_hidden(False)
    assert stack.focused is over and stack.shown()[-1].component is over


def test_visible_is_asked_with_the_terminal_size() -> None:
    stack, _ = make()
    wide_only = OverlayOptions(visible=lambda columns, rows: columns >= 120)
    stack.show(Text("panel"), wide_only)
    assert stack.shown() == [] and stack.focused is None


def test_removing_calls_back_once_and_clear_removes_all() -> None:
    stack, _ = make()
    removed: list[str] = []
    stack.show(Text("a"), on_removed=lambda: removed.append("a"))
    handle = stack.show(Text("b"), on_removed=lambda: removed.append("b"))
    handle.hide()
    handle.hide()
    stack.clear()
    assert removed == ["b", "a"] and stack.entries == []
