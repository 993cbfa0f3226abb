"""The combination rules (README table) for every event other than ``tool_call``, and timeouts."""

from __future__ import annotations

import asyncio
import inspect
from typing import Any

import pytest

from hookline.core import runner as runner_module
from hookline.core.api import HookAPI
from hookline.core.context import HookContext
from hookline.core.events import (
    AgentStartEvent,
    BeforeAgentStartEvent,
    ContextEvent,
    InputEvent,
    NotificationEvent,
    PermissionRequestEvent,
    SessionBeforeBranchEvent,
    SessionBeforeCompactEvent,
    SessionBeforeForkEvent,
    SessionBeforeSwitchEvent,
    SessionBeforeTreeEvent,
    SessionCompactingEvent,
    StopEvent,
    ToolResultEvent,
    TurnStartEvent,
    UserBashEvent,
    UserPythonEvent,
)
from hookline.core.messages import Message, text, user_message
from hookline.core.results import (
    BeforeAgentStartResult,
    ContextResult,
    InputResult,
    PermissionRequestResult,
    SessionBeforeBranchResult,
    SessionBeforeCompactResult,
    SessionBeforeSwitchResult,
    SessionCompactingResult,
    StopResult,
    ToolResultResult,
    UserBashResult,
    UserPythonResult,
)
from hookline.core.runner import DEFAULT_HOOK_TIMEOUT, HookRunner

from .helpers import MakeRunner


def turn() -> TurnStartEvent:
    return TurnStartEvent(turn_index=0, timestamp=0.0)


def one(event: str, handler: Any) -> Any:
    return lambda api: api.on(event, handler)


# -- tool_result ----------------------------------------------------------------


async def test_tool_result_handlers_chain_like_middleware(
    make_runner: MakeRunner,
) -> None:
    """Each handler sees the previous handler's patch (pi's rule, not the seed's "each sees
    the original, last wins")."""
    seen: list[str] = []

    def handler(tag: str) -> Any:
        def fn(event: ToolResultEvent, ctx: HookContext) -> dict[str, Any]:
            seen.append(event.content[0]["text"])
            return {"content": [text(f"{event.content[0]['text']}+{tag}")]}

        return fn

    built = make_runner(one("tool_result", handler("a")), one("tool_result", handler("b")))
    event = ToolResultEvent(
        tool_name="read", tool_call_id="c1", input={"path": "x"}, content=[text("orig")]
    )
    result = await built.runner.emit_tool_result(event)
    assert seen == ["orig", "orig+a"]
    assert isinstance(result, ToolResultResult)
    assert result.content == [text("orig+a+b")]


async def test_a_later_tool_result_handler_cannot_undo_a_redaction(
    make_runner: MakeRunner,
) -> None:
    """The walk-around of "last wins": a later handler that echoes what it was shown, or
    changes only ``is_error``, must not bring the secret back."""
    seen: list[str] = []

    def redact(event: ToolResultEvent, ctx: HookContext) -> dict[str, Any]:
        return {"content": [text("[redacted]")], "details": None}

    def echo(event: ToolResultEvent, ctx: HookContext) -> dict[str, Any]:
        seen.append(event.content[0]["text"])
        return {"content": event.content, "isError": False}

    def flag_only(event: ToolResultEvent, ctx: HookContext) -> dict[str, Any]:
        seen.append(event.content[0]["text"])
        return {"is_error": True}

    built = make_runner(
        one("tool_result", redact), one("tool_result", echo), one("tool_result", flag_only)
    )
    event = ToolResultEvent(
        tool_name="bash",
        tool_call_id="c1",
        input={},
        content=[text("token=sk-live-123")],
        details={"raw": "sk-live-123"},
    )
    result = await built.runner.emit_tool_result(event)
    assert seen == ["[redacted]", "[redacted]"]
    assert isinstance(result, ToolResultResult)
    assert result.content == [text("[redacted]")]
    assert result.details is None and "details" in result.model_fields_set
    assert result.is_error is True


async def test_tool_result_none_does_not_erase_earlier_override(make_runner: MakeRunner) -> None:
    built = make_runner(
        one("tool_result", lambda e, c: {"content": [text("x")], "isError": True}),
        one("tool_result", lambda e, c: None),
    )
    event = ToolResultEvent(tool_name="read", tool_call_id="c", input={}, content=[text("o")])
    result = await built.runner.emit_tool_result(event)
    assert isinstance(result, ToolResultResult)
    assert result.content == [text("x")]
    assert result.is_error is True


async def test_tool_result_error_withholds_the_output_and_stops_the_chain(
    make_runner: MakeRunner,
) -> None:
    later: list[str] = []

    def boom(event: ToolResultEvent, ctx: HookContext) -> None:
        raise RuntimeError("bad")

    def after(event: ToolResultEvent, ctx: HookContext) -> dict[str, Any]:
        later.append("ran")
        return {"details": {"k": 1}}

    built = make_runner(
        one("tool_result", lambda e, c: {"append": [text("note")]}),
        one("tool_result", boom),
        one("tool_result", after),
    )
    event = ToolResultEvent(
        tool_name="read", tool_call_id="c", input={}, content=[text("SECRET")], details={"d": 1}
    )
    result = await built.runner.emit_tool_result(event)
    assert isinstance(result, ToolResultResult)
    assert result.is_error is True
    assert result.content == [
        text("tool_result hook hook1.py failed (RuntimeError: bad); the tool's output was withheld")
    ]
    assert "details" in result.model_fields_set and result.details is None
    assert result.append is None
    assert later == []  # the chain stopped: no later handler sees the raw output
    assert [(e.hook_path, e.event) for e in built.errors] == [("hook1.py", "tool_result")]


# -- context --------------------------------------------------------------------


async def test_context_chains_and_none_passes_through(make_runner: MakeRunner) -> None:
    seen: list[list[str]] = []

    def texts(messages: list[Message]) -> list[str]:
        return [m["content"][0]["text"] for m in messages]  # type: ignore[index,typeddict-item]

    def add(tag: str) -> Any:
        def fn(event: ContextEvent, ctx: HookContext) -> dict[str, Any]:
            seen.append(texts(event.messages))
            return {"messages": [*event.messages, user_message(tag)]}

        return fn

    def passthrough(event: ContextEvent, ctx: HookContext) -> None:
        seen.append(texts(event.messages))

    built = make_runner(
        one("context", add("a")), one("context", passthrough), one("context", add("b"))
    )
    out = await built.runner.emit_context([user_message("m")])
    assert seen == [["m"], ["m", "a"], ["m", "a"]]
    assert texts(out) == ["m", "a", "b"]


async def test_context_unchanged_returns_same_list(make_runner: MakeRunner) -> None:
    built = make_runner(one("context", lambda e, c: None))
    messages: list[Message] = [user_message("m")]
    assert await built.runner.emit_context(messages) is messages
    assert await built.emit(ContextEvent(messages=messages)) is None


async def test_context_result_via_emit(make_runner: MakeRunner) -> None:
    built = make_runner(one("context", lambda e, c: {"messages": []}))
    result = await built.emit(ContextEvent(messages=[user_message("m")]))
    assert isinstance(result, ContextResult)
    assert result.messages == []


# -- before_agent_start -----------------------------------------------------------


async def test_before_agent_start_keeps_first_message(make_runner: MakeRunner) -> None:
    calls: list[str] = []

    def msg(tag: str) -> Any:
        def fn(event: BeforeAgentStartEvent, ctx: HookContext) -> dict[str, Any]:
            calls.append(tag)
            return {"message": {"customType": tag, "content": f"from {tag}"}}

        return fn

    built = make_runner(
        one("before_agent_start", lambda e, c: calls.append("none") and None),
        one("before_agent_start", msg("first")),
        one("before_agent_start", msg("second")),
    )
    result = await built.emit(BeforeAgentStartEvent(prompt="hi"))
    assert isinstance(result, BeforeAgentStartResult)
    assert result.message is not None
    assert result.message.custom_type == "first"
    assert result.message.content == "from first"
    assert calls == ["none", "first", "second"]


# -- session_before_* ---------------------------------------------------------------


BEFORE_EVENTS = [
    pytest.param(SessionBeforeSwitchEvent(reason="new"), id="switch"),
    pytest.param(SessionBeforeForkEvent(), id="fork"),
    pytest.param(SessionBeforeBranchEvent(target_turn_index=1), id="branch"),
    pytest.param(SessionBeforeCompactEvent(), id="compact"),
    pytest.param(SessionBeforeTreeEvent(target_id="e1"), id="tree"),
]


@pytest.mark.parametrize("event", BEFORE_EVENTS)
async def test_session_before_cancel_short_circuits(make_runner: MakeRunner, event: Any) -> None:
    later = False

    def after(e: Any, c: HookContext) -> None:
        nonlocal later
        later = True

    built = make_runner(
        one(event.type, lambda e, c: {"cancel": False}),
        one(event.type, lambda e, c: {"cancel": True}),
        one(event.type, after),
    )
    result = await built.emit(event)
    assert result is not None
    assert result.cancel is True  # type: ignore[attr-defined]
    assert later is False


async def test_session_before_latest_result_kept(make_runner: MakeRunner) -> None:
    built = make_runner(
        one("session_before_branch", lambda e, c: {"skipConversationRestore": True}),
        one("session_before_branch", lambda e, c: {"skip_conversation_restore": False}),
        one("session_before_branch", lambda e, c: None),
    )
    result = await built.emit(SessionBeforeBranchEvent(target_turn_index=0))
    assert isinstance(result, SessionBeforeBranchResult)
    assert result.skip_conversation_restore is False
    assert result.cancel is False


async def test_session_before_compact_accepts_summary_string(make_runner: MakeRunner) -> None:
    built = make_runner(one("session_before_compact", lambda e, c: "my summary"))
    result = await built.emit(SessionBeforeCompactEvent())
    assert isinstance(result, SessionBeforeCompactResult)
    assert result.compaction is not None
    assert result.compaction.summary == "my summary"


async def test_session_before_switch_without_opinion(make_runner: MakeRunner) -> None:
    built = make_runner(one("session_before_switch", lambda e, c: None))
    assert await built.emit(SessionBeforeSwitchEvent(reason="new")) is None
    typed = SessionBeforeSwitchResult()
    built2 = make_runner(one("session_before_switch", lambda e, c: typed))
    assert await built2.emit(SessionBeforeSwitchEvent(reason="new")) is typed


# -- session.compacting ---------------------------------------------------------------


async def test_session_compacting_latest_wins(make_runner: MakeRunner) -> None:
    built = make_runner(
        one("session.compacting", lambda e, c: {"context": ["a"], "prompt": "p1"}),
        one("session.compacting", lambda e, c: {"preserveData": {"k": 2}}),
        one("session.compacting", lambda e, c: None),
    )
    result = await built.emit(SessionCompactingEvent())
    assert isinstance(result, SessionCompactingResult)
    assert result.preserve_data == {"k": 2}
    assert result.context is None
    assert result.prompt is None


# -- input ---------------------------------------------------------------------------


async def test_input_chains_transforms_and_str_return(make_runner: MakeRunner) -> None:
    seen: list[str] = []

    def upper(event: InputEvent, ctx: HookContext) -> str:
        seen.append(event.text)
        return event.text.upper()

    def suffix(event: InputEvent, ctx: HookContext) -> dict[str, Any]:
        seen.append(event.text)
        return {"text": event.text + "!"}

    def look(event: InputEvent, ctx: HookContext) -> None:
        seen.append(event.text)

    built = make_runner(one("input", upper), one("input", suffix), one("input", look))
    result = await built.runner.emit_input(InputEvent(text="hi"))
    assert seen == ["hi", "HI", "HI!"]
    assert isinstance(result, InputResult)
    assert result.text == "HI!"
    assert result.handled is False


async def test_input_handled_stops_chain(make_runner: MakeRunner) -> None:
    later = False

    def after(e: InputEvent, c: HookContext) -> None:
        nonlocal later
        later = True

    built = make_runner(
        one("input", lambda e, c: "changed"),
        one("input", lambda e, c: {"handled": True}),
        one("input", after),
    )
    result = await built.runner.emit_input(InputEvent(text="hi"))
    assert isinstance(result, InputResult)
    assert result.handled is True
    assert later is False


async def test_input_untouched_returns_none(make_runner: MakeRunner) -> None:
    built = make_runner(one("input", lambda e, c: None))
    assert await built.runner.emit_input(InputEvent(text="hi")) is None


# -- user_bash -------------------------------------------------------------------------


async def test_user_bash_chain(make_runner: MakeRunner) -> None:
    seen: list[tuple[str, str]] = []

    def first(event: UserBashEvent, ctx: HookContext) -> dict[str, Any]:
        seen.append((event.command, event.cwd))
        return {"command": f"time {event.command}", "env": {"A": "1"}}

    def second(event: UserBashEvent, ctx: HookContext) -> dict[str, Any]:
        seen.append((event.command, event.cwd))
        return {"cwd": "/tmp"}

    def third(event: UserBashEvent, ctx: HookContext) -> None:
        seen.append((event.command, event.cwd))

    built = make_runner(one("user_bash", first), one("user_bash", second), one("user_bash", third))
    result = await built.emit(UserBashEvent(command="ls", cwd="/w"))
    assert seen == [("ls", "/w"), ("time ls", "/w"), ("time ls", "/tmp")]
    assert isinstance(result, UserBashResult)
    assert (result.command, result.cwd, result.env) == ("time ls", "/tmp", {"A": "1"})


async def test_user_bash_untouched_returns_none(make_runner: MakeRunner) -> None:
    built = make_runner(one("user_bash", lambda e, c: None))
    assert await built.emit(UserBashEvent(command="ls", cwd="/w")) is None


async def test_user_python_chains_like_user_bash(make_runner: MakeRunner) -> None:
    seen: list[tuple[str, str, bool]] = []

    def first(event: UserPythonEvent, ctx: HookContext) -> dict[str, Any]:
        seen.append((event.code, event.cwd, event.exclude_from_context))
        return {"code": f"import os\n{event.code}", "env": {"A": "1"}}

    def second(event: UserPythonEvent, ctx: HookContext) -> dict[str, Any]:
        seen.append((event.code, event.cwd, event.exclude_from_context))
        return {"cwd": "/tmp"}

    built = make_runner(one("user_python", first), one("user_python", second))
    result = await built.emit(UserPythonEvent(code="1", cwd="/w", exclude_from_context=True))
    assert seen == [("1", "/w", True), ("import os\n1", "/w", True)]
    assert isinstance(result, UserPythonResult)
    assert (result.code, result.cwd, result.env) == ("import os\n1", "/tmp", {"A": "1"})
    assert (
        await make_runner(one("user_python", lambda e, c: None)).emit(
            UserPythonEvent(code="1", cwd="/w")
        )
        is None
    )


async def test_user_python_result_is_a_full_replacement(make_runner: MakeRunner) -> None:
    later: list[str] = []
    built = make_runner(
        one("user_python", lambda e, c: {"result": {"output": "in the kernel", "exitCode": 0}}),
        one("user_python", lambda e, c: later.append(e.code)),
    )
    result = await built.emit(UserPythonEvent(code="1", cwd="/"))
    assert isinstance(result, UserPythonResult) and result.result is not None
    assert (result.result.output, result.result.exit_code) == ("in the kernel", 0)
    assert later == []


# -- stop / permission_request -------------------------------------------------------------


async def test_stop_first_block_wins(make_runner: MakeRunner) -> None:
    later = False

    def after(e: StopEvent, c: HookContext) -> dict[str, Any]:
        nonlocal later
        later = True
        return {"block": True, "reason": "second"}

    built = make_runner(
        one("stop", lambda e, c: {"block": False, "reason": "ignored"}),
        one("stop", lambda e, c: {"block": True, "reason": "keep going"}),
        one("stop", after),
    )
    result = await built.emit(StopEvent())
    assert isinstance(result, StopResult)
    assert result.reason == "keep going"
    assert later is False


async def test_stop_without_block_returns_none(make_runner: MakeRunner) -> None:
    built = make_runner(one("stop", lambda e, c: {"block": False}))
    assert await built.emit(StopEvent()) is None


async def test_permission_request_first_decision(make_runner: MakeRunner) -> None:
    later = False

    def after(e: PermissionRequestEvent, c: HookContext) -> dict[str, Any]:
        nonlocal later
        later = True
        return {"decision": "allow"}

    built = make_runner(
        one("permission_request", lambda e, c: {"reason": "no decision"}),
        one("permission_request", lambda e, c: {"decision": "deny", "reason": "policy"}),
        one("permission_request", after),
    )
    event = PermissionRequestEvent(tool_name="bash", tool_call_id="c", input={})
    result = await built.emit(event)
    assert isinstance(result, PermissionRequestResult)
    assert (result.decision, result.reason) == ("deny", "policy")
    assert later is False


async def test_permission_request_bad_decision_is_reported(make_runner: MakeRunner) -> None:
    built = make_runner(
        one("permission_request", lambda e, c: {"decision": "perhaps"}),
        one("permission_request", lambda e, c: {"decision": "ask"}),
    )
    event = PermissionRequestEvent(tool_name="bash", tool_call_id="c", input={})
    result = await built.emit(event)
    assert isinstance(result, PermissionRequestResult)
    assert result.decision == "ask"
    assert len(built.errors) == 1
    assert "decision" in built.errors[0].error


# -- notifications -----------------------------------------------------------------------


async def test_notification_errors_reported_and_chain_goes_on(make_runner: MakeRunner) -> None:
    ran: list[str] = []

    async def boom(event: AgentStartEvent, ctx: HookContext) -> None:
        await asyncio.sleep(0)
        raise RuntimeError("boom")

    built = make_runner(
        one("agent_start", boom),
        one("agent_start", lambda e, c: ran.append("second")),
        one("agent_start", lambda e, c: {"whatever": 1}),  # ignored: no result type
    )
    assert await built.emit(AgentStartEvent()) is None
    assert ran == ["second"]
    assert len(built.errors) == 1
    err = built.errors[0]
    assert (err.hook_path, err.event) == ("hook0.py", "agent_start")
    assert "RuntimeError: boom" in err.error
    assert isinstance(err.exception, RuntimeError)


async def test_notification_event_type_runs_all(make_runner: MakeRunner) -> None:
    got: list[str] = []
    built = make_runner(
        one("notification", lambda e, c: got.append(e.message)),
        one("notification", lambda e, c: got.append(e.notification_type)),
    )
    await built.emit(NotificationEvent(message="m", notification_type="idle_prompt"))
    assert got == ["m", "idle_prompt"]


async def test_invalid_result_on_result_event_is_reported(make_runner: MakeRunner) -> None:
    built = make_runner(
        one("stop", lambda e, c: {"blocked": True}),
        one("stop", lambda e, c: {"block": True}),
    )
    result = await built.emit(StopEvent())
    assert isinstance(result, StopResult)
    assert len(built.errors) == 1
    assert "blocked" in built.errors[0].error


# -- timeouts ----------------------------------------------------------------------------


async def test_timeout_is_reported_and_next_handler_runs(make_runner: MakeRunner) -> None:
    ran: list[str] = []

    async def slow(event: TurnStartEvent, ctx: HookContext) -> None:
        await asyncio.sleep(10)
        ran.append("slow finished")

    built = make_runner(
        one("turn_start", slow), one("turn_start", lambda e, c: ran.append("next")), timeout=0.05
    )
    await built.emit(turn())
    assert ran == ["next"]
    assert len(built.errors) == 1
    assert built.errors[0].hook_path == "hook0.py"
    assert "timed out" in built.errors[0].error


async def test_timeout_applies_to_result_events(make_runner: MakeRunner) -> None:
    async def slow(event: StopEvent, ctx: HookContext) -> dict[str, Any]:
        await asyncio.sleep(10)
        return {"block": True}

    built = make_runner(one("stop", slow), timeout=0.05)
    assert await built.emit(StopEvent()) is None
    assert "timed out" in built.errors[0].error


async def test_handlers_own_timeout_error_is_not_a_deadline(make_runner: MakeRunner) -> None:
    async def upstream(event: TurnStartEvent, ctx: HookContext) -> None:
        await asyncio.sleep(0)
        raise TimeoutError("upstream read")

    built = make_runner(one("turn_start", upstream))
    await built.emit(turn())
    assert len(built.errors) == 1
    assert "upstream read" in built.errors[0].error
    assert "timed out after" not in built.errors[0].error


async def test_no_timeout_runner_reports_handler_timeout_error(make_runner: MakeRunner) -> None:
    async def upstream(event: TurnStartEvent, ctx: HookContext) -> None:
        await asyncio.sleep(0)
        raise TimeoutError("upstream read")

    built = make_runner(one("turn_start", upstream), timeout=None)
    await built.emit(turn())  # must not raise
    assert "upstream read" in built.errors[0].error


async def test_runner_without_timeout_waits(make_runner: MakeRunner) -> None:
    async def slowish(event: TurnStartEvent, ctx: HookContext) -> None:
        await asyncio.sleep(0.1)

    built = make_runner(one("turn_start", slowish), timeout=None)
    await built.emit(turn())
    assert built.errors == []


async def test_sync_awaitable_return_runs_under_timeout(make_runner: MakeRunner) -> None:
    def returns_future(event: TurnStartEvent, ctx: HookContext) -> asyncio.Future[None]:
        return asyncio.get_running_loop().create_future()  # never resolved

    built = make_runner(one("turn_start", returns_future), timeout=0.05)
    await built.emit(turn())
    assert "timed out" in built.errors[0].error


def test_default_timeout_is_30_seconds() -> None:
    assert DEFAULT_HOOK_TIMEOUT == 30.0
    assert HookRunner().timeout == 30.0
    assert inspect.signature(HookRunner).parameters["timeout"].default == 30.0
    assert runner_module.DEFAULT_HOOK_TIMEOUT == 30.0


# -- order, sync/async, suspension -----------------------------------------------------------


async def test_order_is_load_order_then_registration_order(make_runner: MakeRunner) -> None:
    order: list[str] = []

    def hook(tag: str) -> Any:
        def setup(api: HookAPI) -> None:
            api.on("turn_start", lambda e, c: order.append(f"{tag}1"))
            api.on("agent_start", lambda e, c: order.append("other event"))
            api.on("turn_start", lambda e, c: order.append(f"{tag}2"))

        return setup

    built = make_runner(hook("a"), hook("b"), hook("c"))
    await built.emit(turn())
    assert order == ["a1", "a2", "b1", "b2", "c1", "c2"]


async def test_sync_and_async_handlers_both_work(make_runner: MakeRunner) -> None:
    def sync_h(event: InputEvent, ctx: HookContext) -> str:
        return event.text + "-sync"

    async def async_h(event: InputEvent, ctx: HookContext) -> str:
        return event.text + "-async"

    built = make_runner(one("input", sync_h), one("input", async_h))
    result = await built.runner.emit_input(InputEvent(text="x"))
    assert isinstance(result, InputResult)
    assert result.text == "x-sync-async"


@pytest.mark.parametrize("event_name", ["input", "tool_call"])
async def test_suspending_and_non_suspending_handlers_return_values(
    make_runner: MakeRunner, event_name: str
) -> None:
    async def immediate(event: Any, ctx: HookContext) -> Any:
        return "now" if event_name == "input" else {"input": {"v": "now"}}

    async def bare_yield(event: Any, ctx: HookContext) -> Any:
        await asyncio.sleep(0)
        return "yield" if event_name == "input" else {"input": {"v": "yield"}}

    async def timer(event: Any, ctx: HookContext) -> Any:
        await asyncio.sleep(0.01)
        fut: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        asyncio.get_running_loop().call_soon(fut.set_result, "timer")
        got = await fut
        return got if event_name == "input" else {"input": {"v": got}}

    for handler, expected in ((immediate, "now"), (bare_yield, "yield"), (timer, "timer")):
        built = make_runner(one(event_name, handler))
        if event_name == "input":
            result = await built.emit(InputEvent(text="x"))
            assert isinstance(result, InputResult)
            assert result.text == expected
        else:
            from hookline.core.events import ToolCallEvent

            event = ToolCallEvent(tool_name="t", tool_call_id="c", input={})
            result = await built.emit(event)
            assert result.input == {"v": expected}
        assert built.errors == []


async def test_suspended_handler_exception_is_caught_after_resume(
    make_runner: MakeRunner,
) -> None:
    async def handler(event: InputEvent, ctx: HookContext) -> str:
        try:
            await asyncio.sleep(0.01)
            raise KeyError("inner")
        except KeyError:
            await asyncio.sleep(0)
            return "recovered"

    built = make_runner(one("input", handler))
    result = await built.emit(InputEvent(text="x"))
    assert isinstance(result, InputResult)
    assert result.text == "recovered"


async def test_outer_cancellation_propagates(make_runner: MakeRunner) -> None:
    started = asyncio.Event()

    async def forever(event: TurnStartEvent, ctx: HookContext) -> None:
        started.set()
        await asyncio.sleep(10)

    built = make_runner(one("turn_start", forever))
    task = asyncio.ensure_future(built.emit(turn()))
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert built.errors == []


async def test_emit_with_no_handlers_returns_none(make_runner: MakeRunner) -> None:
    built = make_runner(one("agent_start", lambda e, c: None))
    assert await built.emit(turn()) is None
    assert await built.emit(StopEvent()) is None


async def test_tool_result_appends_accumulate_beside_the_last_override() -> None:
    from hookline.core.api import HookAPI, LoadedHook
    from hookline.core.events import ToolResultEvent
    from hookline.core.runner import HookRunner

    first, second, third = LoadedHook("a.py"), LoadedHook("b.py"), LoadedHook("c.py")
    HookAPI(first).on("tool_result", lambda e, c: {"append": [{"type": "text", "text": "A"}]})
    HookAPI(second).on("tool_result", lambda e, c: {"content": [{"type": "text", "text": "new"}]})
    HookAPI(third).on("tool_result", lambda e, c: {"append": [{"type": "text", "text": "C"}]})
    runner = HookRunner([first, second, third])
    result = await runner.emit_tool_result(
        ToolResultEvent(tool_name="read", tool_call_id="t", input={}, content=[])
    )
    assert result is not None
    assert result.content == [{"type": "text", "text": "new"}]
    assert result.append == [{"type": "text", "text": "A"}, {"type": "text", "text": "C"}]


# -- rules changed to pi's current ones ------------------------------------------------


async def test_before_agent_start_keeps_every_message_and_chains_the_system_prompt(
    make_runner: MakeRunner,
) -> None:
    prompts: list[str] = []

    def handler(tag: str, prompt: bool) -> Any:
        def fn(event: BeforeAgentStartEvent, ctx: HookContext) -> dict[str, Any]:
            prompts.append(event.system_prompt)
            out: dict[str, Any] = {"message": {"customType": tag, "content": f"from {tag}"}}
            if prompt:
                out["systemPrompt"] = f"{event.system_prompt} +{tag}"
            return out

        return fn

    built = make_runner(
        one("before_agent_start", handler("a", True)),
        one("before_agent_start", lambda e, c: None),
        one("before_agent_start", handler("b", False)),
        one("before_agent_start", handler("c", True)),
    )
    result = await built.emit(BeforeAgentStartEvent(prompt="hi", system_prompt="base"))
    assert isinstance(result, BeforeAgentStartResult)
    assert [m.custom_type for m in result.messages or []] == ["a", "b", "c"]
    assert prompts == ["base", "base +a", "base +a"]
    assert result.system_prompt == "base +a +c"


@pytest.mark.parametrize(
    ("returns", "expected"),
    [
        ([{"action": "continue"}], ("hello", False)),
        ([{"action": "transform", "text": "HELLO"}, {"action": "continue"}], ("HELLO", False)),
        (
            [{"action": "transform", "text": "a"}, {"action": "transform", "text": "b"}],
            ("b", False),
        ),
        ([{"action": "handled"}, {"action": "transform", "text": "late"}], (None, True)),
    ],
)
async def test_input_accepts_pi_actions(
    make_runner: MakeRunner, returns: list[dict[str, Any]], expected: tuple[str | None, bool]
) -> None:
    seen: list[str] = []

    def handler(value: dict[str, Any]) -> Any:
        def fn(event: InputEvent, ctx: HookContext) -> dict[str, Any]:
            seen.append(event.text)
            return value

        return fn

    built = make_runner(*(one("input", handler(r)) for r in returns))
    result = await built.emit(InputEvent(text="hello"))
    text_out, handled = expected
    if not handled and text_out == "hello":
        assert result is None
        return
    assert isinstance(result, InputResult)
    assert result.handled is handled
    if handled:
        assert len(seen) == 1  # the first "handled" wins: later handlers are not asked
    else:
        assert result.text == text_out


async def test_input_rejects_an_unknown_action(make_runner: MakeRunner) -> None:
    built = make_runner(one("input", lambda e, c: {"action": "skip"}))
    result = await built.emit(InputEvent(text="hello"))
    assert result is None
    (error,) = built.errors
    assert "action" in error.error and "continue" in error.error


async def test_user_bash_result_is_a_full_replacement(make_runner: MakeRunner) -> None:
    later: list[str] = []
    built = make_runner(
        one("user_bash", lambda e, c: {"command": "echo rewritten"}),
        one("user_bash", lambda e, c: {"result": {"output": "done remotely", "exitCode": 0}}),
        one("user_bash", lambda e, c: later.append(e.command)),
    )
    result = await built.emit(UserBashEvent(command="ls", cwd="/"))
    assert isinstance(result, UserBashResult)
    assert result.result is not None
    assert (result.result.output, result.result.exit_code) == ("done remotely", 0)
    assert later == []
