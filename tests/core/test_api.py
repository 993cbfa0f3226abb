"""``HookAPI`` registration, runner queries, commands, errors, result coercion, events."""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from hookline.core.api import ExtensionAPI, HookAPI, LoadedHook, UnknownEventError
from hookline.core.context import CommandContext, HookContext
from hookline.core.events import (
    EVENT_NAMES,
    EVENT_TYPES,
    SessionCompactingEvent,
    ToolCallEvent,
    ToolResultEvent,
    TurnStartEvent,
)
from hookline.core.host import DetachedHost, ModelInfo
from hookline.core.messages import Content, CustomMessage, text
from hookline.core.results import (
    InputResult,
    InvalidResultError,
    SessionBeforeBranchResult,
    ToolCallResult,
    ToolResultResult,
    coerce_result,
)
from hookline.core.runner import HookError, HookRunner
from hookline.core.tool import Tool, ToolResult

from .helpers import MakeRunner


class RecordingHost:
    """An ``AgentHost`` that records every call in order."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []
        self.prompt = "host prompt"

    def send_message(self, message: CustomMessage, trigger_turn: bool) -> None:
        self.calls.append(("send_message", message["custom_type"], trigger_turn))

    def send(self, text: str, attachments: list[Content] | None) -> None:
        self.calls.append(("send", text, attachments))

    def append_entry(self, custom_type: str, data: Any) -> None:
        self.calls.append(("append_entry", custom_type, data))

    def get_system_prompt(self) -> str:
        return self.prompt

    def set_system_prompt(self, prompt: str) -> None:
        self.prompt = prompt

    async def wait_for_idle(self) -> None:
        self.calls.append(("wait_for_idle",))

    async def new_session(
        self,
        parent_session: str | None,
        setup: Callable[[Any], Awaitable[None] | None] | None,
    ) -> bool:
        self.calls.append(("new_session", parent_session))
        if setup is not None:
            setup("session-manager")
        return True


def turn() -> TurnStartEvent:
    return TurnStartEvent(turn_index=0, timestamp=0.0)


# -- on() ----------------------------------------------------------------------------


async def test_on_as_decorator_and_as_call(make_runner: MakeRunner) -> None:
    ran: list[str] = []

    def setup(api: HookAPI) -> None:
        @api.on("turn_start")
        def decorated(event: TurnStartEvent, ctx: HookContext) -> None:
            ran.append("decorated")

        def plain(event: TurnStartEvent, ctx: HookContext) -> None:
            ran.append("plain")

        returned = api.on("turn_start", plain)
        assert returned is plain
        assert callable(decorated)  # the decorator returns the function itself

    built = make_runner(setup)
    await built.emit(turn())
    assert ran == ["decorated", "plain"]


def test_unknown_event_raises_with_suggestion() -> None:
    api = HookAPI(LoadedHook("h.py"))
    with pytest.raises(
        UnknownEventError, match=r"unknown event 'tool_cal'.*did you mean 'tool_call'"
    ):
        api.on("tool_cal", lambda e, c: None)
    with pytest.raises(UnknownEventError, match="unknown event"):
        api.on("toolCall")
    assert api.hook.handlers == {}


def test_unknown_event_without_close_match() -> None:
    api = HookAPI(LoadedHook("h.py"))
    with pytest.raises(UnknownEventError) as info:
        api.on("zzzzzzzzzz", lambda e, c: None)
    assert "did you mean" not in str(info.value)
    assert isinstance(info.value, ValueError)


def test_non_callable_handler_rejected() -> None:
    api = HookAPI(LoadedHook("h.py"))
    with pytest.raises(TypeError, match="not callable"):
        api.on("turn_start", "nope")  # type: ignore[call-overload]


def test_extension_api_is_hook_api() -> None:
    assert ExtensionAPI is HookAPI


def test_every_design_event_name_is_known() -> None:
    names = {
        "tool_call", "tool_result", "context", "before_agent_start", "agent_start", "agent_end",
        "turn_start", "turn_end", "session_start", "session_before_switch", "session_switch",
        "session_before_branch", "session_branch", "session_before_fork", "session_fork",
        "session_before_compact", "session.compacting", "session_compact",
        "session_before_tree", "session_tree", "session_shutdown", "auto_compaction_start",
        "auto_compaction_end", "auto_retry_start", "auto_retry_end", "ttsr_triggered",
        "todo_reminder", "model_select", "input", "user_bash", "user_python",
        "tool_execution_start",
        "tool_execution_update", "tool_execution_end", "stop", "subagent_start",
        "subagent_stop", "notification", "permission_request", "empty_reply_nudge",
        "message_start", "message_update", "message_end", "before_provider_request",
        "after_provider_response", "instructions_loaded", "mcp_notification",
        "resources_discover",
    }  # fmt: skip
    assert names == set(EVENT_NAMES)
    for name, cls in EVENT_TYPES.items():
        assert cls.type == name


# -- queries ---------------------------------------------------------------------------


def _tool(name: str, description: str) -> Tool:
    async def execute(call_id: str, params: dict[str, Any], signal: Any, update: Any) -> ToolResult:
        return ToolResult(content=[text(description)])

    return Tool(name=name, description=description, parameters={}, execute=execute)


def test_commands_renderers_tools_first_loaded_wins(make_runner: MakeRunner) -> None:
    def first(api: HookAPI) -> None:
        api.register_command("deploy", lambda a, c: None, description="first")
        api.register_message_renderer("note", lambda *a: "first")
        api.register_tool(_tool("search", "first"))

    def second(api: HookAPI) -> None:
        @api.register_command("deploy", description="second")
        def deploy(args: str, ctx: Any) -> None:
            return None

        api.register_command("other", lambda a, c: None)
        api.register_message_renderer("note", lambda *a: "second")
        api.register_message_renderer("extra", lambda *a: "extra")
        api.register_tool(_tool("search", "second"))
        api.register_tool(_tool("fetch", "second"))

    runner = make_runner(first, second).runner
    cmd = runner.get_command("deploy")
    assert cmd is not None
    assert (cmd.description, cmd.hook_path) == ("first", "hook0.py")
    assert runner.get_command("missing") is None
    assert [(c.name, c.description) for c in runner.get_registered_commands()] == [
        ("deploy", "first"),
        ("deploy", "second"),
        ("other", ""),
    ]
    renderer = runner.get_message_renderer("note")
    assert renderer is not None and renderer() == "first"
    extra = runner.get_message_renderer("extra")
    assert extra is not None and extra() == "extra"
    assert runner.get_message_renderer("missing") is None
    tools = runner.get_registered_tools()
    assert list(tools) == ["search", "fetch"]
    assert tools["search"].description == "first"


def test_has_handlers(make_runner: MakeRunner) -> None:
    runner = make_runner(lambda api: api.on("tool_call", lambda e, c: None)).runner
    assert runner.has_handlers("tool_call")
    assert not runner.has_handlers("tool_result")
    assert not HookRunner().has_handlers("tool_call")


async def test_hooks_passed_to_constructor_load_in_order() -> None:
    order: list[str] = []
    hooks = []
    for tag in ("a", "b"):
        hook = LoadedHook(f"{tag}.py")
        HookAPI(hook).on("turn_start", lambda e, c, tag=tag: order.append(tag))
        hooks.append(hook)
    runner = HookRunner(hooks)
    await runner.emit(turn())
    assert order == ["a", "b"]
    assert [h.path for h in runner.hooks] == ["a.py", "b.py"]


# -- commands ---------------------------------------------------------------------------


async def test_run_command_with_command_context(make_runner: MakeRunner) -> None:
    host = RecordingHost()
    seen: list[Any] = []

    def setup(api: HookAPI) -> None:
        @api.register_command("fresh")
        async def fresh(args: str, ctx: CommandContext) -> None:
            seen.append((args, ctx.cwd, isinstance(ctx, CommandContext)))
            await ctx.wait_for_idle()
            ok = await ctx.new_session(parent_session="parent.jsonl", setup=seen.append)
            seen.append(ok)

    built = make_runner(setup)
    built.runner.bind_host(host)
    assert await built.runner.run_command("fresh", "now") is True
    assert seen == [("now", built.runner.context.cwd, True), "session-manager", True]
    assert host.calls == [("wait_for_idle",), ("new_session", "parent.jsonl")]
    assert await built.runner.run_command("nope") is False


async def test_run_command_error_is_reported(make_runner: MakeRunner) -> None:
    def setup(api: HookAPI) -> None:
        def broken(args: str, ctx: CommandContext) -> None:
            raise RuntimeError("cmd broke")

        api.register_command("broken", broken)

    built = make_runner(setup)
    assert await built.runner.run_command("broken") is True
    assert [(e.hook_path, e.event) for e in built.errors] == [("hook0.py", "command:broken")]
    assert "cmd broke" in built.errors[0].error


async def test_new_session_without_host_is_reported(make_runner: MakeRunner) -> None:
    async def cmd(args: str, ctx: CommandContext) -> None:
        await ctx.new_session()

    built = make_runner(lambda api: api.register_command("n", cmd))
    assert await built.runner.run_command("n") is True
    assert "bind_host" in built.errors[0].error


# -- errors ------------------------------------------------------------------------------


async def test_on_error_unsubscribe(make_runner: MakeRunner) -> None:
    def boom(event: TurnStartEvent, ctx: HookContext) -> None:
        raise RuntimeError("x")

    built = make_runner(lambda api: api.on("turn_start", boom))
    mine: list[HookError] = []
    unsubscribe = built.runner.on_error(mine.append)
    await built.emit(turn())
    assert len(mine) == 1
    unsubscribe()
    unsubscribe()  # twice is harmless
    await built.emit(turn())
    assert len(mine) == 1
    assert len(built.errors) == 2  # the other listener still hears


async def test_broken_error_listener_does_not_break_dispatch(make_runner: MakeRunner) -> None:
    ran: list[str] = []

    def boom(event: TurnStartEvent, ctx: HookContext) -> None:
        raise RuntimeError("x")

    def bad_listener(err: HookError) -> None:
        raise ValueError("listener broke")

    built = make_runner(
        lambda api: api.on("turn_start", boom),
        lambda api: api.on("turn_start", lambda e, c: ran.append("next")),
    )
    built.runner.on_error(bad_listener)
    late: list[HookError] = []
    built.runner.on_error(late.append)
    await built.emit(turn())
    assert ran == ["next"]
    assert len(late) == 1  # listeners after the broken one still hear


async def test_errors_go_to_log_without_listeners(caplog: pytest.LogCaptureFixture) -> None:
    hook = LoadedHook("lonely.py")

    def boom(event: TurnStartEvent, ctx: HookContext) -> None:
        raise RuntimeError("nobody listens")

    HookAPI(hook).on("turn_start", boom)
    runner = HookRunner([hook])
    with caplog.at_level("WARNING", logger="hookline"):
        await runner.emit(turn())
    assert "lonely.py" in caplog.text
    assert "nobody listens" in caplog.text


# -- results -------------------------------------------------------------------------------


def test_results_accept_snake_and_camel_case() -> None:
    r = coerce_result("tool_result", {"isError": True})
    assert isinstance(r, ToolResultResult) and r.is_error is True
    r = coerce_result("tool_result", {"is_error": False})
    assert isinstance(r, ToolResultResult) and r.is_error is False
    b = coerce_result("session_before_branch", {"skipConversationRestore": True})
    assert isinstance(b, SessionBeforeBranchResult) and b.skip_conversation_restore
    b = coerce_result("session_before_branch", {"skip_conversation_restore": True})
    assert isinstance(b, SessionBeforeBranchResult) and b.skip_conversation_restore


@pytest.mark.parametrize(
    ("event", "value", "needle"),
    [
        ("tool_call", {"blockk": True}, "blockk"),
        ("tool_result", {"is_err": True}, "is_err"),
        ("session_before_branch", {"skipRestore": True}, "skipRestore"),
        ("tool_call", {"reason": ["x"]}, "reason"),
    ],
)
def test_results_reject_bad_keys_naming_them(event: str, value: Any, needle: str) -> None:
    with pytest.raises(InvalidResultError) as info:
        coerce_result(event, value)
    assert needle in str(info.value)
    assert event in str(info.value)


def test_result_coercion_of_other_shapes() -> None:
    assert coerce_result("tool_call", None) is None
    assert coerce_result("turn_start", {"anything": 1}) is None  # no result type: ignored
    typed = ToolCallResult(block=True)
    assert coerce_result("tool_call", typed) is typed
    i = coerce_result("input", "new text")
    assert isinstance(i, InputResult) and i.text == "new text"
    with pytest.raises(InvalidResultError, match="got list"):
        coerce_result("tool_call", [1])


# -- sending before binding ------------------------------------------------------------------


async def test_sends_before_binding_are_replayed_in_order() -> None:
    hook = LoadedHook("h.py")
    api = HookAPI(hook)

    async def in_handler(event: TurnStartEvent, ctx: HookContext) -> None:
        api.send("from handler", [text("att")])
        ctx.set_system_prompt("hook prompt")

    api.on("turn_start", in_handler)
    api.send("before add_hook")  # as register(pi) would, before the runner exists
    api.append_entry("state", {"n": 1})
    runner = HookRunner()
    runner.add_hook(hook, api)
    api.send_message({"custom_type": "note", "content": "hello"}, trigger_turn=True)
    await runner.emit(turn())

    host = RecordingHost()
    runner.bind_host(host)
    assert host.calls == [
        ("send", "before add_hook", None),
        ("append_entry", "state", {"n": 1}),
        ("send_message", "note", True),
        ("send", "from handler", [text("att")]),
    ]
    assert host.prompt == "hook prompt"
    api.send("after bind")
    assert host.calls[-1] == ("send", "after bind", None)


def test_bind_host_keeps_host_prompt_when_hooks_set_none() -> None:
    runner = HookRunner()
    host = RecordingHost()
    runner.bind_host(host)
    assert host.prompt == "host prompt"
    assert runner.context.get_system_prompt() == "host prompt"


def test_send_message_requires_type_and_content() -> None:
    api = HookAPI(LoadedHook("h.py"))
    with pytest.raises(ValueError, match="custom_type"):
        api.send_message({"content": "x"})  # type: ignore[typeddict-item]


# -- exec ------------------------------------------------------------------------------------


async def test_hook_api_exec_runs_a_real_command(tmp_path: Path) -> None:
    api = HookAPI(LoadedHook("h.py"), cwd=str(tmp_path))
    result = await api.exec(sys.executable, ["-c", "import os; print(os.getcwd())"])
    assert result.code == 0
    assert Path(result.stdout.strip()).resolve() == tmp_path.resolve()


async def test_ctx_exec_runs_a_real_command(make_runner: MakeRunner, project: Path) -> None:
    got: list[Any] = []

    async def handler(event: TurnStartEvent, ctx: HookContext) -> None:
        res = await ctx.exec("sh", ["-c", "echo out; echo err >&2; pwd; exit 3"])
        got.append(res)

    built = make_runner(lambda api: api.on("turn_start", handler))
    await built.emit(turn())
    assert built.errors == []
    res = got[0]
    assert res.code == 3
    out_lines = res.stdout.splitlines()
    assert out_lines[0] == "out"
    assert Path(out_lines[1]).resolve() == project.resolve()
    assert res.stderr == "err\n"
    assert res.killed is False


async def test_ctx_exec_timeout_kills(make_runner: MakeRunner) -> None:
    got: list[Any] = []

    async def handler(event: TurnStartEvent, ctx: HookContext) -> None:
        got.append(await ctx.exec("sleep", ["30"], timeout=0.2))

    built = make_runner(lambda api: api.on("turn_start", handler))
    await built.emit(turn())
    assert got[0].killed is True
    assert got[0].timed_out is True


# -- events ------------------------------------------------------------------------------------


def test_event_to_dict() -> None:
    event = ToolCallEvent(tool_name="bash", tool_call_id="c1", input={"command": "ls"})
    d = event.to_dict()
    assert next(iter(d)) == "type"
    assert d == {
        "type": "tool_call",
        "tool_name": "bash",
        "tool_call_id": "c1",
        "input": {"command": "ls"},
        "agent_id": None,  # the main agent's own call
        "agent_type": None,
    }
    inside = ToolCallEvent(
        tool_name="bash", tool_call_id="c3", input={}, agent_id="agent-1", agent_type="scout"
    )
    assert inside.to_dict()["agent_id"] == "agent-1"  # a sub-agent's call says whose it is
    assert inside.to_dict()["agent_type"] == "scout"
    result = ToolResultEvent(tool_name="read", tool_call_id="c2", input={}, content=[text("x")])
    assert result.to_dict()["is_error"] is False
    assert result.to_dict()["details"] is None
    assert SessionCompactingEvent().to_dict() == {"type": "session.compacting", "messages": []}
    assert json.loads(json.dumps(turn().to_dict())) == {
        "type": "turn_start",
        "turn_index": 0,
        "timestamp": 0.0,
    }


def test_every_event_class_round_trips_to_dict() -> None:
    for name, cls in EVENT_TYPES.items():
        required = {
            f: "x"
            for f, field in cls.__dataclass_fields__.items()
            if field.default is field.default_factory is dataclasses.MISSING
        }
        event = cls(**required)
        d = event.to_dict()
        assert d["type"] == name
        assert set(d) == {"type", *cls.__dataclass_fields__}


def test_ctx_reads_the_session_from_its_host_at_each_read() -> None:
    class Agent(DetachedHost):
        file: str | None = "/s/one.jsonl"

        def get_session_file(self) -> str | None:
            return self.file

        def get_model_info(self) -> ModelInfo | None:
            return ModelInfo("scripted", "a", 1000)

    agent = Agent()
    ctx = HookRunner(host=agent).context
    assert (ctx.session_file, ctx.model, ctx.mode) == ("/s/one.jsonl", "scripted:a", "print")
    agent.file = "/s/two.jsonl"  # nothing to tell: the next read asks again
    assert ctx.session_file == "/s/two.jsonl"
    with pytest.raises(AttributeError):
        ctx.session_file = "/s/x.jsonl"  # type: ignore[misc]


def test_a_lent_host_answers_for_the_block_only() -> None:
    own, lent = DetachedHost(), DetachedHost()
    ctx = HookContext(".", own)
    with pytest.raises(RuntimeError), ctx.lend(lent):
        assert ctx.host is lent
        raise RuntimeError("the event failed")
    assert ctx.host is own


def test_with_no_agent_the_session_is_empty_not_none() -> None:
    """A hook reads ``ctx.session_manager`` the same way with or without an agent."""
    from hookline import SessionView

    ctx = HookContext(".", DetachedHost())
    session: SessionView = ctx.session_manager
    assert session.get_entries() == () and session.get_branch() == ()
    assert (session.get_session_file(), session.get_leaf_id(), session.get_entry("x")) == (
        None,
        None,
        None,
    )
    assert session.build_context_messages() == () and session.get_labels() == {}


def test_is_idle_is_a_bool_with_no_agent_bound() -> None:
    """``ctx.is_idle()`` answers True or False everywhere, never None."""
    assert HookContext(".").is_idle() is True


def test_send_user_message_keeps_no_deliver_as_for_the_host() -> None:
    """Without ``deliver_as`` the host decides (a busy agent refuses the message)."""
    api = HookAPI(LoadedHook(path="/x/hook.py"))
    api.send_user_message("hello")
    api.send_user_message("later", deliver_as="follow_up")
    context = HookContext(".")
    api.bind_context(context)
    pending = context.host.pending  # type: ignore[attr-defined]
    assert [(args[0]["content"], args[1]) for _, args in pending] == [
        ([{"type": "text", "text": "hello"}], None),
        ([{"type": "text", "text": "later"}], "follow_up"),
    ]
