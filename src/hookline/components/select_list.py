"""A list to pick from: arrows move, Enter picks, Esc cancels; a filter narrows it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from hookline.components.ansi import truncate_to_width, visible_width
from hookline.components.keys import Keybindings, default_keybindings

Style = Callable[[str], str]


def _same(text: str) -> str:
    return text


@dataclass(frozen=True, slots=True)
class SelectItem:
    """One entry: ``value`` is what a pick gives back, ``label`` what is shown."""

    value: str
    label: str = ""
    description: str | None = None

    @property
    def shown(self) -> str:
        return self.label or self.value


@dataclass(frozen=True, slots=True)
class SelectListTheme:
    """How the list styles its parts (each a ``str -> str``; plain by default)."""

    selected_prefix: Style = field(default=_same)
    selected_text: Style = field(default=_same)
    description: Style = field(default=_same)
    scroll_info: Style = field(default=_same)
    no_match: Style = field(default=_same)


#: The column the labels take when some item has a description.
PRIMARY_COLUMN_WIDTH = 32


class SelectList:
    """Items with the cursor on one; ``on_select(item)``, ``on_cancel()`` and
    ``on_selection_change(item)`` are called as the user moves and answers."""

    def __init__(
        self,
        items: Sequence[SelectItem],
        max_visible: int = 5,
        theme: SelectListTheme | None = None,
        *,
        keybindings: Keybindings | None = None,
    ) -> None:
        self.items = list(items)
        self.filtered = list(items)
        self.max_visible = max(max_visible, 1)
        self.theme = theme or SelectListTheme()
        self.selected_index = 0
        self.keybindings = keybindings or default_keybindings()
        self.on_select: Callable[[SelectItem], object] | None = None
        self.on_cancel: Callable[[], object] | None = None
        self.on_selection_change: Callable[[SelectItem], object] | None = None

    def set_filter(self, text: str) -> None:
        """Keep the items whose value or label starts with ``text`` (case ignored);
        the cursor goes to the first."""
        query = text.lower()
        self.filtered = [
            item
            for item in self.items
            if item.value.lower().startswith(query) or item.shown.lower().startswith(query)
        ]
        self.selected_index = 0

    def set_selected_index(self, index: int) -> None:
        self.selected_index = max(0, min(index, len(self.filtered) - 1))

    def get_selected_item(self) -> SelectItem | None:
        return self.filtered[self.selected_index] if self.filtered else None

    def invalidate(self) -> None:
        return None

    def handle_input(self, data: str) -> None:
        kb = self.keybindings
        count = len(self.filtered)
        if kb.matches(data, "select_up") and count:
            self.selected_index = (self.selected_index - 1) % count
            self._changed()
        elif kb.matches(data, "select_down") and count:
            self.selected_index = (self.selected_index + 1) % count
            self._changed()
        elif kb.matches(data, "select_page_up") and count:
            self.selected_index = max(self.selected_index - self.max_visible, 0)
            self._changed()
        elif kb.matches(data, "select_page_down") and count:
            self.selected_index = min(self.selected_index + self.max_visible, count - 1)
            self._changed()
        elif kb.matches(data, "select_confirm"):
            item = self.get_selected_item()
            if item is not None and self.on_select is not None:
                self.on_select(item)
        elif kb.matches(data, "select_cancel") and self.on_cancel is not None:
            self.on_cancel()

    def _changed(self) -> None:
        item = self.get_selected_item()
        if item is not None and self.on_selection_change is not None:
            self.on_selection_change(item)

    def render(self, width: int) -> list[str]:
        if not self.filtered:
            return [self.theme.no_match(truncate_to_width("  No matching items", width))]
        total = len(self.filtered)
        start = max(0, min(self.selected_index - self.max_visible // 2, total - self.max_visible))
        end = min(start + self.max_visible, total)
        column = min(
            max((visible_width(i.shown) for i in self.filtered), default=0) + 2,
            PRIMARY_COLUMN_WIDTH,
        )
        lines = [
            self._row(self.filtered[i], i == self.selected_index, width, column)
            for i in range(start, end)
        ]
        if start > 0 or end < total:
            info = f"  ({self.selected_index + 1}/{total})"
            lines.append(self.theme.scroll_info(truncate_to_width(info, max(width - 2, 0), "")))
        return lines

    def _row(self, item: SelectItem, selected: bool, width: int, column: int) -> str:
        prefix = "→ " if selected else "  "
        room = max(width - 2, 1)
        description = " ".join((item.description or "").split())
        if description and width > 40:
            label = truncate_to_width(item.shown, max(column - 2, 1), "")
            gap = " " * max(column - visible_width(label), 1)
            rest = room - 2 - visible_width(label) - len(gap)
            if rest > 10:
                desc = truncate_to_width(description, rest, "")
                if selected:
                    return self.theme.selected_text(prefix + label + gap + desc)
                return prefix + label + self.theme.description(gap + desc)
        label = truncate_to_width(item.shown, room - 2)
        if selected:
            return self.theme.selected_text(prefix + label)
        return prefix + label
