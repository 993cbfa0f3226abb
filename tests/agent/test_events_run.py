"""Payloads of the run events, each emitted by the real agent (README: events).

Every test drives ``build_agent`` with a scripted model and real tools, and
reads what the recorder hook was sent.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hookline import (
    AgentEndEvent,
    AgentStartEvent,
    AutoRetryEndEvent,
    AutoRetryStartEvent,
    BeforeAgentStartEvent,
    ContextEvent,
    EmptyReplyNudgeEvent,
    InputEvent,
    ModelSelectEvent,
    ResourcesDiscoverEvent,
    StopEvent,
    TodoReminderEvent,
    ToolCallEvent,
    ToolExecutionEndEvent,
    ToolExecutionStartEvent,
    ToolResultEvent,
    TtsrTriggeredEvent,
    TurnEndEvent,
    TurnStartEvent,
    UserBashEvent,
    UserPythonEvent,
)
from hookline.agent.providers.scripted import ScriptedProvider
from hookline.core.messages import ImageContent, content_text

from .conftest import MakeAgent
from .helpers import covers, texts

IMAGE: ImageContent = {"type": "image", "data": "iVBORw0KGgo=", "mime_type": "image/png"}


def read_then_answer(call_id: str = "r1") -> list[dict[str, object]]:
    return [
        {
            "text": "Reading it.",
            "tool_calls": [{"name": "read", "arguments": {"path": "a.txt"}, "id": call_id}],
        },
        {"text": "It says alpha.", "expect_tool_result_contains": "alpha"},
    ]


@covers("input", "before_agent_start", "agent_start", "agent_end")
async def test_input_before_agent_start_agent_start_and_agent_end(
    make_agent: MakeAgent, project: Path
) -> None:
    (project / "a.txt").write_text("alpha\n")
    h = await make_agent(read_then_answer())
    added = await h.agent.prompt("read a.txt", images=[IMAGE])

    inp = h.event(InputEvent)
    assert (inp.text, inp.images, inp.source) == ("read a.txt", [IMAGE], "interactive")

    before = h.event(BeforeAgentStartEvent)
    assert before.prompt == "read a.txt"
    assert before.images == [IMAGE]
    assert before.system_prompt == h.agent.base_system_prompt

    assert type(h.event(AgentStartEvent)) is AgentStartEvent

    end = h.event(AgentEndEvent)
    assert end.messages == added
    assert [m["role"] for m in end.messages] == ["user", "assistant", "tool", "assistant"]
    assert end.messages[0]["content"] == [{"type": "text", "text": "read a.txt"}, IMAGE]
    assert texts(end.messages)[-1] == "It says alpha."
    assert h.errors == []


@covers("turn_start", "turn_end")
async def test_turn_start_and_turn_end(make_agent: MakeAgent, project: Path) -> None:
    (project / "a.txt").write_text("alpha\n")
    h = await make_agent(read_then_answer())
    await h.agent.prompt("read a.txt")

    starts = h.events(TurnStartEvent)
    assert [s.turn_index for s in starts] == [0, 1]
    assert all(isinstance(s.timestamp, float) for s in starts)
    assert starts[0].timestamp <= starts[1].timestamp

    ends = h.events(TurnEndEvent)
    assert [e.turn_index for e in ends] == [0, 1]
    first, last = ends
    assert first.message is not None and first.message["role"] == "assistant"
    assert content_text(first.message["content"]) == "Reading it."
    assert [r["tool_call_id"] for r in first.tool_results] == ["r1"]
    assert first.tool_results[0]["role"] == "tool"
    assert content_text(first.tool_results[0]["content"]) == "alpha"
    assert last.message is not None
    assert content_text(last.message["content"]) == "It says alpha."
    assert last.tool_results == []


async def test_turn_index_restarts_at_zero_with_each_run(
    make_agent: MakeAgent, project: Path
) -> None:
    """As in pi: ``turn_index`` counts the turns of one run, and ``branch`` names them."""
    (project / "a.txt").write_text("alpha\n")
    h = await make_agent([*read_then_answer(), "second answer"])
    await h.agent.prompt("read a.txt")
    await h.agent.prompt("and now?")

    assert [s.turn_index for s in h.events(TurnStartEvent)] == [0, 1, 0]
    assert [e.turn_index for e in h.events(TurnEndEvent)] == [0, 1, 0]
    assert sorted(h.agent.turn_leaves) == [0]  # the latest run's turns
    with pytest.raises(ValueError, match="known turns: 0"):
        await h.agent.branch(1)


@covers("context")
async def test_context_carries_what_the_session_holds_at_each_model_call(
    make_agent: MakeAgent, project: Path
) -> None:
    (project / "a.txt").write_text("alpha\n")
    h = await make_agent(read_then_answer())
    await h.agent.prompt("read a.txt")

    contexts = h.events(ContextEvent)
    assert len(contexts) == 2 == len(h.provider.requests)
    assert [m["role"] for m in contexts[0].messages] == ["user"]
    assert [m["role"] for m in contexts[1].messages] == ["user", "assistant", "tool"]
    # No context hook changed them: the model got exactly these.
    for event, request in zip(contexts, h.provider.requests, strict=True):
        assert request.messages == event.messages


@covers("tool_call", "tool_result", "tool_execution_start", "tool_execution_end")
async def test_tool_events_of_a_successful_call(make_agent: MakeAgent, project: Path) -> None:
    (project / "a.txt").write_text("alpha\n")
    h = await make_agent(read_then_answer("call-7"))
    await h.agent.prompt("read a.txt")

    start = h.event(ToolExecutionStartEvent)
    assert (start.tool_name, start.tool_call_id, start.input) == (
        "read",
        "call-7",
        {"path": "a.txt"},
    )
    call = h.event(ToolCallEvent)
    assert (call.tool_name, call.tool_call_id, call.input) == ("read", "call-7", {"path": "a.txt"})
    result = h.event(ToolResultEvent)
    assert (result.tool_name, result.tool_call_id, result.input) == (
        "read",
        "call-7",
        {"path": "a.txt"},
    )
    assert result.content == [{"type": "text", "text": "alpha"}]
    assert result.details == {"path": str(project / "a.txt"), "outside_cwd": False}
    assert result.is_error is False
    end = h.event(ToolExecutionEndEvent)
    assert (end.tool_name, end.tool_call_id, end.result_text, end.is_error) == (
        "read",
        "call-7",
        "alpha",
        False,
    )
    assert end.args == {"path": "a.txt"}
    assert end.result == {"content": [{"type": "text", "text": "alpha"}], "details": result.details}


@covers("tool_result", "tool_execution_end")
async def test_tool_events_of_a_failing_call(make_agent: MakeAgent) -> None:
    h = await make_agent(
        [
            {"tool_calls": [{"name": "bash", "arguments": {"command": "echo oops; exit 3"}}]},
            {"text": "It failed.", "expect_tool_result_contains": "exited with code 3"},
        ]
    )
    await h.agent.prompt("run it")

    result = h.event(ToolResultEvent)
    assert result.is_error is True
    assert result.tool_name == "bash"
    assert "oops" in content_text(result.content)
    assert "Command exited with code 3" in content_text(result.content)
    assert result.details == {"exit_code": 3}
    end = h.event(ToolExecutionEndEvent)
    assert end.is_error is True
    assert "Command exited with code 3" in end.result_text
    assert end.result["details"] == {"exit_code": 3}
    assert h.provider.remaining == 0


@covers("stop")
async def test_stop_fires_when_the_model_is_done(make_agent: MakeAgent) -> None:
    h = await make_agent(["All done."])
    added = await h.agent.prompt("hi")

    stop = h.event(StopEvent)
    assert stop.stop_hook_active is False
    assert stop.last_message == added[-1]
    assert stop.last_message is not None
    assert content_text(stop.last_message["content"]) == "All done."


@covers("empty_reply_nudge")
async def test_an_empty_response_is_nudged_once_more(make_agent: MakeAgent) -> None:
    h = await make_agent(
        [
            {"text": ""},
            {"text": "Sorry, here it is.", "expect_user_contains": "last response was empty"},
        ]
    )
    await h.agent.prompt("answer me")

    nudge = h.event(EmptyReplyNudgeEvent)
    assert nudge.turn_index == 0
    assert nudge.message is not None
    assert nudge.message["role"] == "assistant"
    assert content_text(nudge.message["content"]) == ""
    assert h.events(TtsrTriggeredEvent) == []  # no stream rule was involved
    assert h.provider.remaining == 0
    assert h.types().count("turn_start") == 2


@covers("todo_reminder")
async def test_open_todos_remind_the_model_once_before_it_stops(make_agent: MakeAgent) -> None:
    todos = [
        {"content": "write the parser", "status": "completed"},
        {"content": "write the tests", "status": "in_progress"},
    ]
    h = await make_agent(
        [
            {"tool_calls": [{"name": "todo_write", "arguments": {"todos": todos}}]},
            "Stopping here.",
            {"text": "Tests written.", "expect_user_contains": "write the tests (in_progress)"},
            "never played",
        ],
        permission_mode="default",  # the agent's own todo list needs no approval
    )
    await h.agent.prompt("build it")

    assert [content_text(r["content"]) for r in h.events(TurnEndEvent)[0].tool_results] == [
        "[x] write the parser\n[ ] write the tests"
    ]
    reminder = h.event(TodoReminderEvent)
    assert reminder.todos == [{"content": "write the tests", "status": "in_progress"}]
    assert (reminder.attempt, reminder.max_attempts) == (1, 1)
    assert h.provider.remaining == 1  # reminded once only
    assert h.errors == []


@covers("auto_retry_start", "auto_retry_end")
async def test_a_transient_model_error_is_retried(make_agent: MakeAgent) -> None:
    h = await make_agent([{"error": {"message": "overloaded", "status": 529}}, "Recovered."])
    added = await h.agent.prompt("hi")

    start = h.event(AutoRetryStartEvent)
    assert (start.attempt, start.max_attempts, start.error) == (2, 3, "overloaded")
    base_ms = h.agent.retry.base_delay * 1000
    assert base_ms <= start.delay_ms <= base_ms * 1.25 + 1  # backoff plus jitter
    end = h.event(AutoRetryEndEvent)
    assert (end.success, end.attempt, end.final_error) == (True, 2, None)
    assert texts(added)[-1] == "Recovered."


@covers("auto_retry_start", "auto_retry_end")
async def test_a_retry_that_keeps_failing_reports_the_final_error(make_agent: MakeAgent) -> None:
    boom = {"error": {"message": "server down", "status": 503}}
    h = await make_agent([boom, boom, boom, "never played"])
    added = await h.agent.prompt("hi")

    assert [e.attempt for e in h.events(AutoRetryStartEvent)] == [2, 3]
    end = h.event(AutoRetryEndEvent)
    assert (end.success, end.attempt, end.final_error) == (False, 3, "server down")
    assert added[-1]["role"] == "assistant"
    assert added[-1].get("stop_reason") == "error"
    assert h.provider.remaining == 1


@covers("model_select")
async def test_set_model_emits_model_select(make_agent: MakeAgent) -> None:
    h = await make_agent(["from the first model"])
    first = h.agent.provider.model_id
    other = ScriptedProvider.from_turns(["from the second model"], name="second")
    await h.agent.set_model(other)

    select = h.event(ModelSelectEvent)
    assert (select.spec, select.previous_spec, select.source) == ("scripted:second", first, "set")
    # pi's Model objects
    assert (select.model["provider"], select.model["id"]) == ("scripted", "second")
    assert select.previous_model is not None
    assert select.previous_model["id"] == first.partition(":")[2]
    assert {"name", "api", "baseUrl", "contextWindow", "maxTokens"} <= select.model.keys()
    assert h.runner.context.model == "scripted:second"
    added = await h.agent.prompt("hi")
    assert texts(added)[-1] == "from the second model"
    changes = [e for e in h.entries() if e["type"] == "model_change"]
    assert [(c["model"], c["previous"]) for c in changes] == [("scripted:second", first)]


ATTRIBUTED = """\
def register(pi):
    @pi.on("before_agent_start")
    def note(event, ctx):
        return {"message": {"customType": "note", "content": "a note", "attribution": "agent"}}
"""


async def test_before_agent_start_message_keeps_its_attribution(make_agent: MakeAgent) -> None:
    h = await make_agent(["ok"], hooks={"note": ATTRIBUTED})
    added = await h.agent.prompt("hi")

    note = next(m for m in added if m["role"] == "custom")
    assert note.get("attribution") == "agent"
    entry = next(e for e in h.entries() if e["type"] == "custom_message")
    assert entry.get("attribution") == "agent"
    rebuilt = [m for m in h.agent.session.build_context_messages() if m["role"] == "custom"]
    assert [m.get("attribution") for m in rebuilt] == ["agent"]
    assert h.errors == []


USER_BASH_HOOK = """\
def register(pi):
    @pi.on("user_bash")
    def sandbox(event, ctx):
        return {"command": event.command + " && echo $SANDBOX", "env": {"SANDBOX": "on"}}
"""


@covers("user_bash")
async def test_user_bash_can_be_rewritten_by_a_hook(make_agent: MakeAgent, project: Path) -> None:
    h = await make_agent(hooks={"sandbox": USER_BASH_HOOK})
    result = await h.agent.run_user_bash("pwd")

    event = h.event(UserBashEvent)
    assert (event.command, event.cwd) == ("pwd", str(project))
    assert content_text(result.content) == f"{project}\non\n"
    assert result.details == {"exit_code": 0}
    assert h.errors == []


USER_BASH_OPERATIONS_HOOK = """\
class Recorded:
    async def exec(self, command, cwd, *, on_data, signal, timeout, env):
        on_data(f"ran {command} in {cwd} ({env['WHERE']}, {timeout:g}s)".encode())
        return 3

def register(pi):
    @pi.on("user_bash")
    def elsewhere(event, ctx):
        return {"operations": Recorded(), "env": {"WHERE": "remote"}}
"""


@covers("user_bash")
async def test_user_bash_runs_through_a_hooks_operations(
    make_agent: MakeAgent, project: Path
) -> None:
    h = await make_agent(hooks={"remote": USER_BASH_OPERATIONS_HOOK})
    result = await h.agent.run_user_bash("ls")
    assert content_text(result.content) == f"ran ls in {project} (remote, 120s)\n(exit code 3)"
    assert result.details == {"exit_code": 3}
    assert h.errors == []


USER_PYTHON_HOOK = """\
def register(pi):
    @pi.on("user_python")
    def wrap(event, ctx):
        if event.code == "remote":
            return {"result": {"output": "ran remotely", "exitCode": 0}}
        return {"code": "import os\\n" + event.code, "env": {"FROM_HOOK": "on"}}
"""


@covers("user_python")
async def test_user_python_runs_python3_after_its_hooks(
    make_agent: MakeAgent, project: Path
) -> None:
    h = await make_agent(hooks={"py": USER_PYTHON_HOOK})
    code = "print(os.getcwd(), os.environ['FROM_HOOK'])"
    result = await h.agent.run_user_python(code, exclude_from_context=True)

    event = h.event(UserPythonEvent)
    assert (event.code, event.cwd, event.exclude_from_context) == (code, str(project), True)
    assert content_text(result.content) == f"{project} on\n"
    assert result.details == {"exit_code": 0}

    failed = await h.agent.run_user_python("raise SystemExit(3)")
    assert failed.details == {"exit_code": 3}
    assert content_text(failed.content).endswith("(exit code 3)")

    remote = await h.agent.run_user_python("remote")
    assert content_text(remote.content) == "ran remotely"
    assert remote.details == {"exit_code": 0, "from_hook": True}
    assert h.errors == []


INPUT_HOOKS = """\
def register(pi):
    @pi.on("input")
    def expand(event, ctx):
        if event.text.startswith("!"):
            return event.text[1:].upper()  # pi's string form
        return None

    @pi.on("input")
    def swallow(event, ctx):
        if event.text == "/ping":
            ctx.ui.notify("pong")
            return {"handled": True}
        return {"text": event.text + " (from the editor)"}
"""


@covers("input")
async def test_input_hooks_chain_their_transforms_and_may_handle_the_prompt(
    make_agent: MakeAgent,
) -> None:
    h = await make_agent(
        [{"text": "ok", "expect_user_contains": "SHOUT (from the editor)"}, "never played"],
        hooks={"input": INPUT_HOOKS},
    )
    added = await h.agent.prompt("!shout")
    assert texts(added)[0] == "SHOUT (from the editor)"
    assert h.event(BeforeAgentStartEvent).prompt == "SHOUT (from the editor)"

    assert await h.agent.prompt("/ping") == []
    assert h.types().count("agent_start") == 1  # handled: no run
    assert [e.text for e in h.events(InputEvent)] == ["!shout", "/ping"]
    assert h.runner.context.ui.notifications == [("info", "pong")]  # type: ignore[attr-defined]
    assert h.provider.remaining == 1


CONTEXT_PROBE = """\
SEEN = []


def register(pi):
    @pi.on("turn_start")
    def probe(event, ctx):
        SEEN.append(
            {
                "cwd": ctx.cwd,
                "has_ui": ctx.has_ui,
                "model": ctx.model,
                "session_file": ctx.session_file,
                "session_id": ctx.session_manager.get_session_id(),
                "system_prompt": ctx.get_system_prompt(),
            }
        )
"""


async def test_handlers_see_the_agents_state_in_ctx(make_agent: MakeAgent, project: Path) -> None:
    h = await make_agent(["hi"], hooks={"probe": CONTEXT_PROBE})
    await h.agent.prompt("hello")
    seen = h.hook("probe").SEEN
    assert seen == [
        {
            "cwd": str(project),
            "has_ui": False,
            "model": h.agent.provider.model_id,
            "session_file": h.agent.session.get_session_file(),
            "session_id": h.agent.session.get_session_id(),
            "system_prompt": h.agent.base_system_prompt,
        }
    ]


RESOURCES_HOOK = """\
import os

HERE = os.path.dirname(__file__)

def register(pi):
    @pi.on("resources_discover")
    def extra(event, ctx):
        return {
            "skillPaths": [os.path.join(HERE, "skill", "SKILL.md")],
            "promptPaths": ["prompts"],
        }

    @pi.register_command("mine", description="my own")
    def mine(args, ctx):
        pass

    @pi.on("session_start")
    def listed(event, ctx):
        pass
"""


@covers("resources_discover")
async def test_resources_discover_adds_templates_and_skills(
    make_agent: MakeAgent, project: Path, tmp_path: Path
) -> None:
    skill = tmp_path / "hooks" / "skill" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text("---\nname: deploy\ndescription: Deploy the app\n---\nSteps.\n")
    (project / "prompts").mkdir()
    (project / "prompts" / "greet.md").write_text("---\ndescription: Greet\n---\nSay hi to $1\n")
    turns = [{"text": "ok", "expect_system_contains": ["<name>deploy</name>"]}]
    h = await make_agent(turns, hooks={"res": RESOURCES_HOOK})
    event = h.event(ResourcesDiscoverEvent)
    assert (event.cwd, event.reason) == (str(project), "startup")
    commands = [(c.name, c.source) for c in h.agent.get_commands()]
    assert commands == [("mine", "extension"), ("greet", "prompt"), ("skill:deploy", "skill")]
    await h.agent.prompt("/greet Ada")
    assert texts(h.seen_by_model())[-1] == "Say hi to Ada\n"
    assert h.errors == []
