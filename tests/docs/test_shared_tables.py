"""The docs hold the reference tables; a table the README keeps must say the same, cell for cell.

The README is a front page and ``docs/`` the manual (its pages stand alone);
the README repeats the tables a newcomer needs first. Each pair below is
compared, so neither copy can drift, and a README section listed here that
loses its table fails too. (The event reference's tables are generated from the
code: tests/docs/test_event_reference.py.)
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"

#: README section → the docs page and section holding the same tables, in the same order.
SHARED: dict[str, tuple[str, str]] = {
    "## Architecture": ("architecture.md", "# Architecture"),
}


def _unfenced(text: str) -> list[str]:
    """The lines outside code fences (a ``# comment`` in a code block is no heading)."""
    lines, fenced = [], False
    for line in text.splitlines():
        if line.startswith(("```", "~~~")):
            fenced = not fenced
            continue
        lines.append("" if fenced else line)
    return lines


def section_tables(text: str, heading: str) -> list[list[str]]:
    """The tables (rows as text) of the section ``heading`` opens, up to a heading of its level
    or above; ``AssertionError`` when there is no such heading."""
    lines = _unfenced(text)
    assert heading in lines, f"no heading {heading!r}"
    level = len(heading) - len(heading.lstrip("#"))
    tables: list[list[str]] = []
    current: list[str] = []
    for line in lines[lines.index(heading) + 1 :]:
        match = re.match(r"^(#+)\s", line)
        if match and len(match.group(1)) <= level:
            break
        if line.startswith("|"):
            current.append(line.rstrip())
        elif current:
            tables.append(current)
            current = []
    return [*tables, current] if current else tables


def _tables_before_subsections(text: str, heading: str) -> list[list[str]]:
    """The tables of ``heading``'s section up to the next heading of any level: a docs
    page's top section (``# Title``) would otherwise run to the end of the page."""
    lines = _unfenced(text)
    assert heading in lines, f"no heading {heading!r}"
    start = lines.index(heading) + 1
    end = next((i for i in range(start, len(lines)) if re.match(r"^#+\s", lines[i])), len(lines))
    return section_tables("\n".join([heading, *lines[start:end]]), heading)


def shared_table_problems(readme: str, docs: dict[str, str]) -> list[str]:
    """What differs between the README's shared tables and the docs' copies."""
    problems = []
    for readme_heading, (page, docs_heading) in SHARED.items():
        ours = section_tables(readme, readme_heading)
        theirs = _tables_before_subsections(docs[page], docs_heading)
        if not ours:
            problems.append(f"README {readme_heading!r} has no table")
        elif ours != theirs:
            problems.append(f"README {readme_heading!r} and docs/{page} {docs_heading!r} differ")
    return problems


def test_the_readme_tables_are_the_docs_tables() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    docs = {page: (DOCS / page).read_text(encoding="utf-8") for page, _ in SHARED.values()}
    assert shared_table_problems(readme, docs) == []


def test_the_readme_check_sees_a_changed_cell_and_a_lost_table() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    docs = {page: (DOCS / page).read_text(encoding="utf-8") for page, _ in SHARED.values()}
    [table] = section_tables(readme, "## Architecture")
    changed = readme.replace(table[-1], table[-1].replace("|", "| x", 2), 1)
    assert shared_table_problems(changed, docs) == [
        "README '## Architecture' and docs/architecture.md '# Architecture' differ"
    ]
    lost = readme.replace("\n".join(table), "", 1)
    assert shared_table_problems(lost, docs) == ["README '## Architecture' has no table"]


def test_the_comparison_sees_a_changed_cell_and_ignores_code_blocks() -> None:
    page = (
        "# A\n\n```\n# not a heading\n| x |\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n# B\n| c |\n"
    )
    assert section_tables(page, "# A") == [["| a | b |", "|---|---|", "| 1 | 2 |"]]
    changed = page.replace("| 1 | 2 |", "| 1 | 3 |")
    assert section_tables(changed, "# A") != section_tables(page, "# A")
    assert section_tables(page, "# B") == [["| c |"]]
    with pytest.raises(AssertionError, match="no heading"):
        section_tables(page, "## C")


def test_the_embedding_page_documents_every_event_serve_answers() -> None:
    from hookline.modes.serve_stdio import _EVENTS

    text = (DOCS / "embedding.md").read_text(encoding="utf-8")
    heading = "## Out of process"
    [table] = section_tables(text, heading)
    documented = [re.findall(r"`(\w+)`", row.split("|")[1])[0] for row in table[2:]]
    assert documented == list(_EVENTS)
