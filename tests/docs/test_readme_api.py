"""The README's table of the extension API names only what exists: each method, event,
function and keyword its examples use is looked up in the code."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

import hookline
import hookline.components
from hookline.core.api import HookAPI
from hookline.core.events._names import EVENT_NAMES
from hookline.core.store import StoreScope
from hookline.core.ui import HookUI

README = Path(__file__).resolve().parents[2] / "README.md"


def _rows() -> list[str]:
    text = README.read_text(encoding="utf-8")
    table = text.split("| API | one example |", 1)[1].split("\n\n", 1)[0]
    return [line for line in table.splitlines()[2:] if line.startswith("|")]


ROWS = _rows()


def _function(name: str) -> object:
    for module in (hookline, hookline.components):
        if hasattr(module, name):
            return getattr(module, name)
    raise AssertionError(f"{name} is not importable from hookline or hookline.components")


def _top_level_keywords(arguments: str) -> list[str]:
    """The ``name=`` keywords of a call whose arguments start ``arguments`` (up to its
    closing parenthesis), not those of calls nested in it."""
    found, depth, word = [], 0, ""
    for i, char in enumerate(arguments):
        if char in "([{":
            depth += 1
        elif char in ")]}":
            if depth == 0:
                break
            depth -= 1
        if char.isidentifier() or (word and char.isdigit()):
            word += char
            continue
        if char == "=" and depth == 0 and word and arguments[i + 1 : i + 2] != "=":
            found.append(word)
        word = ""
    return found


def test_the_table_has_a_row_per_part_of_the_api() -> None:
    assert len(ROWS) >= 14


@pytest.mark.parametrize("row", ROWS, ids=[row.split("|")[1].strip() for row in ROWS])
def test_each_example_uses_names_that_exist(row: str) -> None:
    example = row.split("|", 2)[2]
    for name in re.findall(r"\bpi\.(\w+)\(", example):
        assert callable(getattr(HookAPI, name, None)), f"HookAPI.{name}"
    for name in re.findall(r"ctx\.ui\.(\w+)", example):
        assert hasattr(HookUI, name), f"ctx.ui.{name}"
    for name in re.findall(r"ctx\.store\.(?:session|project)\.(\w+)", example):
        assert callable(getattr(StoreScope, name, None)), f"ctx.store scopes' {name}"
    for name in re.findall(r'pi\.on\("(\w+)"\)', example):
        assert name in EVENT_NAMES, f"event {name}"
    for call, target in (
        ("create_bash_tool(", _function("create_bash_tool")),
        ("editor(", HookUI.editor),
    ):
        if call in example:
            params = inspect.signature(target).parameters  # type: ignore[arg-type]
            for keyword in _top_level_keywords(example.split(call, 1)[1]):
                assert keyword in params, f"{call}{keyword}=...)"
    for name in re.findall(r"\b(Key|matches_key|create_bash_tool)\b", example):
        _function(name)
