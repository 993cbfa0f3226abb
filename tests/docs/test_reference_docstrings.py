"""Every event and result class documents itself, every event field its meaning: the event
reference (``tools.reference``) is built from these; every public method of the API
reference's objects has a docstring and an example."""

from __future__ import annotations

import dataclasses
import inspect
import re
from pathlib import Path

import pytest
from pydantic import BaseModel

from hookline.core import results
from hookline.core.api import HookAPI
from hookline.core.context import CommandContext, HookContext
from hookline.core.events import EVENT_TYPES, Event
from hookline.core.results import HookResult
from hookline.core.ui import HookUI
from hookline.shell.model import ParsedCommandLine, Redirection, ShellParseError, SimpleCommand
from hookline.shell.parse import parse_command
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


# -- the API reference (docs/api.md) ----------------------------------------------------------

#: The objects the API reference documents, by the path its ``:::`` block names.
API_OBJECTS: dict[str, object] = {
    "hookline.core.api.HookAPI": HookAPI,
    "hookline.core.context.HookContext": HookContext,
    "hookline.core.context.CommandContext": CommandContext,
    "hookline.core.ui.HookUI": HookUI,
    "hookline.core.results.HookResult": HookResult,
    "hookline.shell.parse.parse_command": parse_command,
    "hookline.shell.model.ParsedCommandLine": ParsedCommandLine,
    "hookline.shell.model.SimpleCommand": SimpleCommand,
    "hookline.shell.model.Redirection": Redirection,
    "hookline.shell.model.ShellParseError": ShellParseError,
}
API_PAGE = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def _public_members(obj: object) -> list[str]:
    """The methods and properties a class defines itself (pydantic's own API aside)."""
    if not inspect.isclass(obj):
        return []
    inherited = set(dir(BaseModel)) if issubclass(obj, BaseModel) else set()
    return [
        name
        for name, value in vars(obj).items()
        if not name.startswith("_")
        and name not in inherited
        and (inspect.isfunction(value) or isinstance(value, property))
    ]


def _has_example(doc: str) -> bool:
    """An ``Example:`` paragraph followed by indented code (what the site shows as code)."""
    return re.search(r"^Example:\n\n    \S", inspect.cleandoc(doc), re.M) is not None


def _member_doc(obj: object, name: str) -> str:
    value = vars(obj)[name]
    target = value.fget if isinstance(value, property) else value
    return inspect.getdoc(target) or ""


API_MEMBERS = [(path, name) for path, obj in API_OBJECTS.items() for name in _public_members(obj)]


@pytest.mark.parametrize("path", sorted(API_OBJECTS))
def test_every_api_object_says_what_it_is_with_an_example(path: str) -> None:
    doc = inspect.getdoc(API_OBJECTS[path]) or ""
    assert doc, f"{path} has no docstring"
    assert _has_example(doc), f"{path}: no example"


@pytest.mark.parametrize(("path", "name"), API_MEMBERS, ids=[f"{p}.{n}" for p, n in API_MEMBERS])
def test_every_public_method_has_a_docstring_and_an_example(path: str, name: str) -> None:
    doc = _member_doc(API_OBJECTS[path], name)
    assert doc, f"{path}.{name} has no docstring"
    assert _has_example(doc), f"{path}.{name}: no example"


def test_the_api_page_renders_each_object_and_lists_each_member() -> None:
    text = API_PAGE.read_text(encoding="utf-8")
    blocks = dict(re.findall(r"^::: (\S+)\n((?:    .*\n)*)", text, re.M))
    for path, obj in API_OBJECTS.items():
        assert path in blocks, f"docs/api.md does not render {path}"
        listed = set(re.findall(r"^        - \"?(\w+)\"?$", blocks[path], re.M))
        missing = sorted(set(_public_members(obj)) - listed)
        assert missing == [], f"docs/api.md: {path} does not list {missing}"


def test_the_example_check_sees_a_missing_example() -> None:
    """Not vacuous: prose that mentions an example is not one."""

    class Documented:
        def run(self) -> None:
            """Does things; for an example see elsewhere."""

        def shown(self) -> None:
            """Does things.

            Example:

                Documented().shown()
            """

    assert _public_members(Documented) == ["run", "shown"]
    assert not _has_example(_member_doc(Documented, "run"))
    assert _has_example(_member_doc(Documented, "shown"))
