"""Tool wrapping: tool_call blocks and rewrites, tool_result overrides, errors, hook tools."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hookline.core.api import HookAPI
from hookline.core.context import HookContext
from hookline.core.events import ToolCallEvent, ToolResultEvent
from hookline.core.messages import content_text, text
from hookline.core.runner import HookRunner
from hookline.core.tool import Tool, ToolBlockedError, ToolError, ToolResult, ToolUpdate
from hookline.core.wrapping import resolve_tools, wrap_tool, wrap_tools
from hookline.tools import (
    BashSpawnContext,
    builtin_tools,
    create_bash_tool,
    create_write_tool,
    hooked_tools,
)

MakeRunner = Callable[..., HookRunner]


def touch_tool(marker: Path, name: str = "touch") -> Tool:
    """A tool whose only effect is a file: proof of whether it ran, and with what."""

    async def execute(
        call_id: str,
        params: dict[str, Any],
        signal: asyncio.Event | None = None,
        on_update: ToolUpdate | None = None,
    ) -> ToolResult:
        marker.write_text(repr(params))
        return ToolResult([text("touched")], {"n": 1})

    return Tool(name, "touch a file", {"type": "object", "properties": {}}, execute)


def failing_tool(exc: Exception) -> Tool:
    async def execute(
        call_id: str,
        params: dict[str, Any],
        signal: asyncio.Event | None = None,
        on_update: ToolUpdate | None = None,
    ) -> ToolResult:
        raise exc

    return Tool("fails", "always fails", {"type": "object"}, execute)


def on(event: str, handler: Any) -> Any:
    """A hook set-up subscribing ``handler`` to ``event``."""
    return lambda api: api.on(event, handler)


def record(into: list[Any], value: Any = None) -> Any:
    def handler(event: Any, ctx: HookContext) -> Any:
        into.append(event)
        return value

    return handler


# --- no handlers ----------------------------------------------------------------


async def test_without_handlers_no_event_is_built(project: Path, make_runner: MakeRunner) -> None:
    runner = make_runner()

    async def boom(event: Any) -> None:
        raise AssertionError("no event expected")

    runner.emit_tool_call = boom  # type: ignore[method-assign]
    runner.emit_tool_result = boom  # type: ignore[method-assign]
    tool = wrap_tool(touch_tool(project / "m"), runner)
    result = await tool.execute("c", {"a": 1}, None, None)
    assert content_text(result.content) == "touched" and result.details == {"n": 1}
    assert (tool.name, tool.description) == ("touch", "touch a file")


# --- tool_call --------------------------------------------------------------------


async def test_block_raises_with_reason_and_tool_never_runs(
    project: Path, make_runner: MakeRunner
) -> None:
    runner = make_runner(on("tool_call", lambda e, c: {"block": True, "reason": "no touching"}))
    tool = wrap_tool(touch_tool(project / "m"), runner)
    with pytest.raises(ToolBlockedError, match=r"^no touching$"):
        await tool.execute("c", {}, None, None)
    assert not (project / "m").exists()


async def test_block_without_reason_has_a_default(project: Path, make_runner: MakeRunner) -> None:
    runner = make_runner(on("tool_call", lambda e, c: {"block": True}))
    tool = wrap_tool(touch_tool(project / "m"), runner)
    with pytest.raises(ToolBlockedError, match=r"^blocked by hook$"):
        await tool.execute("c", {}, None, None)


async def test_raising_tool_call_handler_blocks(project: Path, make_runner: MakeRunner) -> None:
    async def broken(event: ToolCallEvent, ctx: HookContext) -> None:
        raise RuntimeError("hook bug")

    seen: list[ToolResultEvent] = []
    runner = make_runner(on("tool_call", broken), on("tool_result", record(seen)))
    tool = wrap_tool(touch_tool(project / "m"), runner)
    with pytest.raises(ToolBlockedError, match=r"hook0.py failed \(RuntimeError: hook bug\)"):
        await tool.execute("c", {}, None, None)
    assert not (project / "m").exists()
    assert seen == []  # a blocked call has no result


async def test_invalid_tool_call_result_blocks(project: Path, make_runner: MakeRunner) -> None:
    runner = make_runner(on("tool_call", lambda e, c: {"blok": True}))
    tool = wrap_tool(touch_tool(project / "m"), runner)
    with pytest.raises(ToolBlockedError, match="unknown result key 'blok' for tool_call"):
        await tool.execute("c", {}, None, None)
    assert not (project / "m").exists()


async def test_tool_call_event_fields_and_input_rewrite(
    project: Path, make_runner: MakeRunner
) -> None:
    calls: list[ToolCallEvent] = []

    def rewrite(event: ToolCallEvent, ctx: HookContext) -> dict[str, Any]:
        calls.append(event)
        return {"input": {**event.input, "command": "echo rewritten"}}

    runner = make_runner(on("tool_call", rewrite))
    tool = wrap_tool(create_bash_tool(str(project)), runner)
    result = await tool.execute("call-7", {"command": "echo original"}, None, None)
    assert content_text(result.content) == "rewritten\n"
    assert (calls[0].tool_name, calls[0].tool_call_id) == ("bash", "call-7")
    assert calls[0].input == {"command": "echo original"}


# --- tool_result --------------------------------------------------------------------


async def test_tool_result_event_sees_the_result(project: Path, make_runner: MakeRunner) -> None:
    seen: list[ToolResultEvent] = []
    runner = make_runner(on("tool_result", record(seen)))
    result = await wrap_tool(touch_tool(project / "m"), runner).execute("c9", {"x": 1}, None, None)
    assert content_text(result.content) == "touched"
    event = seen[0]
    assert (event.tool_name, event.tool_call_id, event.input) == ("touch", "c9", {"x": 1})
    assert (content_text(event.content), event.details, event.is_error) == (
        "touched",
        {"n": 1},
        False,
    )


async def test_override_content_keeps_details(project: Path, make_runner: MakeRunner) -> None:
    runner = make_runner(on("tool_result", lambda e, c: {"content": [text("redacted")]}))
    result = await wrap_tool(touch_tool(project / "m"), runner).execute("c", {}, None, None)
    assert content_text(result.content) == "redacted"
    assert result.details == {"n": 1} and result.is_error is False


async def test_override_details_only_when_set(project: Path, make_runner: MakeRunner) -> None:
    runner = make_runner(on("tool_result", lambda e, c: {"details": None}))
    result = await wrap_tool(touch_tool(project / "m"), runner).execute("c", {}, None, None)
    assert result.details is None and content_text(result.content) == "touched"
    runner2 = make_runner(on("tool_result", lambda e, c: {"details": {"m": 2}}))
    result2 = await wrap_tool(touch_tool(project / "m"), runner2).execute("c", {}, None, None)
    assert result2.details == {"m": 2}


async def test_override_is_error_turns_success_into_error(
    project: Path, make_runner: MakeRunner
) -> None:
    runner = make_runner(
        on("tool_result", lambda e, c: {"isError": True, "content": [text("policy says no")]})
    )
    result = await wrap_tool(touch_tool(project / "m"), runner).execute("c", {}, None, None)
    assert result.is_error is True and content_text(result.content) == "policy says no"


async def test_last_override_wins(project: Path, make_runner: MakeRunner) -> None:
    runner = make_runner(
        on("tool_result", lambda e, c: {"content": [text("first")]}),
        on("tool_result", lambda e, c: {"content": [text("second")]}),
    )
    result = await wrap_tool(touch_tool(project / "m"), runner).execute("c", {}, None, None)
    assert content_text(result.content) == "second"


async def test_tool_error_is_reported_then_reraised(make_runner: MakeRunner) -> None:
    seen: list[ToolResultEvent] = []
    original = ToolError("disk on fire", {"code": 7})
    runner = make_runner(on("tool_result", record(seen, {"content": [text("ignored")]})))
    with pytest.raises(ToolError) as info:
        await wrap_tool(failing_tool(original), runner).execute("c", {"p": 1}, None, None)
    assert info.value is original
    event = seen[0]
    assert event.is_error is True and content_text(event.content) == "disk on fire"
    assert event.details == {"code": 7} and event.input == {"p": 1}


async def test_other_exceptions_are_reported_with_their_type(make_runner: MakeRunner) -> None:
    seen: list[ToolResultEvent] = []
    original = ValueError("boom")
    runner = make_runner(on("tool_result", record(seen)))
    with pytest.raises(ValueError) as info:
        await wrap_tool(failing_tool(original), runner).execute("c", {}, None, None)
    assert info.value is original
    assert content_text(seen[0].content) == "ValueError: boom" and seen[0].details is None


async def test_failing_bash_reports_its_details(project: Path, make_runner: MakeRunner) -> None:
    seen: list[ToolResultEvent] = []
    runner = make_runner(on("tool_result", record(seen)))
    tool = wrap_tool(create_bash_tool(str(project)), runner)
    with pytest.raises(ToolError):
        await tool.execute("c", {"command": "echo out; exit 2"}, None, None)
    assert seen[0].details == {"exit_code": 2}
    assert content_text(seen[0].content) == "out\n\nCommand exited with code 2"


async def test_raising_tool_result_handler_withholds_the_result(
    project: Path, make_runner: MakeRunner
) -> None:
    def broken(event: ToolResultEvent, ctx: HookContext) -> None:
        raise RuntimeError("post hook bug")

    runner = make_runner(on("tool_result", broken))
    errors: list[Any] = []
    runner.on_error(errors.append)
    result = await wrap_tool(touch_tool(project / "m"), runner).execute("c", {}, None, None)
    assert result.is_error is True
    assert "touched" not in content_text(result.content)
    assert "the tool's output was withheld" in content_text(result.content)
    assert errors and errors[0].event == "tool_result"


# --- spawn hook with tool_call -----------------------------------------------------


async def test_spawn_hook_rewrites_but_never_fires_when_blocked(
    project: Path, make_runner: MakeRunner
) -> None:
    spawned: list[str] = []

    def spawn(ctx: BashSpawnContext) -> BashSpawnContext:
        spawned.append(ctx.command)
        return BashSpawnContext(ctx.command.replace("npm", "pnpm"), ctx.cwd, ctx.env)

    def guard(event: ToolCallEvent, ctx: HookContext) -> dict[str, Any] | None:
        if "rm" in event.input["command"]:
            return {"block": True, "reason": "no rm"}
        return None

    runner = make_runner(on("tool_call", guard))
    bash = wrap_tool(create_bash_tool(str(project), spawn_hook=spawn), runner)
    result = await bash.execute("c", {"command": "echo npm install"}, None, None)
    assert content_text(result.content) == "pnpm install\n"
    (project / "keep").write_text("x")
    with pytest.raises(ToolBlockedError, match="no rm"):
        await bash.execute("c", {"command": "rm keep"}, None, None)
    assert spawned == ["echo npm install"]
    assert (project / "keep").exists()


# --- hook tools ---------------------------------------------------------------------


async def test_registered_bash_replaces_builtin_and_new_tools_append(
    project: Path, make_runner: MakeRunner
) -> None:
    custom_bash = create_bash_tool(
        str(project), spawn_hook=lambda c: BashSpawnContext("echo custom", c.cwd, c.env)
    )

    def setup(api: HookAPI) -> None:
        api.register_tool(custom_bash)
        api.register_tool(touch_tool(project / "m", name="extra"))

    runner = make_runner(setup)
    resolved = resolve_tools(builtin_tools(str(project)), runner)
    names = [t.name for t in resolved]
    assert names == ["read", "bash", "edit", "write", "grep", "find", "ls", "extra"]
    assert resolved[1] is custom_bash
    tools = {t.name: t for t in hooked_tools(str(project), runner)}
    result = await tools["bash"].execute("c", {"command": "echo builtin"}, None, None)
    assert content_text(result.content) == "custom\n"


async def test_first_loaded_hook_wins_a_tool_name(project: Path, make_runner: MakeRunner) -> None:
    first, second = touch_tool(project / "a", "bash"), touch_tool(project / "b", "bash")
    runner = make_runner(
        lambda api: api.register_tool(first), lambda api: api.register_tool(second)
    )
    assert resolve_tools(builtin_tools(str(project)), runner)[1] is first


async def test_hook_tools_are_wrapped_too(project: Path, make_runner: MakeRunner) -> None:
    seen: list[ToolCallEvent] = []

    def setup(api: HookAPI) -> None:
        api.register_tool(touch_tool(project / "m", name="extra"))
        api.on("tool_call", record(seen))

    runner = make_runner(setup)
    tools = {t.name: t for t in hooked_tools(str(project), runner, names=("read",))}
    assert set(tools) == {"read", "extra"}
    await tools["extra"].execute("c", {}, None, None)
    assert [e.tool_name for e in seen] == ["extra"]


async def test_wrap_tools_wraps_every_tool(project: Path, make_runner: MakeRunner) -> None:
    seen: list[ToolCallEvent] = []
    runner = make_runner(on("tool_call", record(seen)))
    wrapped = wrap_tools([create_write_tool(str(project))], runner)
    await wrapped[0].execute("c", {"path": "f", "content": "x"}, None, None)
    assert (project / "f").read_text() == "x" and seen[0].tool_name == "write"


def test_runner_fixture_builds_a_plain_runner(make_runner: MakeRunner) -> None:
    assert isinstance(make_runner(), HookRunner)
