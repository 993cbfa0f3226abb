"""Where an overlay goes: pi's overlay options and the layout they resolve to.

Sizes are cells or a percentage of the terminal (``"50%"``); ``anchor`` names the
edge or corner it is pinned to, ``offset_x``/``offset_y`` move it from there,
``margin`` keeps it off the terminal's edges (one number, or per side). The layout
is always clamped inside the terminal less the margins.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

OverlayAnchor = Literal[
    "center",
    "top-left",
    "top-right",
    "bottom-left",
    "bottom-right",
    "top-center",
    "bottom-center",
    "left-center",
    "right-center",
]
ANCHORS: tuple[str, ...] = OverlayAnchor.__args__  # type: ignore[attr-defined]
#: Cells, or a percentage of the terminal's size such as ``"50%"``.
SizeValue = int | str
_PERCENT = re.compile(r"(\d+(?:\.\d+)?)%")
#: The width of an overlay that names none (pi's).
DEFAULT_WIDTH = 80


@dataclass(frozen=True, slots=True)
class OverlayMargin:
    top: int = 0
    right: int = 0
    bottom: int = 0
    left: int = 0


@dataclass(frozen=True, slots=True)
class OverlayOptions:
    """pi's ``overlayOptions`` in snake_case."""

    anchor: OverlayAnchor = "center"
    width: SizeValue | None = None
    min_width: int | None = None
    max_height: SizeValue | None = None
    #: cells on every side, or per side (an ``OverlayMargin`` or a mapping of its fields)
    margin: OverlayMargin | Mapping[str, int] | int = 0
    offset_x: int = 0
    offset_y: int = 0
    row: SizeValue | None = None
    col: SizeValue | None = None
    #: Shown only while this says yes for the terminal's ``(columns, rows)``.
    visible: Callable[[int, int], bool] | None = None
    #: Shown without taking the keys (a passive panel).
    non_capturing: bool = False

    def __post_init__(self) -> None:
        if self.anchor not in ANCHORS:
            raise ValueError(f"overlay anchor {self.anchor!r}: use one of {', '.join(ANCHORS)}")
        for name in ("width", "max_height", "row", "col"):
            value = getattr(self, name)
            if isinstance(value, str) and not _PERCENT.fullmatch(value.strip()):
                raise ValueError(
                    f"overlay {name} {value!r}: use cells (an int) or a percentage like '50%'"
                )

    @classmethod
    def from_placement(cls, placement: Mapping[str, Any]) -> OverlayOptions:
        """Options from ``custom``'s keyword arguments (``on_handle`` is ``custom``'s own);
        an unknown name is an error."""
        placement = {k: v for k, v in placement.items() if k != "on_handle"}
        unknown = set(placement) - set(cls.__dataclass_fields__)
        if unknown:
            raise TypeError(
                f"custom() got unknown overlay options {sorted(unknown)}; "
                f"known: {', '.join(cls.__dataclass_fields__)}"
            )
        return cls(**placement)


@dataclass(frozen=True, slots=True)
class OverlayLayout:
    """The overlay's place on the terminal: its top-left cell, its width, and the most
    rows it may take (``None``: as many as it renders)."""

    row: int
    col: int
    width: int
    max_height: int | None


def _size(value: SizeValue | None, reference: int) -> int | None:
    if value is None:
        return None
    if isinstance(value, int):
        return value
    match = _PERCENT.fullmatch(value.strip())
    return int(reference * float(match.group(1)) / 100) if match else None


def _position(value: SizeValue, free: int, start: int) -> int:
    if isinstance(value, int):
        return value
    match = _PERCENT.fullmatch(value.strip())
    return start + int(max(free, 0) * float(match.group(1)) / 100) if match else start + free // 2


def overlay_size(options: OverlayOptions, columns: int, rows: int) -> tuple[int, int | None]:
    """The width to render the overlay at, and its row limit."""
    margin = _margin(options.margin)
    avail_w = max(1, columns - margin.left - margin.right)
    avail_h = max(1, rows - margin.top - margin.bottom)
    width = _size(options.width, columns)
    width = min(DEFAULT_WIDTH, avail_w) if width is None else width
    if options.min_width is not None:
        width = max(width, options.min_width)
    width = max(1, min(width, avail_w))
    limit = _size(options.max_height, rows)
    return width, (max(1, min(limit, avail_h)) if limit is not None else None)


def resolve_overlay_layout(
    options: OverlayOptions, height: int, columns: int, rows: int
) -> OverlayLayout:
    """Place an overlay that renders ``height`` lines on a ``columns`` × ``rows`` terminal."""
    margin = _margin(options.margin)
    avail_w = max(1, columns - margin.left - margin.right)
    avail_h = max(1, rows - margin.top - margin.bottom)
    width, limit = overlay_size(options, columns, rows)
    shown = min(height, limit) if limit is not None else height
    vertical, _, horizontal = options.anchor.partition("-")
    if options.anchor == "center":
        vertical, horizontal = "center", "center"
    elif vertical in ("left", "right"):
        vertical, horizontal = "center", vertical
    if options.row is not None:
        row = _position(options.row, avail_h - shown, margin.top)
    else:
        row = {"top": margin.top, "bottom": margin.top + avail_h - shown}.get(
            vertical, margin.top + (avail_h - shown) // 2
        )
    if options.col is not None:
        col = _position(options.col, avail_w - width, margin.left)
    else:
        col = {"left": margin.left, "right": margin.left + avail_w - width}.get(
            horizontal, margin.left + (avail_w - width) // 2
        )
    row = max(margin.top, min(row + options.offset_y, rows - margin.bottom - shown))
    col = max(margin.left, min(col + options.offset_x, columns - margin.right - width))
    return OverlayLayout(row, col, width, limit)


def _margin(margin: OverlayMargin | Mapping[str, int] | int) -> OverlayMargin:
    if isinstance(margin, int):
        margin = OverlayMargin(margin, margin, margin, margin)
    elif not isinstance(margin, OverlayMargin):
        margin = OverlayMargin(**margin)
    return OverlayMargin(
        *(max(0, v) for v in (margin.top, margin.right, margin.bottom, margin.left))
    )
