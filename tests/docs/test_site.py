"""The docs: every relative link and anchor resolves, every page is in the site's nav, the tools
page names every parameter and detail (the event reference: test_event_reference.py)."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from typing import Any

import pytest
import yaml

from hookline.core.tool_params import tool_json_schema
from hookline.tools import builtin_tools, details

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.rglob("*.md"))
MARKDOWN = [*PAGES, ROOT / "README.md", *sorted((ROOT / "examples").rglob("*.md"))]
_LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
_FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)


def _slug(heading: str) -> str:
    """The anchor MkDocs (and GitHub, for these headings) gives a heading."""
    text = re.sub(r"`|\*\*|\*", "", heading).strip().lower()
    text = unicodedata.normalize("NFKD", text)
    text = re.sub(r"[^\w\s-]", "", text)
    return re.sub(r"[\s]+", "-", text).strip("-")


def _anchors(path: Path) -> set[str]:
    text = _FENCE.sub("", path.read_text(encoding="utf-8"))
    return {_slug(m.group(1)) for m in re.finditer(r"^#{1,6}\s+(.+)$", text, re.M)}


def _links(path: Path) -> list[str]:
    return _LINK.findall(_FENCE.sub("", path.read_text(encoding="utf-8")))


def _broken(path: Path) -> list[str]:
    problems = []
    for target in _links(path):
        if re.match(r"^[a-z]+:", target):
            continue  # http(s), mailto: not checked (no network in tests)
        file_part, _, anchor = target.partition("#")
        dest = path if not file_part else (path.parent / file_part).resolve()
        if not dest.exists():
            problems.append(f"{path.name}: {target}: no such file")
        elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest):
            problems.append(f"{path.name}: {target}: no such anchor")
    return problems


@pytest.mark.parametrize("page", MARKDOWN, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_and_anchors_resolve(page: Path) -> None:
    assert _broken(page) == []


def test_the_link_check_sees_a_broken_link_and_anchor(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("# Title\n\n## Some `code` heading\n")
    page = tmp_path / "b.md"
    page.write_text(
        "[ok](a.md#some-code-heading) [bad](a.md#nope) [gone](c.md) [web](https://x.invalid)\n"
        "```\n[in a fence](ignored.md)\n```\n"
    )
    assert _broken(page) == ["b.md: a.md#nope: no such anchor", "b.md: c.md: no such file"]


def _nav_pages(entries: list[Any]) -> set[str]:
    """The page of every nav entry, sections opened."""
    found: set[str] = set()
    for item in entries:
        value = next(iter(item.values())) if isinstance(item, dict) else item
        found |= _nav_pages(value) if isinstance(value, list) else {value}
    return found


def test_every_page_is_in_the_nav_and_every_nav_entry_exists() -> None:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text())
    assert _nav_pages(config["nav"]) == {p.relative_to(DOCS).as_posix() for p in PAGES}


def test_the_tools_page_names_every_parameter_and_detail(tmp_path: Path) -> None:
    text = (DOCS / "tools.md").read_text()
    kinds = {
        "bash": details.BashToolDetails,
        "read": details.ReadToolDetails,
        "write": details.WriteToolDetails,
        "edit": details.EditToolDetails,
        "grep": details.GrepToolDetails,
        "find": details.FindToolDetails,
        "ls": details.LsToolDetails,
    }
    for tool in builtin_tools(str(tmp_path)):
        section = text.split(f"## {tool.name} ", 1)[1].split("\n## ", 1)[0]
        for param in tool_json_schema(tool.parameters)["properties"]:
            assert f"`{param}`" in section, f"{tool.name}: parameter {param} undocumented"
        for key in kinds[tool.name].__annotations__:
            assert f"`{key}`" in section, f"{tool.name}: details.{key} undocumented"
