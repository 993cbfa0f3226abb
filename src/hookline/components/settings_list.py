"""Settings as label and value rows: Enter or Space cycles a value or opens its submenu."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from hookline.components.ansi import truncate_to_width, visible_width, wrap_text_with_ansi
from hookline.components.component import Component, handle_input
from hookline.components.keys import Keybindings, default_keybindings
from hookline.components.text_field import Input

Submenu = Callable[[str, Callable[[str | None], None]], Component]


@dataclass(slots=True)
class SettingItem:
    """One setting: ``values`` are cycled through; a ``submenu(current, done)`` is a
    component that answers the new value (``None`` keeps the old one)."""

    id: str
    label: str
    current_value: str
    description: str | None = None
    values: Sequence[str] | None = None
    submenu: Submenu | None = None


def _plain(text: str, selected: bool = False) -> str:
    return text


def _same(text: str) -> str:
    return text


@dataclass(frozen=True, slots=True)
class SettingsListTheme:
    label: Callable[[str, bool], str] = field(default=_plain)
    value: Callable[[str, bool], str] = field(default=_plain)
    description: Callable[[str], str] = field(default=_same)
    cursor: str = "→ "
    hint: Callable[[str], str] = field(default=_same)


class SettingsList:
    """A list of settings; ``on_change(id, value)`` after each change, ``on_cancel()`` on Esc.

    With ``enable_search`` typing filters the settings by label (spaces are not typed:
    Space changes the setting).
    """

    def __init__(
        self,
        items: Sequence[SettingItem],
        max_visible: int,
        theme: SettingsListTheme | None,
        on_change: Callable[[str, str], object],
        on_cancel: Callable[[], object],
        *,
        enable_search: bool = False,
        keybindings: Keybindings | None = None,
    ) -> None:
        self.items = list(items)
        self.filtered = list(items)
        self.max_visible = max(max_visible, 1)
        self.theme = theme or SettingsListTheme()
        self.on_change = on_change
        self.on_cancel = on_cancel
        self.keybindings = keybindings or default_keybindings()
        self.search = Input() if enable_search else None
        self.selected_index = 0
        self._submenu: Component | None = None

    def update_value(self, id: str, value: str) -> None:
        for item in self.items:
            if item.id == id:
                item.current_value = value

    def invalidate(self) -> None:
        if self._submenu is not None:
            self._submenu.invalidate()

    def _shown(self) -> list[SettingItem]:
        return self.filtered if self.search is not None else self.items

    def handle_input(self, data: str) -> None:
        if self._submenu is not None:
            handle_input(self._submenu, data)
            return
        kb, shown = self.keybindings, self._shown()
        if kb.matches(data, "select_up") and shown:
            self.selected_index = (self.selected_index - 1) % len(shown)
        elif kb.matches(data, "select_down") and shown:
            self.selected_index = (self.selected_index + 1) % len(shown)
        elif kb.matches(data, "select_confirm") or data == " ":
            self._activate()
        elif kb.matches(data, "select_cancel"):
            self.on_cancel()
        elif self.search is not None and data.replace(" ", ""):
            self.search.handle_input(data.replace(" ", ""))
            query = self.search.get_value().lower()
            self.filtered = [i for i in self.items if query in i.label.lower()]
            self.selected_index = 0

    def _activate(self) -> None:
        shown = self._shown()
        if not shown:
            return
        item = shown[self.selected_index]
        if item.submenu is not None:
            index = self.selected_index

            def closed(value: str | None) -> None:
                if value is not None:
                    item.current_value = value
                    self.on_change(item.id, value)
                self._submenu = None
                self.selected_index = index

            self._submenu = item.submenu(item.current_value, closed)
        elif item.values:
            values = list(item.values)
            at = values.index(item.current_value) if item.current_value in values else -1
            item.current_value = values[(at + 1) % len(values)]
            self.on_change(item.id, item.current_value)

    def render(self, width: int) -> list[str]:
        if self._submenu is not None:
            return self._submenu.render(width)
        th = self.theme
        lines = [*self.search.render(width), ""] if self.search is not None else []
        shown = self._shown()
        if not shown:
            empty = "  No settings available" if not self.items else "  No matching settings"
            return [*lines, truncate_to_width(th.hint(empty), width), *self._hint(width)]
        total = len(shown)
        start = max(0, min(self.selected_index - self.max_visible // 2, total - self.max_visible))
        end = min(start + self.max_visible, total)
        label_width = min(30, max(visible_width(i.label) for i in self.items))
        for index in range(start, end):
            item = shown[index]
            chosen = index == self.selected_index
            prefix = th.cursor if chosen else "  "
            label = th.label(
                item.label + " " * max(0, label_width - visible_width(item.label)), chosen
            )
            room = width - visible_width(prefix) - label_width - 4
            value = th.value(truncate_to_width(item.current_value, max(room, 0), ""), chosen)
            lines.append(truncate_to_width(f"{prefix}{label}  {value}", width))
        if start > 0 or end < total:
            info = f"  ({self.selected_index + 1}/{total})"
            lines.append(th.hint(truncate_to_width(info, max(width - 2, 0), "")))
        description = shown[self.selected_index].description
        if description:
            lines.append("")
            lines += [
                th.description(f"  {line}") for line in wrap_text_with_ansi(description, width - 4)
            ]
        return [*lines, *self._hint(width)]

    def _hint(self, width: int) -> list[str]:
        text = "  Enter/Space to change · Esc to cancel"
        if self.search is not None:
            text = "  Type to search · Enter/Space to change · Esc to cancel"
        return ["", truncate_to_width(self.theme.hint(text), width)]
