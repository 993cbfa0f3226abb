"""Every event and result class documents itself, every event field its meaning: the event
reference (``tools.reference``) is built from these."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from hookline.core import results
from hookline.core.events import EVENT_TYPES, Event
from hookline.core.results import HookResult
from tools.reference.comments import field_comments


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
def test_every_event_class_says_when_it_fires(name: str) -> None:
    assert _own_doc(EVENT_TYPES[name]), f"{EVENT_TYPES[name].__name__} has no docstring"


@pytest.mark.parametrize("name", sorted(EVENT_TYPES))
def test_every_field_says_what_it_means(name: str) -> None:
    """A ``#:`` comment above each field: the reference's Meaning column."""
    cls = EVENT_TYPES[name]
    meanings = field_comments(cls)
    missing = [f.name for f in dataclasses.fields(cls) if not meanings.get(f.name)]
    assert missing == [], f"{cls.__name__}: fields with no #: comment: {missing}"


@pytest.mark.parametrize("name", sorted(EVENT_TYPES))
def test_no_event_docstring_restates_its_rule_or_payload(name: str) -> None:
    """The rule is the rule's docstring and the payload the fields': prose here would drift."""
    doc = _own_doc(EVENT_TYPES[name])
    for section in ("Payload:", "Combination:"):
        assert section not in doc, f"{EVENT_TYPES[name].__name__}: {section!r} in its docstring"


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
