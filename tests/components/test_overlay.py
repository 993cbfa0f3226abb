"""Overlay placement: pi's options resolved on a terminal of a given size."""

from __future__ import annotations

import pytest

from hookline.components import (
    OverlayLayout,
    OverlayMargin,
    OverlayOptions,
    Text,
    render_summary,
    resolve_overlay_layout,
    summarize,
)
from hookline.core.theme import plain_theme


def place(height: int = 5, **options: object) -> OverlayLayout:
    return resolve_overlay_layout(OverlayOptions.from_placement(options), height, 100, 40)


def test_the_default_is_centred_and_80_wide() -> None:
    assert place() == OverlayLayout(row=17, col=10, width=80, max_height=None)


@pytest.mark.parametrize(
    ("anchor", "row", "col"),
    [
        ("top-left", 0, 0),
        ("top-right", 0, 70),
        ("bottom-left", 35, 0),
        ("bottom-right", 35, 70),
        ("top-center", 0, 35),
        ("bottom-center", 35, 35),
        ("left-center", 17, 0),
        ("right-center", 17, 70),
    ],
)
def test_anchors_pin_an_edge_or_corner(anchor: str, row: int, col: int) -> None:
    layout = place(anchor=anchor, width=30)
    assert (layout.row, layout.col) == (row, col)


def test_percent_sizes_margins_and_offsets() -> None:
    layout = place(anchor="top-right", width="50%", margin=2, offset_x=-3, offset_y=1)
    assert layout == OverlayLayout(row=3, col=45, width=50, max_height=None)
    per_side = place(anchor="bottom-left", width=10, margin=OverlayMargin(bottom=4, left=6))
    assert (per_side.row, per_side.col) == (31, 6)
    assert place(anchor="top-left", margin={"top": 1, "left": 2}).row == 1


def test_the_overlay_is_kept_on_the_terminal() -> None:
    assert place(width=500).width == 100
    moved = place(anchor="top-left", offset_x=-50, offset_y=-50)
    assert (moved.row, moved.col) == (0, 0)
    limited = place(height=100, max_height="25%")
    assert limited.max_height == 10 and limited.row == 15


def test_row_and_col_place_it_by_percent() -> None:
    layout = place(row="0%", col="100%", width=20)
    assert (layout.row, layout.col) == (0, 80)


def test_bad_options_are_refused_with_the_known_ones() -> None:
    with pytest.raises(ValueError, match="anchor"):
        OverlayOptions(anchor="middle")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="percentage"):
        OverlayOptions(width="half")
    with pytest.raises(TypeError, match="known: anchor"):
        OverlayOptions.from_placement({"anchr": "center"})


def test_a_summary_is_the_component_once_at_80_columns_without_styles() -> None:
    assert render_summary(Text("\x1b[31mhello\x1b[0m", 1, 1)) == " hello"
    disposed: list[bool] = []

    class Panel(Text):
        def dispose(self) -> None:
            disposed.append(True)

    def factory(tui: object, theme: object, keybindings: object, done: object) -> Panel:
        return Panel("panel text", 0, 0)

    assert summarize(factory, plain_theme()) == "panel text"
    assert disposed == [True]
    assert summarize(lambda done: object(), plain_theme()) is None  # a prompt_toolkit factory
    assert summarize(lambda *args: None, plain_theme()) is None
