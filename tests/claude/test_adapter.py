"""``ClaudeHooks`` on a real ``HookRunner``: settings hooks and module hooks on one bus."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hookline.claude import BUS_EVENTS, SETTINGS_HOOK_PATH, ClaudeHooks, HookSource
from hookline.claude.adapter import HANDLERS
from hookline.core.api import HookAPI, LoadedHook
from hookline.core.events import (
    InputEvent,
    PermissionRequestEvent,
    SessionBeforeCompactEvent,
    SessionStartEvent,
    StopEvent,
    SubagentStopEvent,
    ToolCallEvent,
    ToolResultEvent,
)
from hookline.core.host import DetachedHost
from hookline.core.messages import CustomMessage
from hookline.core.results import StopResult
from hookline.core.runner import HookRunner
from hookline.core.ui import NoUI

from .conftest import ScriptFactory, source


def setup(
    tmp_path: Path, *sources: HookSource, module: LoadedHook | None = None
) -> tuple[ClaudeHooks, HookRunner]:
    runner = HookRunner(cwd=str(tmp_path))
    if module is not None:
        runner.add_hook(module)
    hooks = ClaudeHooks(list(sources), project_dir=tmp_path)
    hook = hooks.install(runner)
    assert hook.path == SETTINGS_HOOK_PATH
    return hooks, runner


def json_hook(tmp_path: Path, script: ScriptFactory, obj: dict[str, Any]) -> str:
    path = tmp_path / f"o{len(list(tmp_path.iterdir()))}.json"
    path.write_text(json.dumps(obj))
    return script(f"cat > /dev/null; cat {path}")


def bash_call(cmd: str = "ls") -> ToolCallEvent:
    return ToolCallEvent(tool_name="bash", tool_call_id="t1", input={"command": cmd})


class StopRecorder(DetachedHost):
    """A host that records what settings hooks ask of the agent."""

    def __init__(self) -> None:
        super().__init__()
        self.stops: list[str] = []
        self.sent: list[CustomMessage] = []

    def request_stop(self, reason: str) -> None:
        self.stops.append(reason)

    def send_message(self, message: CustomMessage, trigger_turn: bool) -> None:
        assert trigger_turn is False
        self.sent.append(message)


def notes(runner: HookRunner) -> list[tuple[str, str]]:
    ui = runner.context.ui
    assert isinstance(ui, NoUI)
    return ui.notifications


async def test_only_events_with_hooks_are_wired(tmp_path: Path) -> None:
    hooks, runner = setup(tmp_path, source("PostToolUseFailure", "true"))
    assert runner.has_handlers("tool_result") and not runner.has_handlers("tool_call")
    # input: a fresh prompt_id per prompt; tool_execution_start: the duration_ms clock
    assert hooks.bus_events() == ["tool_result", "input", "tool_execution_start"]


def test_every_event_that_can_be_wired_has_a_handler(tmp_path: Path) -> None:
    every = [source(claude, "true") for claudes in BUS_EVENTS.values() for claude in claudes]
    wired = ClaudeHooks(every, project_dir=tmp_path).bus_events()
    assert set(wired) == set(HANDLERS) and set(BUS_EVENTS) <= set(wired)


async def test_pre_tool_use_exit_2_blocks_with_reason(
    tmp_path: Path, script: ScriptFactory
) -> None:
    _, runner = setup(
        tmp_path,
        source("PreToolUse", script("echo 'rm is not allowed' >&2; exit 2"), matcher="Bash"),
    )
    result = await runner.emit_tool_call(bash_call())
    assert result is not None and result.block and result.reason == "rm is not allowed"
    other = ToolCallEvent(tool_name="read", tool_call_id="t2", input={"path": "x"})
    assert await runner.emit_tool_call(other) is None


async def test_updated_input_rewrites_the_call(tmp_path: Path, script: ScriptFactory) -> None:
    spec = {
        "permissionDecision": "allow",
        "updatedInput": {"file_path": "safe.py", "new_string": "Z"},
    }
    cmd = json_hook(tmp_path, script, {"hookSpecificOutput": spec})
    _, runner = setup(tmp_path, source("PreToolUse", cmd, matcher="Edit|Write"))
    ev = ToolCallEvent(
        tool_name="edit", tool_call_id="t", input={"path": "a.py", "oldText": "x", "newText": "y"}
    )
    result = await runner.emit_tool_call(ev)
    assert result is not None and not result.block
    # as in Claude Code, updatedInput replaces the input: old_string was left out
    assert result.input == {"path": "safe.py", "newText": "Z"}


class AnswerUI(NoUI):
    def __init__(self, answer: bool) -> None:
        super().__init__()
        self.answer = answer
        self.asked: list[tuple[str, str]] = []

    async def confirm(self, title: str, message: str) -> bool:
        self.asked.append((title, message))
        return self.answer


async def test_ask_is_a_typed_permission_for_the_agent(
    tmp_path: Path, script: ScriptFactory
) -> None:
    """A PreToolUse ``ask`` is not answered inline: it goes to the permission stage."""
    cmd = json_hook(
        tmp_path,
        script,
        {
            "hookSpecificOutput": {
                "permissionDecision": "ask",
                "permissionDecisionReason": "touches prod",
            }
        },
    )
    _, runner = setup(tmp_path, source("PreToolUse", cmd))
    yes = AnswerUI(True)
    runner.set_ui(yes, True)
    result = await runner.emit_tool_call(bash_call())
    assert result is not None and not result.block
    assert (result.permission, result.reason) == ("ask", "touches prod")
    assert yes.asked == []  # nobody was asked here


async def test_ask_without_reason_names_the_tool(tmp_path: Path, script: ScriptFactory) -> None:
    cmd = json_hook(tmp_path, script, {"hookSpecificOutput": {"permissionDecision": "ask"}})
    _, runner = setup(tmp_path, source("PreToolUse", cmd))
    result = await runner.emit_tool_call(bash_call())
    assert result is not None and result.permission == "ask"
    assert result.reason == "a PreToolUse hook asks before running Bash"


async def test_deny_beats_allow(tmp_path: Path, script: ScriptFactory) -> None:
    allow = json_hook(tmp_path, script, {"hookSpecificOutput": {"permissionDecision": "allow"}})
    deny = json_hook(
        tmp_path,
        script,
        {"hookSpecificOutput": {"permissionDecision": "deny", "permissionDecisionReason": "nope"}},
    )
    _, runner = setup(tmp_path, source("PreToolUse", allow, deny))
    result = await runner.emit_tool_call(bash_call())
    assert result is not None and result.block and result.reason == "nope"


async def test_post_tool_use_additional_context_reaches_result(
    tmp_path: Path, script: ScriptFactory
) -> None:
    cmd = json_hook(
        tmp_path,
        script,
        {
            "hookSpecificOutput": {
                "hookEventName": "PostToolUse",
                "additionalContext": "lint: 2 warnings",
            }
        },
    )
    _, runner = setup(tmp_path, source("PostToolUse", cmd))
    ev = ToolResultEvent(
        tool_name="write",
        tool_call_id="t",
        input={"path": "a"},
        content=[{"type": "text", "text": "wrote a"}],
    )
    result = await runner.emit_tool_result(ev)
    # Feedback is appended, never a replacement of the content another hook may have set.
    assert result is not None and result.content is None
    assert result.append == [{"type": "text", "text": "lint: 2 warnings"}]


async def test_post_tool_use_failure_blocking_feedback(
    tmp_path: Path, script: ScriptFactory
) -> None:
    _, runner = setup(
        tmp_path,
        source("PostToolUseFailure", script("echo 'try --force' >&2; exit 2")),
        source("PostToolUse", "exit 2", origin="/o.json"),
    )
    failed = ToolResultEvent(
        tool_name="bash",
        tool_call_id="t",
        input={"command": "x"},
        content=[{"type": "text", "text": "err"}],
        is_error=True,
    )
    result = await runner.emit_tool_result(failed)
    assert result is not None and result.append is not None
    assert result.append[-1] == {
        "type": "text",
        "text": "PostToolUseFailure hook feedback: try --force",
    }


async def test_user_prompt_submit_plain_stdout_added(tmp_path: Path, script: ScriptFactory) -> None:
    _, runner = setup(tmp_path, source("UserPromptSubmit", script("echo 'Current branch: main'")))
    result = await runner.emit_input(InputEvent(text="ship it"))
    assert result is not None and result.text == "ship it\n\nCurrent branch: main"


async def test_user_prompt_submit_block(tmp_path: Path, script: ScriptFactory) -> None:
    cmd = json_hook(tmp_path, script, {"decision": "block", "reason": "contains a secret"})
    _, runner = setup(tmp_path, source("UserPromptSubmit", cmd))
    result = await runner.emit_input(InputEvent(text="my key is sk-123"))
    assert result is not None and result.handled
    assert ("warning", "prompt blocked by UserPromptSubmit hook: contains a secret") in notes(
        runner
    )


async def test_stop_block_and_continue_false(tmp_path: Path, script: ScriptFactory) -> None:
    cmd = json_hook(tmp_path, script, {"decision": "block", "reason": "tests are failing"})
    _, runner = setup(tmp_path, source("Stop", cmd))
    result = await runner.emit(StopEvent(stop_hook_active=False))
    assert isinstance(result, StopResult) and result.block and result.reason == "tests are failing"

    stop = json_hook(
        tmp_path, script, {"continue": False, "stopReason": "done for today", "decision": "block"}
    )
    _, runner = setup(tmp_path, source("Stop", stop))
    host = StopRecorder()
    runner.bind_host(host)
    assert await runner.emit(StopEvent(stop_hook_active=True)) is None
    assert host.stops == ["done for today"]


async def test_stop_exit_2_and_subagent_stop(tmp_path: Path, script: ScriptFactory) -> None:
    hooks, runner = setup(
        tmp_path,
        source("Stop", script("echo 'keep going' >&2; exit 2")),
        source("SubagentStop", "echo more >&2; exit 2", origin="/s.json"),
    )
    result = await runner.emit(StopEvent())
    assert isinstance(result, StopResult) and result.reason == "keep going"
    handler = hooks.loaded_hook(["subagent_stop"]).handlers["subagent_stop"][0]
    out = await handler(SubagentStopEvent(agent_id="a"), runner.context)
    assert out == StopResult(block=True, reason="more")


async def test_session_start_context_and_env(tmp_path: Path, script: ScriptFactory) -> None:
    body = 'echo "export PROJECT_MODE=dev" >> "$CLAUDE_ENV_FILE"\necho "You are on branch main"'
    hooks, runner = setup(tmp_path, source("SessionStart", script(body), matcher="startup"))
    host = StopRecorder()
    runner.bind_host(host)
    await runner.emit(SessionStartEvent(source="startup"))
    assert host.sent == [
        {
            "role": "custom",
            "custom_type": "hook_context",
            "content": "You are on branch main",
            "display": False,
        }
    ]
    assert hooks.engine.session_env == {"PROJECT_MODE": "dev"}
    await runner.emit(SessionStartEvent(source="resume"))  # the matcher is startup only
    assert len(host.sent) == 1


async def test_pre_compact_block_cancels(tmp_path: Path) -> None:
    _, runner = setup(tmp_path, source("PreCompact", "echo 'not now' >&2; exit 2", matcher="auto"))
    result = await runner.emit(SessionBeforeCompactEvent(trigger="auto"))
    assert result is not None and getattr(result, "cancel", False)
    assert await runner.emit(SessionBeforeCompactEvent(trigger="manual")) is None


async def test_permission_request_decisions(tmp_path: Path, script: ScriptFactory) -> None:
    allow = json_hook(
        tmp_path,
        script,
        {
            "hookSpecificOutput": {
                "hookEventName": "PermissionRequest",
                "decision": {"behavior": "allow", "updatedInput": {"command": "ls -1"}},
            }
        },
    )
    _, runner = setup(tmp_path, source("PermissionRequest", allow))
    ev = PermissionRequestEvent(tool_name="bash", tool_call_id="t", input={"command": "ls"})
    result = await runner.emit(ev)
    assert result is not None and result.model_dump(exclude_none=True) == {
        "decision": "allow",
        "input": {"command": "ls -1"},
    }
    _, runner = setup(tmp_path, source("PermissionRequest", "echo no >&2; exit 2"))
    result = await runner.emit(ev)
    assert result is not None and result.model_dump(exclude_none=True) == {
        "decision": "deny",
        "reason": "no",
    }


async def test_warnings_and_system_messages_are_notified(
    tmp_path: Path, script: ScriptFactory
) -> None:
    msg = json_hook(tmp_path, script, {"systemMessage": "formatter ran"})
    _, runner = setup(tmp_path, source("PreToolUse", "echo broken >&2; exit 1", msg))
    assert await runner.emit_tool_call(bash_call()) is None
    kinds = notes(runner)
    assert ("info", "formatter ran") in kinds
    assert any(
        t == "warning" and "broken" in m and m.startswith("PreToolUse hook (command")
        for t, m in kinds
    )


def guard_module(log: list[str], block: bool) -> LoadedHook:
    hook = LoadedHook(path="guard.py")
    pi = HookAPI(hook)

    @pi.on("tool_call")
    def guard(event: ToolCallEvent, ctx: Any) -> dict[str, Any] | None:
        log.append(f"module saw {event.input['command']}")
        return {"block": True, "reason": "module says no"} if block else None

    return hook


async def test_module_and_settings_hooks_see_the_same_call(tmp_path: Path) -> None:
    seen = tmp_path / "seen.json"
    log: list[str] = []
    _, runner = setup(
        tmp_path, source("PreToolUse", f"cat > {seen}"), module=guard_module(log, block=False)
    )
    assert await runner.emit_tool_call(bash_call("make test")) is None
    assert log == ["module saw make test"]
    assert json.loads(seen.read_text())["tool_input"] == {"command": "make test"}


async def test_module_block_runs_first_and_stops_the_tool(tmp_path: Path) -> None:
    seen = tmp_path / "seen.json"
    log: list[str] = []
    _, runner = setup(
        tmp_path, source("PreToolUse", f"cat > {seen}"), module=guard_module(log, block=True)
    )
    result = await runner.emit_tool_call(bash_call())
    assert result is not None and result.block and result.reason == "module says no"
    assert not seen.exists()  # settings hooks come after module hooks: never spawned


async def test_settings_block_stops_the_tool_after_module_allows(tmp_path: Path) -> None:
    log: list[str] = []
    _, runner = setup(
        tmp_path,
        source("PreToolUse", "echo 'settings says no' >&2; exit 2"),
        module=guard_module(log, block=False),
    )
    result = await runner.emit_tool_call(bash_call())
    assert log and result is not None and result.block and result.reason == "settings says no"


async def test_callback_added_after_install_is_wired(tmp_path: Path) -> None:
    hooks, runner = setup(tmp_path)
    assert not runner.has_handlers("tool_call")

    async def deny(data: dict[str, Any], tid: str | None, ctx: Any) -> dict[str, Any]:
        return {"decision": "block", "reason": f"callback blocked {data['tool_name']}"}

    hooks.add_callback("PreToolUse", deny, matcher="Bash")
    result = await runner.emit_tool_call(bash_call())
    assert result is not None and result.block and result.reason == "callback blocked Bash"


async def test_notification_subagent_start_and_session_end_run(tmp_path: Path) -> None:
    from hookline.core.events import NotificationEvent, SessionShutdownEvent, SubagentStartEvent

    log = tmp_path / "events.log"
    sed = r"""sed -n 's/.*"hook_event_name": *"\([A-Za-z]*\)".*/\1/p'"""
    cmd = f"{{ {sed}; echo; }} >> {log}"
    _, runner = setup(
        tmp_path,
        source("Notification", cmd, matcher="idle_prompt"),
        source("SubagentStart", cmd, origin="/a.json"),
        source("SessionEnd", cmd, origin="/b.json", matcher="prompt_input_exit"),
    )
    await runner.emit(NotificationEvent(message="m", notification_type="idle_prompt"))
    await runner.emit(NotificationEvent(message="m", notification_type="permission_prompt"))
    await runner.emit(SubagentStartEvent(agent_id="a", agent_type="t"))
    await runner.emit(SessionShutdownEvent(reason="quit"))
    assert log.read_text().split() == ["Notification", "SubagentStart", "SessionEnd"]


async def test_settings_feedback_never_undoes_a_module_redaction(
    tmp_path: Path, script: ScriptFactory
) -> None:
    """A module hook redacts, a settings hook adds context: the model gets both."""
    from hookline.core.tool import Tool, ToolResult
    from hookline.core.wrapping import wrap_tool

    redactor = LoadedHook("redactor.py")
    HookAPI(redactor).on(
        "tool_result",
        lambda ev, ctx: {"content": [{"type": "text", "text": "KEY=[REDACTED]"}]},
    )
    cmd = json_hook(
        tmp_path,
        script,
        {"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "audited"}},
    )
    _, runner = setup(tmp_path, source("PostToolUse", cmd), module=redactor)

    async def execute(call_id: str, params: dict[str, Any], signal: Any, up: Any) -> ToolResult:
        return ToolResult([{"type": "text", "text": "KEY=sk-secret"}])

    tool = wrap_tool(Tool("read", "read", {"type": "object"}, execute), runner)
    result = await tool.execute("t", {"path": "x"}, None, None)
    texts = [c["text"] for c in result.content if c["type"] == "text"]
    assert texts == ["KEY=[REDACTED]", "audited"]
    assert not any("sk-secret" in t for t in texts)


async def test_failure_feedback_is_noted_on_the_reraised_error(
    tmp_path: Path, script: ScriptFactory
) -> None:
    from hookline.core.tool import Tool, ToolError, ToolResult
    from hookline.core.wrapping import wrap_tool

    _, runner = setup(
        tmp_path, source("PostToolUseFailure", script("echo 'try --force' >&2; exit 2"))
    )
    error = ToolError("boom")

    async def execute(call_id: str, params: dict[str, Any], signal: Any, up: Any) -> ToolResult:
        raise error

    tool = wrap_tool(Tool("bash", "bash", {"type": "object"}, execute), runner)
    try:
        await tool.execute("t", {"command": "x"}, None, None)
    except ToolError as raised:
        assert raised is error  # the original error, as Claude's adapter contract requires
        assert raised.__notes__ == ["PostToolUseFailure hook feedback: try --force"]
    else:
        raise AssertionError("the tool error was swallowed")


async def test_settings_hooks_are_not_cut_by_the_runner_hook_timeout(
    tmp_path: Path, script: ScriptFactory
) -> None:
    """hookTimeout applies to module handlers; a command hook keeps its own timeout."""
    _, runner = setup(
        tmp_path, source("PostToolUse", script("sleep 0.5; echo 'slow but fine' >&2; exit 2"))
    )
    runner.timeout = 0.1
    errors: list[Any] = []
    runner.on_error(errors.append)
    result = await runner.emit_tool_result(
        ToolResultEvent(tool_name="bash", tool_call_id="t", input={}, content=[])
    )
    assert errors == []
    assert result is not None and result.append is not None
    assert "slow but fine" in result.append[0]["text"]
