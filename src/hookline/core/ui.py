"""The UI a hook talks to (``ctx.ui``), its no-UI defaults, and the status line rules."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, Literal, Protocol, runtime_checkable

NotifyType = Literal["info", "warning", "error"]


@runtime_checkable
class HookUI(Protocol):
    """What every mode provides: TUI dialogs, RPC requests, or the no-UI answers."""

    async def select(self, title: str, options: Sequence[str]) -> str | None: ...
    async def confirm(self, title: str, message: str) -> bool: ...
    async def input(self, title: str, placeholder: str | None = None) -> str | None: ...
    async def editor(self, title: str, prefill: str | None = None) -> str | None: ...
    def notify(self, message: str, type: NotifyType = "info") -> None: ...
    def set_status(self, key: str, text: str | None) -> None: ...
    async def custom(self, factory: Callable[..., Any]) -> Any: ...
    def set_editor_text(self, text: str) -> None: ...
    def get_editor_text(self) -> str: ...
    @property
    def theme(self) -> dict[str, Any]: ...


_SPACES = re.compile(r" {2,}")
_CONTROL = str.maketrans({"\r": " ", "\n": " ", "\t": " "})


def sanitize_status(text: str) -> str:
    """``\\r \\n \\t`` become spaces and runs of spaces collapse."""
    return _SPACES.sub(" ", text.translate(_CONTROL)).strip()


class StatusLine:
    """Hook status texts: one per key, shown sorted by key, cut to a width."""

    def __init__(self, separator: str = " · ") -> None:
        self._items: dict[str, str] = {}
        self._separator = separator

    def set(self, key: str, text: str | None) -> None:
        """Set a key's text; ``None`` or empty removes it."""
        clean = sanitize_status(text) if text else ""
        if clean:
            self._items[key] = clean
        else:
            self._items.pop(key, None)

    def items(self) -> list[tuple[str, str]]:
        return sorted(self._items.items())

    def render(self, width: int) -> str:
        """The joined line, truncated with an ellipsis to ``width`` characters."""
        line = self._separator.join(t for _, t in self.items())
        if width <= 0:
            return ""
        if len(line) <= width:
            return line
        return line[: max(width - 1, 0)] + "…"


class NoUI:
    """The answers of a mode with no UI (print mode, tests, embedders).

    ``select``/``input``/``editor`` give ``None``, ``confirm`` gives ``False``,
    ``get_editor_text`` gives ``""``; the rest do nothing. Status is still kept
    so that embedders can read it.
    """

    def __init__(self) -> None:
        self.status = StatusLine()
        self.notifications: list[tuple[str, str]] = []

    async def select(self, title: str, options: Sequence[str]) -> str | None:
        return None

    async def confirm(self, title: str, message: str) -> bool:
        return False

    async def input(self, title: str, placeholder: str | None = None) -> str | None:
        return None

    async def editor(self, title: str, prefill: str | None = None) -> str | None:
        return None

    def notify(self, message: str, type: NotifyType = "info") -> None:
        self.notifications.append((type, message))

    def set_status(self, key: str, text: str | None) -> None:
        self.status.set(key, text)

    async def custom(self, factory: Callable[..., Any]) -> Any:
        return None

    def set_editor_text(self, text: str) -> None:
        return None

    def get_editor_text(self) -> str:
        return ""

    @property
    def theme(self) -> dict[str, Any]:
        return {}
