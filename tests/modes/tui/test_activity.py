"""The activity, without a terminal: a real agent's events in, the screen's state out.

Each test runs a real agent (``build_agent``, a scripted model, real tools,
real settings hooks) or builds real event objects, feeds what the app would
receive to an ``Activity``, and reads what the live area would show and what
the transcript would print.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from hookline import (
    AgentOptions,
    AutoRetryStartEvent,
    PermissionRequestEvent,
    ToolExecutionEndEvent,
    ToolExecutionStartEvent,
    ToolExecutionUpdateEvent,
    build_agent,
)
from hookline.claude.outcome import Outcome
from hookline.modes.tui import render
from hookline.modes.tui.activity import (
    Activity,
    AnswerEnded,
    Approval,
    Notice,
    SettingsBlocked,
    Shown,
    ToolEnded,
    Update,
    UserText,
)

BASH = "printf 'one\\ntwo\\n'"


async def _events(
    tmp_path: Path, turns: Sequence[dict[str, Any]], prompt: str, settings: Any = None
) -> list[dict[str, Any]]:
    """Everything a real agent publishes to the app over one prompt, in order."""
    project = tmp_path / "project"
    project.mkdir()
    if settings is not None:
        (project / ".claude").mkdir()
        (project / ".claude" / "settings.json").write_text(json.dumps(settings))
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"turns": list(turns)}))
    bundle = await build_agent(
        AgentOptions(
            cwd=str(project),
            model=f"scripted:{script}",
            permission_mode="bypassPermissions",
            trust_project=True,
            no_session=True,
        )
    )
    agent = bundle.agent
    events: list[dict[str, Any]] = []
    agent.subscribe(events.append)
    try:
        await agent.start()
        await agent.prompt(prompt)
    finally:
        await agent.shutdown()
    return events


def _feed(activity: Activity, events: Sequence[dict[str, Any]]) -> list[Update]:
    return [activity.apply(event) for event in events]


def _shown(updates: Sequence[Update]) -> list[Shown]:
    return [shown for update in updates for shown in update.shown]


def _with_a_call(tool_call_id: str = "b1") -> list[dict[str, Any]]:
    call = {"name": "bash", "arguments": {"command": BASH}, "id": tool_call_id}
    return [{"text": "Running it.", "tool_calls": [call]}, {"text": "It printed two lines."}]


async def test_a_turn_prints_your_message_the_answers_and_the_call(tmp_path: Path) -> None:
    activity = Activity()
    shown = _shown(_feed(activity, await _events(tmp_path, _with_a_call(), "run it")))

    assert shown[0] == UserText("run it")
    assert [s.text for s in shown if isinstance(s, AnswerEnded)] == [
        "Running it.",
        "It printed two lines.",
    ]
    (ended,) = [s for s in shown if isinstance(s, ToolEnded)]
    assert (ended.call_id, ended.tool.name, ended.tool.args) == ("b1", "bash", {"command": BASH})
    assert "one\ntwo" in ended.text and not ended.is_error
    assert [type(s) for s in shown] == [UserText, AnswerEnded, ToolEnded, AnswerEnded]
    # the turn is over: nothing streams or runs, and the next answer is a new one
    assert (activity.answer, activity.running, activity.ended) == ("", {}, {})
    assert activity.answer_number == 2


async def test_the_answer_streams_into_the_live_area_until_it_lands(tmp_path: Path) -> None:
    events = await _events(tmp_path, [{"text": "Hello there, friend."}], "hi")
    landed = next(
        i
        for i, e in enumerate(events)
        if e["type"] == "message" and e["message"]["role"] == "assistant"
    )
    activity = Activity()
    updates = _feed(activity, events[:landed])

    assert activity.answer == "Hello there, friend."
    assert any(u.answer for u in updates)  # each delta asks for the tail to be rendered
    assert activity.answer_number == 0

    update = activity.apply(events[landed])
    assert update.shown == (AnswerEnded("Hello there, friend.", "stop"),)
    assert update.usage  # the footer's counts change with each message
    assert (activity.answer, activity.answer_number) == ("", 1)


async def test_a_call_is_live_while_it_runs_then_waits_for_its_result(tmp_path: Path) -> None:
    events = await _events(tmp_path, _with_a_call("c7"), "run it")
    kinds = [e["type"] for e in events]
    started, ended = kinds.index("tool_execution_start"), kinds.index("tool_execution_end")
    activity = Activity()

    _feed(activity, events[:started])
    assert activity.running == {}
    start = activity.apply(events[started])
    assert start.calls and list(activity.running) == ["c7"]
    assert activity.running["c7"].args == {"command": BASH}

    _feed(activity, events[started + 1 : ended])
    end = activity.apply(events[ended])
    assert end.calls and end.shown == ()  # shown once its result message lands
    assert (list(activity.running), list(activity.ended)) == ([], ["c7"])


def test_a_running_call_keeps_only_the_tail_of_its_output() -> None:
    activity = Activity()
    args = {"command": "seq 100"}
    activity.apply(
        ToolExecutionStartEvent(
            tool_name="bash", tool_call_id="c1", input=args, args=args
        ).to_dict()
    )
    for i in range(100):
        partial = {"content": [{"type": "text", "text": f"line {i}\n"}], "details": None}
        update = activity.apply(
            ToolExecutionUpdateEvent(
                tool_name="bash", tool_call_id="c1", input=args, partial_result=partial
            ).to_dict()
        )
        assert update == Update()  # drawn at the spinner's tick, not per piece of output

    tool = activity.running["c1"]
    assert tool.lines == 100
    kept = tool.output.strip("\n").split("\n")
    assert kept == [f"line {i}" for i in range(100 - len(kept), 100)]
    assert len(kept) <= render.LIVE_TAIL_LINES

    activity.apply(ToolExecutionEndEvent(tool_name="bash", tool_call_id="c1").to_dict())
    result = {
        "role": "tool",
        "tool_call_id": "c1",
        "tool_name": "bash",
        "content": [{"type": "text", "text": "all 100 lines"}],
        "is_error": True,
    }
    (ended,) = activity.apply({"type": "message", "message": result}).shown
    assert isinstance(ended, ToolEnded)
    assert (ended.tool is tool, ended.text, ended.is_error) == (True, "all 100 lines", True)
    assert activity.ended == {}


def test_an_update_for_a_call_not_on_screen_is_dropped() -> None:
    activity = Activity()
    partial = {"content": [{"type": "text", "text": "late\n"}]}
    event = ToolExecutionUpdateEvent(
        tool_name="bash", tool_call_id="gone", input={}, partial_result=partial
    )
    assert activity.apply(event.to_dict()) == Update()
    assert activity.running == {}


async def test_a_settings_hook_that_blocks_a_call_is_kept_on_that_call(tmp_path: Path) -> None:
    guard = {"type": "command", "command": "echo 'no bash here' >&2; exit 2"}
    settings = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [guard]}]}}
    events = await _events(tmp_path, _with_a_call(), "run it", settings)
    assert any(e["type"] == "settings_hook_outcome" for e in events)
    activity = Activity()
    shown = _shown(_feed(activity, events))

    (ended,) = [s for s in shown if isinstance(s, ToolEnded)]
    (block,) = ended.tool.blockers
    assert (block.event, block.hook_type, block.reason) == ("PreToolUse", "command", "no bash here")
    assert block.origin.endswith(".claude/settings.json")
    assert not any(isinstance(s, SettingsBlocked) for s in shown)


def test_a_settings_hook_that_blocks_no_call_is_a_block_of_its_own() -> None:
    outcome = Outcome(
        "blocking", "not today", "h1", "command", "UserPromptSubmit", "project", "/p/settings.json"
    )
    activity = Activity()
    (shown,) = activity.apply({"type": "settings_hook_outcome", **outcome.to_dict()}).shown
    assert isinstance(shown, SettingsBlocked)
    assert (shown.block.event, shown.block.reason) == ("UserPromptSubmit", "not today")

    ran = Outcome("success", None, "h1", "command", "UserPromptSubmit", "project", "/p")
    failed = Outcome("non_blocking_error", "oops", "h1", "command", "Stop", "project", "/p")
    for quiet in (ran, failed):  # the settings hooks notify their own errors
        assert activity.apply({"type": "settings_hook_outcome", **quiet.to_dict()}) == Update()


def test_a_retried_model_call_is_a_warning() -> None:
    event = AutoRetryStartEvent(attempt=1, max_attempts=3, delay_ms=250, error="overloaded")
    update = Activity().apply(event.to_dict())
    assert update.shown == (
        Notice("model call failed (overloaded); retry 1/3 in 250 ms", "warning"),
    )


def test_a_replayed_session_prints_its_messages() -> None:
    """``/resume`` replays messages through the same path as live ones."""
    activity = Activity()
    hidden = {"role": "custom", "custom_type": "note", "content": "x", "display": False}
    shown = {"role": "custom", "custom_type": "note", "content": "y"}
    assert activity.message(hidden).shown == ()
    (custom,) = activity.message(shown).shown
    assert custom.message is shown  # type: ignore[union-attr]
    user = {"role": "user", "content": [{"type": "text", "text": "hello"}]}
    assert activity.message(user).shown == (UserText("hello"),)


def test_a_call_waits_for_its_approval_until_it_runs_or_ends() -> None:
    activity = Activity()
    args = {"path": "notes.md", "content": "hi"}
    start = ToolExecutionStartEvent(tool_name="write", tool_call_id="w1", input=args, args=args)
    activity.apply(start.to_dict())
    asked = PermissionRequestEvent(tool_name="write", tool_call_id="w1", input=args)
    assert activity.apply(asked.to_dict()).calls  # the preview is drawn now
    assert activity.approval == Approval("w1", "write", args)

    # another call's events leave it pending; this call's first output settles it
    partial = {"content": [{"type": "text", "text": "x"}], "details": None}
    other = ToolExecutionUpdateEvent(
        tool_name="bash", tool_call_id="b9", input={}, partial_result=partial
    )
    activity.apply(other.to_dict())
    assert activity.approval is not None
    activity.apply(ToolExecutionEndEvent(tool_name="write", tool_call_id="w1").to_dict())
    assert activity.approval is None

    # a run that ends (stopped while the dialog was up) leaves none behind
    activity.apply(asked.to_dict())
    activity.apply({"type": "agent_end", "message_count": 2, "denials": []})
    assert activity.approval is None
