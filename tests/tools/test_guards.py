"""Type guards narrow tool_result events by tool name (a hook reads typed details)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hookline.core.api import HookAPI, LoadedHook
from hookline.core.context import HookContext
from hookline.core.events import ToolResultEvent
from hookline.core.runner import HookRunner
from hookline.core.wrapping import wrap_tool
from hookline.tools import (
    create_bash_tool,
    is_bash_tool_result,
    is_edit_tool_result,
    is_find_tool_result,
    is_grep_tool_result,
    is_ls_tool_result,
    is_read_tool_result,
    is_write_tool_result,
)

GUARDS: dict[str, Callable[[ToolResultEvent], bool]] = {
    "bash": is_bash_tool_result,
    "read": is_read_tool_result,
    "edit": is_edit_tool_result,
    "write": is_write_tool_result,
    "grep": is_grep_tool_result,
    "find": is_find_tool_result,
    "ls": is_ls_tool_result,
}


def event(name: str) -> ToolResultEvent:
    return ToolResultEvent(tool_name=name, tool_call_id="c", input={}, content=[])


@pytest.mark.parametrize("name", sorted(GUARDS))
def test_each_guard_matches_only_its_tool(name: str) -> None:
    for tool, guard in GUARDS.items():
        assert guard(event(name)) is (tool == name)
    assert not GUARDS[name](event("custom"))


async def test_hook_reads_full_output_path_through_the_guard(project: Path) -> None:
    paths: list[str] = []

    def on_result(ev: ToolResultEvent, ctx: HookContext) -> None:
        if is_bash_tool_result(ev) and ev.details and "truncation" in ev.details:
            assert ev.details["truncation"]["truncated"] is True
            paths.append(ev.details.get("full_output_path", ""))

    hook = LoadedHook(path="guard.py")
    api = HookAPI(hook)
    api.on("tool_result", on_result)
    runner = HookRunner(cwd=str(project))
    runner.add_hook(hook, api)
    tool = wrap_tool(create_bash_tool(str(project)), runner)
    await tool.execute("c", {"command": "seq 1 3000"}, None, None)
    assert len(paths) == 1 and Path(paths[0]).read_text().count("\n") == 3000
    os.unlink(paths[0])


def test_guard_on_a_plain_event_is_harmless() -> None:
    details: Any = {"exit_code": 0}
    ev = ToolResultEvent(tool_name="bash", tool_call_id="c", input={}, content=[], details=details)
    assert is_bash_tool_result(ev) and ev.details == {"exit_code": 0}
