"""The simple built-ins: text (wrapped or cut), blank lines, a padded box, a border line."""

from __future__ import annotations

from collections.abc import Callable

from hookline.components.ansi import truncate_to_width, visible_width, wrap_text_with_ansi
from hookline.components.component import Container

Style = Callable[[str], str]


def _fill(line: str, width: int) -> str:
    return line + " " * max(width - visible_width(line), 0)


class Text:
    """Text wrapped at words to the width, inside ``padding_x``/``padding_y``, each line
    filled to the width (and painted with ``custom_bg_fn`` when there is one)."""

    def __init__(
        self,
        text: str = "",
        padding_x: int = 1,
        padding_y: int = 1,
        custom_bg_fn: Style | None = None,
    ) -> None:
        self.text = text
        self.padding_x = padding_x
        self.padding_y = padding_y
        self.custom_bg_fn = custom_bg_fn
        self._cache: tuple[int, list[str]] | None = None

    def set_text(self, text: str) -> None:
        self.text = text
        self._cache = None

    def set_custom_bg_fn(self, custom_bg_fn: Style | None) -> None:
        self.custom_bg_fn = custom_bg_fn
        self._cache = None

    def invalidate(self) -> None:
        self._cache = None

    def render(self, width: int) -> list[str]:
        if self._cache is not None and self._cache[0] == width:
            return self._cache[1]
        lines: list[str] = []
        if self.text.strip():
            inner = max(width - 2 * self.padding_x, 1)
            margin = " " * self.padding_x
            body = [margin + line + margin for line in wrap_text_with_ansi(self.text, inner)]
            blank = [""] * self.padding_y
            lines = [
                _fill(truncate_to_width(line, width, ""), width) for line in [*blank, *body, *blank]
            ]
            if self.custom_bg_fn is not None:
                lines = [self.custom_bg_fn(line) for line in lines]
        self._cache = (width, lines)
        return lines


class TruncatedText:
    """One line of text, cut with an ellipsis to the width."""

    def __init__(self, text: str = "", padding_x: int = 0, padding_y: int = 0) -> None:
        self.text = text
        self.padding_x = padding_x
        self.padding_y = padding_y

    def set_text(self, text: str) -> None:
        self.text = text

    def invalidate(self) -> None:
        return None

    def render(self, width: int) -> list[str]:
        first = self.text.split("\n", 1)[0]
        margin = " " * self.padding_x
        line = margin + truncate_to_width(first, max(width - 2 * self.padding_x, 0)) + margin
        blank = [""] * self.padding_y
        return [*blank, truncate_to_width(line, width, ""), *blank]


class Spacer:
    """``lines`` empty lines."""

    def __init__(self, lines: int = 1) -> None:
        self.lines = lines

    def set_lines(self, lines: int) -> None:
        self.lines = lines

    def invalidate(self) -> None:
        return None

    def render(self, width: int) -> list[str]:
        return [""] * self.lines


class Box(Container):
    """Children inside padding, on a background (``bg_fn``) and within a border.

    ``border`` (a style, e.g. ``lambda s: theme.fg("border", s)``) draws a rounded
    frame around the padding, with ``title`` in its top edge.
    """

    def __init__(
        self,
        padding_x: int = 1,
        padding_y: int = 1,
        bg_fn: Style | None = None,
        *,
        border: Style | None = None,
        title: str | None = None,
    ) -> None:
        super().__init__()
        self.padding_x = padding_x
        self.padding_y = padding_y
        self.bg_fn = bg_fn
        self.border = border
        self.title = title

    def set_bg_fn(self, bg_fn: Style | None) -> None:
        self.bg_fn = bg_fn

    def render(self, width: int) -> list[str]:
        edge = 1 if self.border is not None else 0
        inner = max(width - 2 * edge, 1)
        content = max(inner - 2 * self.padding_x, 1)
        margin = " " * self.padding_x
        body = [""] * self.padding_y
        body += [margin + line for line in super().render(content)]
        body += [""] * self.padding_y
        lines = [_fill(truncate_to_width(line, inner, ""), inner) for line in body]
        if self.bg_fn is not None:
            lines = [self.bg_fn(line) for line in lines]
        if self.border is None:
            return lines
        paint = self.border
        side = paint("│")
        top = "─" * inner
        if self.title:
            label = truncate_to_width(f" {self.title} ", max(inner - 2, 0), "…")
            top = "─" + label + "─" * max(inner - 1 - visible_width(label), 0)
        return [
            paint("╭" + top + "╮"),
            *[side + line + side for line in lines],
            paint("╰" + "─" * inner + "╯"),
        ]


class DynamicBorder:
    """A horizontal rule the width of the area (``color`` styles it)."""

    def __init__(self, color: Style | None = None, char: str = "─") -> None:
        self.color = color
        self.char = char

    def invalidate(self) -> None:
        return None

    def render(self, width: int) -> list[str]:
        line = self.char * max(width, 1)
        return [self.color(line) if self.color is not None else line]
