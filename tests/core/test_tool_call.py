"""``tool_call``: first block short-circuits, every failure blocks, rewrites chain.

Deadlines: ``test_core_deadlines.py``.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from hookline.core.api import HookAPI
from hookline.core.context import HookContext
from hookline.core.events import ToolCallEvent
from hookline.core.results import StopResult, ToolCallResult

from .helpers import MakeRunner


def call(command: str = "ls", tool: str = "bash") -> ToolCallEvent:
    return ToolCallEvent(tool_name=tool, tool_call_id="c1", input={"command": command})


async def test_first_block_short_circuits(make_runner: MakeRunner) -> None:
    seen: list[str] = []

    def first(api: HookAPI) -> None:
        @api.on("tool_call")
        async def allow(event: ToolCallEvent, ctx: HookContext) -> None:
            seen.append("allow")

        @api.on("tool_call")
        async def block(event: ToolCallEvent, ctx: HookContext) -> dict[str, Any]:
            seen.append("block")
            return {"block": True, "reason": "nope"}

    def second(api: HookAPI) -> None:
        @api.on("tool_call")
        async def later(event: ToolCallEvent, ctx: HookContext) -> dict[str, Any]:
            seen.append("later")
            return {"block": True, "reason": "later"}

    built = make_runner(first, second)
    result = await built.runner.emit_tool_call(call())
    assert isinstance(result, ToolCallResult)
    assert result.block is True
    assert result.reason == "nope"
    assert seen == ["allow", "block"]


async def test_no_opinion_returns_none(make_runner: MakeRunner) -> None:
    built = make_runner(lambda api: api.on("tool_call", lambda e, c: None))
    assert await built.runner.emit_tool_call(call()) is None
    assert built.errors == []


async def test_no_handlers_returns_none(make_runner: MakeRunner) -> None:
    built = make_runner()
    assert await built.runner.emit_tool_call(call()) is None


async def test_non_blocking_result_is_kept(make_runner: MakeRunner) -> None:
    built = make_runner(lambda api: api.on("tool_call", lambda e, c: {"reason": "looked"}))
    result = await built.runner.emit_tool_call(call())
    assert isinstance(result, ToolCallResult)
    assert result.block is False
    assert result.reason == "looked"


# -- fail closed: one test per way a handler can fail --------------------------


async def _raises(event: ToolCallEvent, ctx: HookContext) -> None:
    raise RuntimeError("kaboom")


def _sync_raises(event: ToolCallEvent, ctx: HookContext) -> None:
    raise ValueError("sync kaboom")


async def _raises_after_suspending(event: ToolCallEvent, ctx: HookContext) -> None:
    await asyncio.sleep(0.01)  # a real timer suspension, not a bare yield
    raise RuntimeError("late kaboom")


async def _unknown_key(event: ToolCallEvent, ctx: HookContext) -> dict[str, Any]:
    return {"blok": True}


async def _wrong_type_in_dict(event: ToolCallEvent, ctx: HookContext) -> dict[str, Any]:
    return {"block": True, "reason": 42}


async def _wrong_block_type(event: ToolCallEvent, ctx: HookContext) -> dict[str, Any]:
    return {"block": "maybe"}


async def _wrong_return_type(event: ToolCallEvent, ctx: HookContext) -> int:
    return 42


async def _str_return(event: ToolCallEvent, ctx: HookContext) -> str:
    return "allow"


async def _other_result_type(event: ToolCallEvent, ctx: HookContext) -> StopResult:
    return StopResult(block=False)


async def _raises_timeout(event: ToolCallEvent, ctx: HookContext) -> None:
    await asyncio.sleep(0)
    raise TimeoutError("upstream timed out")


FAILURES = [
    pytest.param(_raises, "kaboom", id="raises"),
    pytest.param(_sync_raises, "sync kaboom", id="sync-raises"),
    pytest.param(_raises_after_suspending, "late kaboom", id="raises-after-suspension"),
    pytest.param(_unknown_key, "blok", id="dict-unknown-key"),
    pytest.param(_wrong_type_in_dict, "reason", id="dict-wrong-type"),
    pytest.param(_wrong_block_type, "block", id="dict-wrong-block-type"),
    pytest.param(_wrong_return_type, "int", id="wrong-return-type"),
    pytest.param(_str_return, "str", id="str-return"),
    pytest.param(_other_result_type, "StopResult", id="other-result-class"),
    pytest.param(_raises_timeout, "upstream timed out", id="raises-timeout-error"),
]


@pytest.mark.parametrize(("handler", "needle"), FAILURES)
async def test_failing_handler_blocks(make_runner: MakeRunner, handler: Any, needle: str) -> None:
    later_called = False

    def later(event: ToolCallEvent, ctx: HookContext) -> None:
        nonlocal later_called
        later_called = True

    built = make_runner(
        lambda api: api.on("tool_call", handler), lambda api: api.on("tool_call", later)
    )
    result = await built.runner.emit_tool_call(call())
    assert isinstance(result, ToolCallResult)
    assert result.block is True
    assert result.reason is not None
    assert needle in result.reason
    assert "hook0.py" in result.reason
    assert later_called is False
    assert len(built.errors) == 1
    err = built.errors[0]
    assert (err.hook_path, err.event) == ("hook0.py", "tool_call")
    assert needle in err.error


async def test_failure_after_an_allowing_handler_still_blocks(make_runner: MakeRunner) -> None:
    built = make_runner(
        lambda api: api.on("tool_call", lambda e, c: {"input": {"command": "ls -la"}}),
        lambda api: api.on("tool_call", _raises),
    )
    result = await built.runner.emit_tool_call(call())
    assert isinstance(result, ToolCallResult)
    assert result.block is True
    assert "hook1.py" in (result.reason or "")


# -- input rewrite ------------------------------------------------------------


async def test_input_rewrites_chain_in_order(make_runner: MakeRunner) -> None:
    seen: list[dict[str, Any]] = []

    async def first(event: ToolCallEvent, ctx: HookContext) -> dict[str, Any]:
        seen.append(dict(event.input))
        return {"input": {"command": event.input["command"] + " -l"}}

    async def second(event: ToolCallEvent, ctx: HookContext) -> dict[str, Any]:
        seen.append(dict(event.input))
        return {"input": {"command": event.input["command"] + " -a"}}

    async def third(event: ToolCallEvent, ctx: HookContext) -> None:
        seen.append(dict(event.input))

    def two_handlers(api: HookAPI) -> None:
        api.on("tool_call", second)
        api.on("tool_call", third)

    built = make_runner(lambda api: api.on("tool_call", first), two_handlers)
    original = call("ls")
    result = await built.runner.emit_tool_call(original)
    assert seen == [{"command": "ls"}, {"command": "ls -l"}, {"command": "ls -l -a"}]
    assert isinstance(result, ToolCallResult)
    assert result.block is False
    assert result.input == {"command": "ls -l -a"}
    assert original.input == {"command": "ls"}  # the caller's event is not mutated


async def test_rewrite_then_plain_result_keeps_rewritten_input(make_runner: MakeRunner) -> None:
    built = make_runner(
        lambda api: api.on("tool_call", lambda e, c: {"input": {"command": "pwd"}}),
        lambda api: api.on("tool_call", lambda e, c: {"reason": "noted"}),
    )
    result = await built.runner.emit_tool_call(call("ls"))
    assert isinstance(result, ToolCallResult)
    assert result.input == {"command": "pwd"}
    assert result.reason == "noted"


async def test_block_after_rewrite_sees_rewritten_input(make_runner: MakeRunner) -> None:
    seen: list[str] = []

    def guard(event: ToolCallEvent, ctx: HookContext) -> dict[str, Any] | None:
        seen.append(event.input["command"])
        if "rm" in event.input["command"]:
            return {"block": True, "reason": "rm"}
        return None

    built = make_runner(
        lambda api: api.on("tool_call", lambda e, c: {"input": {"command": "rm -rf x"}}),
        lambda api: api.on("tool_call", guard),
    )
    result = await built.runner.emit_tool_call(call("ls"))
    assert isinstance(result, ToolCallResult)
    assert result.block is True
    assert seen == ["rm -rf x"]


async def test_result_object_is_accepted(make_runner: MakeRunner) -> None:
    built = make_runner(
        lambda api: api.on("tool_call", lambda e, c: ToolCallResult(block=True, reason="typed"))
    )
    result = await built.runner.emit_tool_call(call())
    assert isinstance(result, ToolCallResult)
    assert result.reason == "typed"


async def test_tool_call_emit_through_generic_emit(make_runner: MakeRunner) -> None:
    built = make_runner(lambda api: api.on("tool_call", lambda e, c: {"block": True}))
    result = await built.emit(call())
    assert isinstance(result, ToolCallResult)
    assert result.block is True


async def test_a_handler_calling_sys_exit_blocks_and_never_ends_the_process() -> None:
    import sys

    from hookline.core.api import HookAPI, LoadedHook
    from hookline.core.events import ToolCallEvent, TurnStartEvent
    from hookline.core.runner import HookRunner

    hook = LoadedHook("exits.py")
    api = HookAPI(hook)
    api.on("tool_call", lambda e, c: sys.exit(3))
    api.on("turn_start", lambda e, c: sys.exit(4))
    api.register_command("bye", lambda args, ctx: sys.exit(5))
    later: list[str] = []
    other = LoadedHook("later.py")
    HookAPI(other).on("turn_start", lambda e, c: later.append("ran"))
    runner = HookRunner([hook, other])
    errors: list[str] = []
    runner.on_error(lambda err: errors.append(f"{err.event}: {err.error}"))

    blocked = await runner.emit_tool_call(
        ToolCallEvent(tool_name="bash", tool_call_id="t", input={"command": "ls"})
    )
    assert blocked is not None and blocked.block and "SystemExit" in (blocked.reason or "")
    await runner.emit(TurnStartEvent(turn_index=0, timestamp=0.0))
    assert later == ["ran"]
    assert await runner.run_command("bye")
    assert [e.split(":")[0] for e in errors] == ["tool_call", "turn_start", "command"]


async def test_tool_call_permission_ask_beats_allow_in_any_order() -> None:
    from hookline.core.api import HookAPI, LoadedHook
    from hookline.core.events import ToolCallEvent
    from hookline.core.runner import HookRunner

    def runner_for(*decisions: str) -> HookRunner:
        hooks = []
        for i, decision in enumerate(decisions):
            hook = LoadedHook(f"h{i}.py")
            HookAPI(hook).on("tool_call", lambda e, c, d=decision: {"permission": d})
            hooks.append(hook)
        return HookRunner(hooks)

    event = ToolCallEvent(tool_name="bash", tool_call_id="t", input={})
    for order in (("allow", "ask"), ("ask", "allow")):
        result = await runner_for(*order).emit_tool_call(event)
        assert result is not None and result.permission == "ask" and not result.block
    only_allow = await runner_for("allow").emit_tool_call(event)
    assert only_allow is not None and only_allow.permission == "allow"
