"""The event reference (docs/events/) is what the code says: every subscribe name, its Claude
Code name, fields, result keys, combination rule and example; every Claude Code event, what
hookline does with its answer and its example; each read from where it lives."""

from __future__ import annotations

import dataclasses
import re

import pytest

from hookline.claude.adapter import UNBOUND_EVENTS
from hookline.claude.names import NEVER_FIRES
from hookline.core import rules
from hookline.core.calling import DirectRule
from hookline.core.events import EVENT_NAMES, EVENT_TYPES
from hookline.core.results import RESULT_TYPES
from hookline.core.vocabulary import HOOKLINE_EVENT_NAMES
from hookline.settings.models import CLAUDE_EVENTS
from tools.reference.build import DOCS, stale
from tools.reference.claude_events import behaviour, firing, settings_example
from tools.reference.claude_render import output_keys
from tools.reference.facts import example_path, first_paragraph, nested_fields
from tools.reference.render import markdown

PAGES = sorted((DOCS / "events").glob("*.md"))


def _sections() -> dict[str, list[str]]:
    """Subscribe name → the text of each section headed with it, over every family page."""
    found: dict[str, list[str]] = {}
    for page in PAGES:
        if page.name in ("index.md", "settings.md"):
            continue
        for part in re.split(r"^## ", page.read_text(encoding="utf-8"), flags=re.M)[1:]:
            heading, _, body = part.partition("\n")
            found.setdefault(heading.strip().strip("`"), []).append(body)
    return found


SECTIONS = _sections()


def _section(name: str) -> str:
    assert len(SECTIONS.get(name, [])) == 1, f"{name}: {len(SECTIONS.get(name, []))} sections"
    return SECTIONS[name][0]


def _rows(section: str) -> dict[str, str]:
    """First cell (the backquoted name, camelCase alias dropped) → the whole row."""
    rows = {}
    for line in section.splitlines():
        match = re.match(r"\| `([\w.]+)`", line)
        if match:
            rows.setdefault(match.group(1), line)
    return rows


def _cells(row: str) -> list[str]:
    """A table row's cells: split on the pipes outside backquotes and not escaped."""
    cells, current, code = [], "", False
    for i, char in enumerate(row.strip().strip("|")):
        if char == "`":
            code = not code
        if char == "|" and not code and row.strip().strip("|")[i - 1 : i] != "\\":
            cells.append(current.strip())
            current = ""
        else:
            current += char
    return [*cells, current.strip()]


def _first_table(text: str) -> str:
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    end = next((i for i in range(start, len(lines)) if not lines[i].startswith("|")), len(lines))
    return "\n".join(lines[start:end])


def test_the_committed_pages_are_what_the_code_builds() -> None:
    assert stale() == [], "the event reference is stale: run python -m tools.reference"


def test_every_subscribe_name_has_one_section_and_nothing_else_has() -> None:
    assert sorted(SECTIONS) == sorted(EVENT_NAMES)
    index = (DOCS / "events" / "index.md").read_text(encoding="utf-8")
    names = index.split("## Every subscribe name", 1)[1].split("\n## ", 1)[0]
    assert sorted(re.findall(r"^\| \[`([\w.]+)`\]", names, re.M)) == sorted(EVENT_NAMES)
    rules_table = index.split("## How several handlers combine", 1)[1].split("\n## ", 1)[0]
    combined = re.findall(r"\[`([\w.]+)`\]", rules_table)
    assert sorted(combined) == sorted(EVENT_NAMES), "each event in exactly one rule's row"


@pytest.mark.parametrize("name", sorted(EVENT_NAMES))
def test_the_section_names_the_claude_event_it_maps_to(name: str) -> None:
    line = next(x for x in _section(name).splitlines() if x.startswith("Claude Code:"))
    claude = sorted(c for c, ours in HOOKLINE_EVENT_NAMES.items() if ours == name)
    assert sorted(re.findall(r"`(\w+)`", line.split("·")[0])) == claude
    assert f"class `{EVENT_TYPES[name].__name__}`" in line


@pytest.mark.parametrize("name", sorted(EVENT_NAMES))
def test_the_section_gives_every_field_its_type_and_meaning(name: str) -> None:
    fields = dataclasses.fields(EVENT_TYPES[name])
    if not fields:
        assert "**Fields**: none." in _section(name)
        return
    rows = _rows(_first_table(_section(name).split("**Fields**", 1)[1]))
    assert sorted(rows) == sorted(f.name for f in fields)
    for f in fields:
        cells = _cells(rows[f.name])
        assert cells[1] == f"`{f.type}`", f"{f.name}: type {cells[1]}"
        assert cells[2], f"{name}.{f.name} has no meaning: add a #: comment above the field"


@pytest.mark.parametrize("name", sorted(EVENT_NAMES))
def test_the_section_explains_the_records_its_fields_hold(name: str) -> None:
    """``preparation``'s ``CompactionPreparation``: a table of its own, every field explained."""
    fields_part = _section(name).split("**Result**")[0]
    for record in nested_fields(EVENT_TYPES[name]):
        table = _first_table(fields_part.split(f"`{record.__name__}`: ", 1)[1])
        rows = _rows(table)
        assert sorted(rows) == sorted(f.name for f in dataclasses.fields(record))
        for f in dataclasses.fields(record):
            cells = _cells(rows[f.name])
            assert cells[2], f"{record.__name__}.{f.name} has no meaning: add a #: comment"


@pytest.mark.parametrize("name", sorted(EVENT_NAMES))
def test_the_section_lists_every_result_key(name: str) -> None:
    section = _section(name)
    result = section.split("**Result**", 1)[1].split("**Several handlers**", 1)[0]
    cls = RESULT_TYPES.get(name)
    if cls is None:
        assert "none (a notification" in result
        return
    assert result.startswith(f": `{cls.__name__}`.")
    table = _first_table(result)  # the result's own keys, before any nested result's
    assert sorted(_rows(table)) == sorted(cls.model_fields)
    for key, info in cls.model_fields.items():
        if info.alias and info.alias != key:
            assert f"`{key}` (`{info.alias}`)" in table


def _rule_text(name: str) -> str:
    rule = rules.RULE_OF.get(name, rules.NOTIFY)
    fn = rule.run if isinstance(rule, DirectRule) else rule
    return markdown(first_paragraph(fn.__doc__))


@pytest.mark.parametrize("name", sorted(EVENT_NAMES))
def test_the_section_states_the_rule_the_runner_applies(name: str) -> None:
    line = next(x for x in _section(name).splitlines() if x.startswith("**Several handlers**"))
    assert _rule_text(name) in line


@pytest.mark.parametrize(
    "rule", [rules.NOTIFY, *rules.RULE_OF.values()], ids=lambda r: getattr(r, "__name__", "")
)
def test_every_rule_describes_itself(rule: object) -> None:
    fn = rule.run if isinstance(rule, DirectRule) else rule
    assert first_paragraph(getattr(fn, "__doc__", None)), f"{fn} has no docstring"


@pytest.mark.parametrize("name", sorted(EVENT_NAMES))
def test_the_section_shows_its_example_whole(name: str) -> None:
    assert example_path(name).read_text(encoding="utf-8").rstrip("\n") in _section(name)


# -- settings hooks by Claude Code event ------------------------------------------------

SETTINGS_PAGE = (DOCS / "events" / "settings.md").read_text(encoding="utf-8")


def _claude_sections() -> dict[str, str]:
    parts = re.split(r"^## ", SETTINGS_PAGE, flags=re.M)[1:]
    return {
        head.strip().strip("`"): body
        for head, _, body in (p.partition("\n") for p in parts)
        if head.startswith("`")
    }


def test_every_claude_event_has_a_section_or_says_why_it_never_fires() -> None:
    assert sorted(_claude_sections()) == sorted(firing())
    never = SETTINGS_PAGE.split("## Events that never fire in hookline", 1)[1]
    listed = re.findall(r"^\| `(\w+)` \|", never, re.M)
    assert sorted(listed) == sorted([*NEVER_FIRES, *UNBOUND_EVENTS])
    assert sorted([*firing(), *listed]) == sorted(CLAUDE_EVENTS)


@pytest.mark.parametrize("event", firing())
def test_the_claude_section_says_what_hookline_does_with_the_answer(event: str) -> None:
    said = behaviour(event)
    assert said, f"{event}: no ``{event}``: paragraph in its adapter handler's docstring"
    assert markdown(said) in _claude_sections()[event]


@pytest.mark.parametrize("event", firing())
def test_the_claude_section_shows_its_example_whole(event: str) -> None:
    example = settings_example(event).read_text(encoding="utf-8").rstrip("\n")
    assert example in _claude_sections()[event]


def test_the_output_keys_are_those_the_outcome_reader_takes() -> None:
    keys = output_keys()
    for key in ("continue", "decision", "reason", "systemMessage"):
        assert key in keys["obj"]
    for key in ("permissionDecision", "updatedInput", "additionalContext", "retry"):
        assert key in keys["spec"]
    assert "behavior" in keys["decision"]
