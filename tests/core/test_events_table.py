"""The event table: every event class is reachable by its name, and only by it.

The classes live in family modules that load on first use; ``EVENT_NAMES`` is
known without them. A class left out of the table would be unreachable, a
name pointing to the wrong class would build the wrong event.
"""

from __future__ import annotations

import importlib
import pkgutil

import hookline.core.events as events
from hookline.core.events import EVENT_NAMES, EVENT_TYPES, Event


def _defined_event_classes() -> set[type[Event]]:
    found: set[type[Event]] = set()
    for info in pkgutil.iter_modules(events.__path__):
        module = importlib.import_module(f"{events.__name__}.{info.name}")
        found |= {
            value
            for value in vars(module).values()
            if isinstance(value, type)
            and issubclass(value, Event)
            and value is not Event
            and value.__module__ == module.__name__
        }
    return found


def test_every_event_class_defined_is_in_the_table_under_its_own_name() -> None:
    assert set(EVENT_TYPES.values()) == _defined_event_classes()
    assert {name: cls.type for name, cls in EVENT_TYPES.items()} == {n: n for n in EVENT_TYPES}
    assert frozenset(EVENT_TYPES) == EVENT_NAMES


def test_a_family_loads_on_first_use_and_is_the_same_class_after() -> None:
    first = events.ToolCallEvent
    from hookline.core.events._tools import ToolCallEvent

    assert first is ToolCallEvent is EVENT_TYPES["tool_call"]
