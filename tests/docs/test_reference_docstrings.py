"""Every event and result class documents itself: the event reference is built from these."""

from __future__ import annotations

import inspect

import pytest

from hookline.core import results
from hookline.core.events import EVENT_TYPES, Event
from hookline.core.results import RESULT_TYPES, HookResult


def _own_doc(cls: type) -> str:
    """The class's own docstring; a dataclass without one gets ``Name(fields)``: not a doc."""
    doc = cls.__dict__.get("__doc__") or ""
    return "" if doc.startswith(f"{cls.__name__}(") else inspect.cleandoc(doc)


def _result_classes() -> list[type[HookResult]]:
    found = [
        obj
        for obj in vars(results).values()
        if inspect.isclass(obj) and issubclass(obj, HookResult) and obj is not HookResult
    ]
    return sorted(found, key=lambda c: c.__name__)


@pytest.mark.parametrize("name", sorted(EVENT_TYPES))
def test_every_event_class_says_when_it_fires_its_payload_result_and_rule(name: str) -> None:
    doc = _own_doc(EVENT_TYPES[name])
    assert doc, f"{EVENT_TYPES[name].__name__} has no docstring"
    for section in ("Payload:", "Result:", "Combination:"):
        assert section in doc, f"{EVENT_TYPES[name].__name__}: no {section!r} section"


@pytest.mark.parametrize("name", sorted(EVENT_TYPES))
def test_the_payload_section_names_every_field(name: str) -> None:
    cls = EVENT_TYPES[name]
    doc = _own_doc(cls)
    payload = doc.split("Payload:", 1)[1].split("Result:", 1)[0]
    fields = [f for f in getattr(cls, "__dataclass_fields__", {}) if f != "type"]
    missing = [f for f in fields if f"``{f}``" not in payload]
    assert missing == [], f"{cls.__name__}: payload fields not documented: {missing}"


@pytest.mark.parametrize("name", sorted(RESULT_TYPES))
def test_an_event_with_a_result_names_its_result_class(name: str) -> None:
    doc = _own_doc(EVENT_TYPES[name])
    assert RESULT_TYPES[name].__name__ in doc


@pytest.mark.parametrize("cls", _result_classes(), ids=lambda c: c.__name__)
def test_every_result_class_has_a_docstring(cls: type[HookResult]) -> None:
    assert _own_doc(cls), f"{cls.__name__} has no docstring"


def test_the_check_sees_a_missing_docstring() -> None:
    """Not vacuous: a dataclass event without a docstring is caught."""
    from dataclasses import dataclass
    from typing import ClassVar

    @dataclass(slots=True, kw_only=True)
    class Undocumented(Event):
        type: ClassVar[str] = "undocumented"
        x: int = 0

    assert _own_doc(Undocumented) == ""
