"""The ``task`` tool: a sub-agent whose every tool call goes through the agent's pipeline.

The scripted model answers the main agent and the sub-agent from one script, in
order: the turns after a ``task`` call are the sub-agent's until it answers.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hookline import SubagentStartEvent, SubagentStopEvent, ToolCallEvent, ToolResultEvent
from hookline.agent.subagents import parse_agent_file
from hookline.core.messages import content_text

from .conftest import MakeAgent
from .helpers import Harness, covers


def task(prompt: str, kind: str | None = None) -> dict[str, Any]:
    args: dict[str, Any] = {"description": "sub job", "prompt": prompt}
    if kind is not None:
        args["subagent_type"] = kind
    return {"tool_calls": [{"name": "task", "arguments": args}]}


def bash(command: str) -> dict[str, Any]:
    return {"tool_calls": [{"name": "bash", "arguments": {"command": command}}]}


def agent_file(folder: Path, name: str, front: str, body: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.md"
    path.write_text(f"---\nname: {name}\n{front}---\n{body}\n")
    return path


def results(h: Harness) -> list[dict[str, Any]]:
    return [m for m in h.agent.session.build_context_messages() if m["role"] == "tool"]


def recorder_script(tmp_path: Path, name: str) -> tuple[str, Path]:
    record = tmp_path / f"{name}.jsonl"
    script = tmp_path / f"{name}.sh"
    script.write_text(f"#!/bin/sh\ncat >> {record}\necho >> {record}\n")
    script.chmod(0o755)
    return str(script), record


def lines(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


@covers("subagent_start", "subagent_stop")
async def test_task_runs_a_sub_agent_with_its_own_tool_calls(make_agent: MakeAgent) -> None:
    h = await make_agent([task("look around"), bash("echo from-sub"), "SUB-ANSWER", "main done"])
    await h.agent.prompt("delegate")
    task_msg = results(h)[0]
    assert task_msg["tool_name"] == "task"
    assert content_text(task_msg["content"]) == "SUB-ANSWER"
    start = h.event(SubagentStartEvent)
    stop = h.event(SubagentStopEvent)
    assert start.agent_type == "general-purpose" and stop.agent_type == "general-purpose"
    assert stop.last_message is not None
    assert content_text(stop.last_message["content"]) == "SUB-ANSWER"
    assert start.agent_id == stop.agent_id and start.agent_id.startswith("agent-")
    calls = [e for e in h.events(ToolCallEvent) if e.tool_name == "bash"]
    assert [(c.agent_id, c.agent_type) for c in calls] == [(start.agent_id, "general-purpose")]
    [bash_result] = [e for e in h.events(ToolResultEvent) if e.tool_name == "bash"]
    assert bash_result.agent_id == start.agent_id
    assert "from-sub" in content_text(bash_result.content)
    [task_call] = [e for e in h.events(ToolCallEvent) if e.tool_name == "task"]
    assert task_call.agent_id is None  # the main agent's own call
    # the sub-agent's conversation is its own: the main session holds only the task result
    assert [m["tool_name"] for m in results(h)] == ["task"]


async def test_agent_type_from_project_file_has_its_prompt_and_tools(
    make_agent: MakeAgent, project: Path
) -> None:
    agent_file(
        project / ".claude" / "agents",
        "reviewer",
        "description: Reviews\ntools: Read, Grep\n",
        "YOU-REVIEW",
    )
    (project / "notes.txt").write_text("NOTE-TEXT")
    h = await make_agent(
        [
            task("review it", "reviewer"),
            bash("echo should-not-run"),
            {"tool_calls": [{"name": "read", "arguments": {"path": "notes.txt"}}]},
            "REVIEWED",
            "ok",
        ]
    )
    await h.agent.prompt("go")
    sub_request = h.agent.provider.requests[1]  # type: ignore[attr-defined]
    assert sub_request.system_prompt == "YOU-REVIEW"
    assert sorted(t.name for t in sub_request.tools) == ["grep", "read"]
    third = h.agent.provider.requests[2]  # type: ignore[attr-defined]
    assert "unknown tool 'bash'" in content_text(third.messages[-1]["content"])
    fourth = h.agent.provider.requests[3]  # type: ignore[attr-defined]
    assert "NOTE-TEXT" in content_text(fourth.messages[-1]["content"])
    assert content_text(results(h)[0]["content"]) == "REVIEWED"
    assert not [e for e in h.events(ToolCallEvent) if e.tool_name == "bash"]


async def test_user_agent_types_load_untrusted_project_types_do_not(
    make_agent: MakeAgent, project: Path, isolated_home: Path
) -> None:
    agent_file(isolated_home / ".claude" / "agents", "helper", "description: Helps\n", "USER-AGENT")
    agent_file(project / ".claude" / "agents", "evil", "description: Evil\n", "EVIL")
    h = await make_agent(
        [task("x", "evil"), task("y", "helper"), "HELPED", "done"], trust_project=False
    )
    await h.agent.prompt("go")
    first, second = results(h)
    assert first["is_error"]
    assert "unknown subagent_type 'evil'; available: general-purpose, helper" in content_text(
        first["content"]
    )
    assert content_text(second["content"]) == "HELPED"
    assert h.agent.provider.requests[2].system_prompt == "USER-AGENT"  # type: ignore[attr-defined]
    assert "sub-agent types in" in h.stderr.getvalue()


async def test_settings_hooks_see_agent_fields_and_subagent_stop_can_continue(
    make_agent: MakeAgent, tmp_path: Path
) -> None:
    pre, pre_record = recorder_script(tmp_path, "pre")
    start, start_record = recorder_script(tmp_path, "start")
    stop_once = tmp_path / "stop.sh"
    marker = tmp_path / "stopped-once"
    stop_record = tmp_path / "stop.jsonl"
    stop_once.write_text(
        f"#!/bin/sh\ncat >> {stop_record}\necho >> {stop_record}\n"
        f"if [ -e {marker} ]; then exit 0; fi\n"
        f"touch {marker}\necho 'check the tests too' >&2\nexit 2\n"
    )
    stop_once.chmod(0o755)

    def entry(command: str, matcher: str | None = None) -> list[dict[str, Any]]:
        group: dict[str, Any] = {"hooks": [{"type": "command", "command": command}]}
        if matcher is not None:
            group["matcher"] = matcher
        return [group]

    h = await make_agent(
        [task("work"), bash("echo in-sub"), "FIRST-TRY", "SECOND-TRY", "done"],
        claude_settings={
            "hooks": {
                "PreToolUse": entry(pre, "Bash|Task"),  # the old name still matches
                "SubagentStart": entry(start),
                "SubagentStop": entry(str(stop_once)),
            }
        },
    )
    await h.agent.prompt("go")
    agent_id = h.event(SubagentStartEvent).agent_id
    by_tool = {p["tool_name"]: p for p in lines(pre_record)}
    assert "agent_id" not in by_tool["Agent"]
    assert by_tool["Agent"]["tool_input"]["prompt"] == "work"
    assert by_tool["Bash"]["agent_id"] == agent_id
    assert by_tool["Bash"]["agent_type"] == "general-purpose"
    [started] = lines(start_record)
    assert (started["agent_id"], started["agent_type"]) == (agent_id, "general-purpose")
    assert content_text(results(h)[0]["content"]) == "SECOND-TRY"
    stops = h.events(SubagentStopEvent)
    assert [s.stop_hook_active for s in stops] == [False, True]
    # the SubagentStop hook read the sub-agent's final words each time
    stopped = [p for p in lines(stop_record) if p.get("hook_event_name") == "SubagentStop"]
    assert [p["last_assistant_message"] for p in stopped] == ["FIRST-TRY", "SECOND-TRY"]
    assert "check the tests too" in content_text(
        h.agent.provider.requests[3].messages[-1]["content"]  # type: ignore[attr-defined]
    )


async def test_sub_agent_cannot_run_a_denied_command(make_agent: MakeAgent, project: Path) -> None:
    """Attacker: the model hides ``rm`` inside a sub-agent; the deny rule still holds."""
    victim = project / "victim.txt"
    victim.write_text("keep me")
    agent_file(project / ".claude" / "agents", "runner", "description: Runs\ntools: Bash\n", "RUN")
    h = await make_agent(
        [
            task("clean up", "runner"),
            bash(f"rm -f {victim}"),
            bash(f"echo x && rm -f {victim}"),
            "tried",
            "done",
        ],
        claude_settings={"permissions": {"deny": ["Bash(rm *)"]}},
        permission_mode="bypassPermissions",
    )
    await h.agent.prompt("go")
    assert victim.read_text() == "keep me"
    assert [e for e in h.events(ToolResultEvent) if e.tool_name == "bash"] == []  # never ran
    told = h.agent.provider.requests[2].messages[-1]  # type: ignore[attr-defined]
    assert "denied by rule Bash(rm *)" in content_text(told["content"])
    denied = [d for d in h.agent.denials if d.tool_name == "bash"]
    assert len(denied) == 2 and all(d.source == "rule" for d in denied)


async def test_sub_agent_call_blocked_by_module_hook_and_no_nesting(
    make_agent: MakeAgent, project: Path
) -> None:
    guard = """
def register(pi):
    @pi.on("tool_call")
    def guard(event, ctx):
        if event.agent_id is not None and event.tool_name == "bash":
            return {"block": True, "reason": "no bash in sub-agents"}
"""
    h = await make_agent(
        [task("x"), bash("echo hi"), task("nested"), "SUB", "done"], hooks={"guard": guard}
    )
    await h.agent.prompt("go")
    second = h.agent.provider.requests[2]  # type: ignore[attr-defined]
    assert "no bash in sub-agents" in content_text(second.messages[-1]["content"])
    third = h.agent.provider.requests[3]  # type: ignore[attr-defined]
    assert "unknown tool 'task'" in content_text(third.messages[-1]["content"])
    assert "task" not in [t.name for t in second.tools]
    assert len(h.events(SubagentStartEvent)) == 1


async def test_max_turns_and_unknown_type_are_tool_errors(
    make_agent: MakeAgent, project: Path
) -> None:
    agent_file(project / ".claude" / "agents", "short", "description: Short\nmaxTurns: 1\n", "S")
    h = await make_agent([task("x", "short"), bash("true"), "never", "done"])
    await h.agent.prompt("go")
    [result] = results(h)
    assert result["is_error"]
    assert "did not finish within 1 turns" in content_text(result["content"])
    assert len(h.events(SubagentStopEvent)) == 1


def test_agent_file_problems_are_named(tmp_path: Path) -> None:
    no_front = tmp_path / "a.md"
    no_front.write_text("just text")
    assert "no YAML front matter" in str(parse_agent_file(no_front))
    bad_tools = agent_file(tmp_path, "b", "description: d\ntools: 3\n", "x")
    assert "`tools` must be" in str(parse_agent_file(bad_tools))
    ok = parse_agent_file(
        agent_file(tmp_path, "c", "description: d\ntools: [Read, Edit]\nmodel: inherit\n", "")
    )
    assert not isinstance(ok, str)
    assert ok.tools == frozenset({"read", "edit"}) and ok.model is None
    assert ok.system_prompt is None


async def test_script_turns_can_check_which_agent_they_answer(
    make_agent: MakeAgent, project: Path
) -> None:
    agent_file(project / ".claude" / "agents", "scout", "description: Scouts\n", "SCOUT-PROMPT")
    good = await make_agent(
        [
            task("go", "scout"),
            {"text": "SCOUTED", "expect_system_contains": "SCOUT-PROMPT"},
            {"text": "done", "expect_tool_result_contains": "SCOUTED"},
        ]
    )
    await good.agent.prompt("go")
    assert content_text(results(good)[0]["content"]) == "SCOUTED"

    wrong = await make_agent(
        [task("go"), {"text": "x", "expect_system_contains": "SCOUT-PROMPT"}, "done"]
    )
    await wrong.agent.prompt("go")
    [result] = results(wrong)
    assert result["is_error"]
    assert "expect_system_contains: expected the system prompt to contain 'SCOUT-PROMPT'" in (
        content_text(result["content"])
    )
    assert len(wrong.events(SubagentStopEvent)) == 1  # the sub-agent still ends visibly


async def test_project_agent_types_make_interactive_mode_ask_for_trust(project: Path) -> None:
    import io

    from hookline.agent.setup import AgentOptions, build_agent

    agent_file(project / ".claude" / "agents", "helper", "description: Helps\n", "H")
    asked: list[str] = []

    async def ask(cwd: str) -> bool:
        asked.append(cwd)
        return False

    bundle = await build_agent(
        AgentOptions(cwd=str(project), no_session=True, interactive=True),
        stderr=io.StringIO(),
        ask_trust=ask,
    )
    assert asked == [str(project)]
    assert not bundle.trusted


HAS_UI_PROBE = """\
import json, os

def register(pi):
    def note(event, ctx):
        with open(os.environ["HAS_UI_LOG"], "a") as log:
            log.write(json.dumps([event.type, event.tool_name, event.agent_id is not None,
                                  ctx.has_ui, type(ctx.ui).__name__, ctx.cwd]) + "\\n")

    pi.on("tool_call", note)
    pi.on("tool_result", note)
"""


async def test_a_sub_agents_tool_calls_see_no_ui(
    make_agent: MakeAgent, tmp_path: Path, project: Path, monkeypatch: Any
) -> None:
    from hookline.core.ui import NoUI

    log = tmp_path / "has_ui.jsonl"
    monkeypatch.setenv("HAS_UI_LOG", str(log))

    class Shown(NoUI):
        """A UI the agent's own calls see (``has_ui`` true, as in RPC and the terminal)."""

    h = await make_agent(
        [task("look"), bash("echo sub"), "SUB", bash("echo main"), "done"],
        hooks={"probe": HAS_UI_PROBE},
        ui=Shown(),
    )
    await h.agent.prompt("delegate")
    seen = [tuple(x) for x in lines(log)]  # type: ignore[arg-type]
    cwd = str(project)
    assert seen == [
        ("tool_call", "task", False, True, "DialogPausingUI", cwd),
        ("tool_call", "bash", True, False, "NoUI", cwd),
        ("tool_result", "bash", True, False, "NoUI", cwd),
        ("tool_result", "task", False, True, "DialogPausingUI", cwd),
        ("tool_call", "bash", False, True, "DialogPausingUI", cwd),
        ("tool_result", "bash", False, True, "DialogPausingUI", cwd),
    ]


TOOL_UI_PROBE = """\
import json, os
from hookline import Tool, ToolResult

def register(pi):
    async def probe(tool_call_id, params, signal, on_update, ctx):
        with open(os.environ["HAS_UI_LOG"], "a") as log:
            log.write(json.dumps([ctx.has_ui, type(ctx.ui).__name__]) + "\\n")
        return ToolResult([{"type": "text", "text": "probed"}])

    pi.register_tool(Tool("probe", "probe the ctx", {"type": "object"}, probe))
"""


async def test_a_hook_tool_called_by_a_sub_agent_sees_no_ui(
    make_agent: MakeAgent, tmp_path: Path, monkeypatch: Any
) -> None:
    from hookline.core.ui import NoUI

    log = tmp_path / "tool_ui.jsonl"
    monkeypatch.setenv("HAS_UI_LOG", str(log))
    probe = {"tool_calls": [{"name": "probe", "arguments": {}}]}
    h = await make_agent(
        [task("look"), probe, "SUB", probe, "done"], hooks={"probe": TOOL_UI_PROBE}, ui=NoUI()
    )
    await h.agent.prompt("delegate")
    assert [tuple(x) for x in lines(log)] == [(False, "NoUI"), (True, "DialogPausingUI")]  # type: ignore[arg-type]
