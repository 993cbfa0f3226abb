"""The parameter tables of docs/tools.md agree with the built-in tools' parameter models.

Each tool's table lists its parameters in the model's order, with the type of
the generated JSON Schema and "required" exactly where the schema requires it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hookline.authoring import HookHarness
from hookline.core.messages import content_text
from hookline.core.tool_params import parameters_model, tool_json_schema
from hookline.tools import BUILTIN_PARAMS, BUILTIN_TOOL_NAMES, builtin_tools

DOCS = Path(__file__).resolve().parents[2] / "docs"
_ROW = re.compile(r"^\| `(?P<name>[^`]+)` \| (?P<kind>[^|]*?) \|")


def documented(tool: str, text: str | None = None) -> list[tuple[str, str, bool]]:
    """``(name, type, required)`` for each row of ``tool``'s parameter table."""
    if text is None:
        text = (DOCS / "tools.md").read_text(encoding="utf-8")
    section = text.split(f"\n## {tool} ", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        if match := _ROW.match(line):
            kind, _, required = match["kind"].partition(",")
            rows.append((match["name"], kind.strip(), required.strip() == "required"))
    return rows


def from_model(tool: str) -> list[tuple[str, str, bool]]:
    schema = tool_json_schema(BUILTIN_PARAMS[tool])
    return [
        (name, prop["type"], name in schema["required"])
        for name, prop in schema["properties"].items()
    ]


@pytest.mark.parametrize("tool", BUILTIN_TOOL_NAMES)
def test_the_table_is_the_model(tool: str) -> None:
    assert documented(tool) == from_model(tool)


def test_every_built_in_tool_has_a_model_and_uses_it(tmp_path: Path) -> None:
    tools = {
        t.name: parameters_model(t.parameters)
        for t in builtin_tools(str(tmp_path))
        if not isinstance(t.parameters, dict)
    }
    assert tools == BUILTIN_PARAMS


@pytest.mark.parametrize(
    ("row", "wrong"),
    [
        ("| `limit` | integer | most matches", "| `limit` | number | most matches"),
        ("| `pattern` | string, required |", "| `pattern` | string |"),
        ("| `glob` | string |", "| `globs` | string |"),
    ],
)
def test_the_check_sees_a_wrong_table(row: str, wrong: str) -> None:
    """Not vacuous: a table whose type, required mark or name differs is caught."""
    text = (DOCS / "tools.md").read_text(encoding="utf-8")
    section = text.split("\n## grep ", 1)[1].split("\n## ", 1)[0]
    assert row in section
    assert documented("grep", text.replace(row, wrong)) != from_model("grep")


async def test_the_writing_hooks_tool_example_works_as_written(
    hook_harness: HookHarness, tmp_path: Path
) -> None:
    page = (DOCS / "writing-hooks.md").read_text(encoding="utf-8")
    section = page.split("## Adding a tool", 1)[1].split("\n## ", 1)[0]
    [code] = re.findall(r"```python\n(.*?)```", section, re.S)
    hook = tmp_path / "forecast.py"
    hook.write_text(code)
    hook_harness.load(hook)
    tool = hook_harness.runner.get_registered_tools()["forecast"]

    schema = tool_json_schema(tool.parameters)
    assert schema["properties"]["days"] == {
        "type": "integer",
        "minimum": 1,
        "maximum": 7,
        "default": 1,
        "description": "Days ahead",
    }
    good = await hook_harness.run_tool(tool, {"city": "Oslo", "days": 2})
    assert good.result.content == [{"type": "text", "text": "Oslo: sunny for 2 days"}]
    bad = await hook_harness.run_tool(tool, {"city": "Oslo", "days": 9})
    assert bad.result.is_error
    assert content_text(bad.result.content) == (
        "forecast: parameter 'days' must be an integer from 1 to 7, got int 9"
    )
