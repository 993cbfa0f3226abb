"""What a hook's renderer or factory returns, as the terminal app draws it: pi's
components (``render(width)``), text with a theme's colours, rich renderables."""

from __future__ import annotations

from typing import Any

import pytest
from prompt_toolkit.layout import Window

from hookline.core.theme import theme_by_name
from hookline.modes.tui.hook_render import (
    ComponentWindow,
    call_upto,
    component_lines,
    is_component,
    one_line,
    renderable,
)
from hookline.modes.tui.layout import Widgets
from hookline.modes.tui.render import to_ansi


class Lines:
    def __init__(self, *lines: str) -> None:
        self.lines = list(lines)
        self.disposed = 0
        self.widths: list[int] = []

    def render(self, width: int) -> list[str]:
        self.widths.append(width)
        return self.lines

    def dispose(self) -> None:
        self.disposed += 1


def test_a_factory_gets_as_many_arguments_as_it_takes() -> None:
    assert call_upto(lambda: "none", 1, 2, 3) == "none"
    assert call_upto(lambda tui, theme: (tui, theme), 1, 2, 3) == (1, 2)
    assert call_upto(lambda *args: args, 1, 2, 3) == (1, 2, 3)
    assert call_upto(lambda a, b=0, *, c=5: (a, b, c), 1, 2, 3) == (1, 2, 5)


def test_a_component_is_anything_with_render_but_not_a_rich_renderable() -> None:
    from rich.text import Text

    assert is_component(Lines("x"))
    assert not is_component(Text("x"))  # rich's Text has a render method of its own
    assert not is_component("x")


def test_a_component_keeps_its_colours_and_loses_other_escapes() -> None:
    component = Lines("\x1b[31mred\x1b[0m", "\x1b]0;title\x07plain\x1b[2J")
    assert component_lines(component, 40) == ["\x1b[31mred\x1b[0m", "plain"]
    with pytest.raises(TypeError, match="list of lines"):
        component_lines(Lines.__new__(type("Bad", (), {"render": lambda s, w: "text"})), 1)


def test_renderer_answers_become_renderables() -> None:
    theme = theme_by_name("dark", "256color")
    drawn = renderable(theme.fg("error", "boom"), 40)
    assert drawn is not None and "boom" in to_ansi(drawn, 40, theme)
    assert "\x1b[38;5;" in to_ansi(drawn, 40, theme)  # the colour survived
    lines = renderable(Lines("one", "two"), 40)
    assert lines is not None and to_ansi(lines, 40, theme).splitlines() == ["one", "two"]
    assert renderable(None, 40) is None and renderable(42, 40) is None
    assert one_line(Lines("call"), 40) == "call"


def test_a_widget_component_is_drawn_at_each_frame_and_disposed_when_replaced() -> None:
    widgets = Widgets(lambda: 33)
    first = Lines("first")
    widgets.set("k", first, "footer")
    (window,) = widgets.at("footer")
    assert isinstance(window, ComponentWindow)
    control: Any = window.content
    assert "first" in str(control.text().value)
    first.lines = ["changed"]
    assert "changed" in str(control.text().value) and first.widths[-1] == 33
    widgets.set("k", ["plain lines"], "footer")
    assert first.disposed == 1
    assert isinstance(widgets.at("footer")[0], Window)
    widgets.set("k", None, "footer")
    assert widgets.at("footer") == []


def test_a_failing_component_shows_its_error() -> None:
    class Broken:
        def render(self, width: int) -> list[str]:
            raise RuntimeError("kaput")

    window = ComponentWindow(Broken(), lambda: 20)
    control: Any = window.content
    assert "render failed: RuntimeError: kaput" in str(control.text().value)


def test_a_factory_s_theme_follows_a_switch() -> None:
    from hookline.modes.tui.hook_render import LiveTheme

    themes = [theme_by_name("dark", "256color")]
    live = LiveTheme(lambda: themes[0])
    dark = live.fg("accent", "x")
    themes[0] = theme_by_name("light", "256color")
    assert live.fg("accent", "x") != dark and live.name == "light"
