"""Settings to change in place: each row a label and its value; Enter or Space cycles
the value (or opens the row's own picker), Esc closes."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from hookline.components.ansi import truncate_to_width, visible_width, wrap_text_with_ansi
from hookline.components.component import Component, handle_input
from hookline.components.keys import Keybindings, default_keybindings

#: ``submenu(current_value, done)``: a component picking a new value; ``done(value)``
#: sets it (``done(None)`` keeps the old one) and closes the submenu.
Submenu = Callable[[str, Callable[[str | None], None]], Component]


@dataclass(slots=True)
class SettingItem:
    """One setting: ``current_value`` is shown right of ``label``; ``values`` are cycled
    through, or ``submenu`` picks one."""

    id: str
    label: str
    current_value: str
    values: list[str] = field(default_factory=list)
    description: str | None = None
    submenu: Submenu | None = None


def _plain(text: str, selected: bool = False) -> str:
    return text


@dataclass(frozen=True, slots=True)
class SettingsListTheme:
    """``label(text, selected)``, ``value(text, selected)``, ``description(text)``,
    ``hint(text)`` and the ``cursor`` shown before the selected row."""

    label: Callable[[str, bool], str] = field(default=_plain)
    value: Callable[[str, bool], str] = field(default=_plain)
    description: Callable[[str], str] = field(default=_plain)
    hint: Callable[[str], str] = field(default=_plain)
    cursor: str = "→ "


def settings_list_theme(theme: Any) -> SettingsListTheme:
    """The settings list in ``theme``'s colours (the app's own, as pi's
    ``getSettingsListTheme``): the selected row in ``accent``, values ``muted``."""
    return SettingsListTheme(
        label=lambda text, selected: theme.fg("accent", text) if selected else text,
        value=lambda text, selected: theme.fg("accent" if selected else "muted", text),
        description=lambda text: theme.fg("dim", text),
        hint=lambda text: theme.fg("dim", text),
        cursor=theme.fg("accent", "→ "),
    )


class SettingsList:
    """Rows of settings: ``on_change(id, value)`` after each change, ``on_cancel()`` on Esc."""

    def __init__(
        self,
        items: Sequence[SettingItem],
        max_visible: int,
        theme: SettingsListTheme | None,
        on_change: Callable[[str, str], object],
        on_cancel: Callable[[], object],
        *,
        keybindings: Keybindings | None = None,
    ) -> None:
        self.items = list(items)
        self.max_visible = max(max_visible, 1)
        self.theme = theme or SettingsListTheme()
        self.on_change = on_change
        self.on_cancel = on_cancel
        self.keybindings = keybindings or default_keybindings()
        self.selected_index = 0
        self._submenu: Component | None = None

    def update_value(self, id: str, value: str) -> None:
        for item in self.items:
            if item.id == id:
                item.current_value = value

    def invalidate(self) -> None:
        if self._submenu is not None:
            self._submenu.invalidate()

    def handle_input(self, data: str) -> None:
        if self._submenu is not None:
            handle_input(self._submenu, data)
            return
        kb, count = self.keybindings, len(self.items)
        if kb.matches(data, "select_up") and count:
            self.selected_index = (self.selected_index - 1) % count
        elif kb.matches(data, "select_down") and count:
            self.selected_index = (self.selected_index + 1) % count
        elif kb.matches(data, "select_confirm") or data == " ":
            self._activate()
        elif kb.matches(data, "select_cancel"):
            self.on_cancel()

    def _activate(self) -> None:
        if not self.items:
            return
        item = self.items[self.selected_index]
        if item.submenu is not None:

            def close(value: str | None) -> None:
                self._submenu = None
                if value is not None:
                    item.current_value = value
                    self.on_change(item.id, value)

            self._submenu = item.submenu(item.current_value, close)
        elif item.values:
            at = item.values.index(item.current_value) if item.current_value in item.values else -1
            item.current_value = item.values[(at + 1) % len(item.values)]
            self.on_change(item.id, item.current_value)

    def render(self, width: int) -> list[str]:
        if self._submenu is not None:
            return self._submenu.render(width)
        th = self.theme
        hint = ["", truncate_to_width(th.hint("  Enter/Space to change · Esc to cancel"), width)]
        if not self.items:
            return [th.hint("  No settings available"), *hint]
        total = len(self.items)
        start = max(0, min(self.selected_index - self.max_visible // 2, total - self.max_visible))
        end = min(start + self.max_visible, total)
        label_width = min(30, max(visible_width(i.label) for i in self.items))
        lines = []
        for index in range(start, end):
            item = self.items[index]
            selected = index == self.selected_index
            prefix = th.cursor if selected else "  "
            label = item.label + " " * max(label_width - visible_width(item.label), 0)
            room = width - visible_width(prefix) - label_width - 4
            value = th.value(truncate_to_width(item.current_value, max(room, 0), ""), selected)
            lines.append(truncate_to_width(f"{prefix}{th.label(label, selected)}  {value}", width))
        if start > 0 or end < total:
            info = f"  ({self.selected_index + 1}/{total})"
            lines.append(th.hint(truncate_to_width(info, max(width - 2, 0), "")))
        described = self.items[self.selected_index].description
        if described:
            lines.append("")
            lines += [
                th.description(f"  {line}") for line in wrap_text_with_ansi(described, width - 4)
            ]
        return [*lines, *hint]
