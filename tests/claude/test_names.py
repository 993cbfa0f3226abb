"""Claude's tool vocabulary: names and input keys out, ``updatedInput`` back."""

from __future__ import annotations

from typing import Any

import pytest

from hookline.claude.names import (
    from_claude_input,
    from_claude_tool_name,
    to_claude_input,
    to_claude_tool_name,
)


@pytest.mark.parametrize(
    ("ours", "claude"),
    [
        ("bash", "Bash"),
        ("read", "Read"),
        ("write", "Write"),
        ("edit", "Edit"),
        ("ls", "LS"),
        ("find", "Glob"),
        ("grep", "Grep"),
    ],
)
def test_tool_names_map_both_ways(ours: str, claude: str) -> None:
    assert to_claude_tool_name(ours) == claude
    assert from_claude_tool_name(claude) == ours


@pytest.mark.parametrize("name", ["mcp__github__create_issue", "my_tool", "NotebookEdit"])
def test_unknown_and_mcp_names_pass_through(name: str) -> None:
    assert to_claude_tool_name(name) == name
    assert from_claude_tool_name(name) == name


CASES: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    (
        "read",
        {"path": "a.py", "offset": 3, "limit": 10},
        {"file_path": "a.py", "offset": 3, "limit": 10},
    ),
    ("write", {"path": "a.py", "content": "x"}, {"file_path": "a.py", "content": "x"}),
    (
        "edit",
        {"path": "a.py", "oldText": "a", "newText": "b"},
        {"file_path": "a.py", "old_string": "a", "new_string": "b"},
    ),
    (
        "grep",
        {
            "pattern": "x",
            "path": "src",
            "glob": "*.py",
            "ignoreCase": True,
            "context": 2,
            "limit": 5,
            "literal": True,
        },
        {
            "pattern": "x",
            "path": "src",
            "glob": "*.py",
            "-i": True,
            "-C": 2,
            "head_limit": 5,
            "literal": True,
        },
    ),
    (
        "find",
        {"pattern": "*.py", "path": "src", "limit": 3},
        {"pattern": "*.py", "path": "src", "limit": 3},
    ),
    ("ls", {"path": "src", "limit": 9}, {"path": "src", "limit": 9}),
    ("bash", {"command": "ls", "timeout": 30}, {"command": "ls", "timeout": 30000}),
    ("bash", {"command": "ls", "timeout": 0.5}, {"command": "ls", "timeout": 500}),
    ("mcp__s__t", {"path": "p", "oldText": "q"}, {"path": "p", "oldText": "q"}),
]


@pytest.mark.parametrize(("tool", "ours", "claude"), CASES)
def test_input_keys_and_round_trip(tool: str, ours: dict[str, Any], claude: dict[str, Any]) -> None:
    assert to_claude_input(tool, ours) == claude
    assert from_claude_input(tool, claude) == ours
    assert from_claude_input(tool, to_claude_input(tool, ours)) == ours


def test_updated_input_maps_back_with_unknown_keys_kept() -> None:
    updated = {"file_path": "b.py", "old_string": "x", "new_string": "y", "replace_all": True}
    assert from_claude_input("edit", updated) == {
        "path": "b.py",
        "oldText": "x",
        "newText": "y",
        "replace_all": True,
    }
