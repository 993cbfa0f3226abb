"""``EVENT_TYPES``: reading it builds every event class (each family module loads)."""

from __future__ import annotations

import hookline.core.events as _events
from hookline.core.events._base import Event
from hookline.core.events._names import EVENT_CLASS_NAMES

#: Event name → class.
EVENT_TYPES: dict[str, type[Event]] = {
    name: getattr(_events, cls) for name, cls in EVENT_CLASS_NAMES.items()
}
