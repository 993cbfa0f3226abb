"""What the reference says of one subscribe name, read from where each fact lives."""

from __future__ import annotations

import dataclasses
import inspect
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from hookline.core import rules
from hookline.core.calling import DirectRule
from hookline.core.events import EVENT_TYPES, Event
from hookline.core.events._names import EVENT_CLASS_NAMES
from hookline.core.results import RESULT_TYPES, HookResult
from hookline.core.vocabulary import HOOKLINE_EVENT_NAMES
from tools.reference.comments import field_comments

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "events"

#: A family module of ``hookline.core.events`` → its page (file stem) and title.
FAMILIES: dict[str, tuple[str, str]] = {
    "hookline.core.events._tools": ("tool", "Tool events"),
    "hookline.core.events._run": ("run", "Run events"),
    "hookline.core.events._model": ("model", "Message and provider events"),
    "hookline.core.events._claude": ("claude", "Stop, sub-agent and notification events"),
    "hookline.core.events._session": ("session", "Session events"),
}

#: What every rule that calls its handlers through ``HandlerCalls.guarded`` does with a
#: failing one (``rules.RULES``); the direct rules and ``NOTIFY`` say it themselves.
GUARDED = (
    "A handler that raises, returns something invalid or misses its deadline is reported; "
    "the chain goes on without its result."
)


@dataclass(frozen=True, slots=True)
class Field:
    name: str
    type: str
    meaning: str


@dataclass(frozen=True, slots=True)
class ResultKey:
    name: str
    alias: str
    type: str
    meaning: str


@dataclass(frozen=True, slots=True)
class Rule:
    name: str
    text: str


@dataclass(frozen=True, slots=True)
class EventFacts:
    """One subscribe name: its class, Claude names, fields, result, rule and example."""

    name: str
    cls: type[Event]
    family: str
    claude: tuple[str, ...]
    fields: tuple[Field, ...]
    result: type[HookResult] | None
    rule: Rule
    example: Path

    @property
    def doc(self) -> str:
        return inspect.cleandoc(self.cls.__dict__.get("__doc__") or "")


def first_paragraph(doc: str | None) -> str:
    return " ".join(inspect.cleandoc(doc or "").split("\n\n", 1)[0].split())


def example_path(name: str) -> Path:
    """``session.compacting`` → ``examples/events/session_compacting.py``."""
    return EXAMPLES / f"{name.replace('.', '_')}.py"


def event_fields(cls: type[Event]) -> tuple[Field, ...]:
    meanings = field_comments(cls)
    return tuple(
        Field(f.name, str(f.type), meanings.get(f.name, "")) for f in dataclasses.fields(cls)
    )


def nested_fields(cls: type[Event]) -> list[type]:
    """The dataclasses of the events package a field of ``cls`` holds (``preparation``)."""
    module = sys.modules[cls.__module__]
    found: list[type] = []
    for f in dataclasses.fields(cls):
        for word in re.findall(r"\w+", str(f.type)):
            other = getattr(module, word, None)
            if (
                isinstance(other, type)
                and dataclasses.is_dataclass(other)
                and not issubclass(other, Event)
                and other not in found
            ):
                found.append(other)
    return found


def record_fields(cls: type) -> tuple[Field, ...]:
    """A plain dataclass's fields, typed and explained as an event's are."""
    meanings = field_comments(cls)
    return tuple(
        Field(f.name, str(f.type), meanings.get(f.name, "")) for f in dataclasses.fields(cls)
    )


def result_keys(cls: type[HookResult]) -> tuple[ResultKey, ...]:
    """Every key a handler may return (own fields first, in declaration order)."""
    meanings = field_comments(cls)
    types = inspect.get_annotations(cls)
    return tuple(
        ResultKey(name, info.alias or name, str(types[name]), meanings.get(name, ""))
        for name, info in cls.model_fields.items()
    )


def nested_results(cls: type[HookResult]) -> list[type[HookResult]]:
    """Result classes a key of ``cls`` holds (``compaction`` → ``CompactionResult``)."""
    module = sys.modules[cls.__module__]
    found: list[type[HookResult]] = []
    for key in result_keys(cls):
        for word in re.findall(r"\w+", key.type):
            other = getattr(module, word, None)
            if (
                isinstance(other, type)
                and issubclass(other, HookResult)
                and other is not cls
                and other not in found
            ):
                found.append(other)
    return found


def rule_of(name: str) -> Rule:
    """The rule ``HookRunner.emit`` applies to ``name``, described by its own docstring."""
    rule = rules.RULE_OF.get(name, rules.NOTIFY)
    fn = rule.run if isinstance(rule, DirectRule) else rule
    text = first_paragraph(fn.__doc__)
    if name in rules.RULES:
        text = f"{text} {GUARDED}"
    return Rule(fn.__name__.lstrip("_"), text)


def claude_names(name: str) -> tuple[str, ...]:
    return tuple(claude for claude, ours in HOOKLINE_EVENT_NAMES.items() if ours == name)


def all_events() -> list[EventFacts]:
    """Every name ``pi.on`` accepts, in the registry's order."""
    out = []
    for name in EVENT_CLASS_NAMES:
        cls = EVENT_TYPES[name]
        out.append(
            EventFacts(
                name=name,
                cls=cls,
                family=cls.__module__,
                claude=claude_names(name),
                fields=event_fields(cls),
                result=RESULT_TYPES.get(name),
                rule=rule_of(name),
                example=example_path(name),
            )
        )
    return out
