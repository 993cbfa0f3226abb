"""The extension-API examples in ``examples/hooks/`` (and pi's tools example in
``examples/pi/``), each loaded from its file into a real agent (``--hook PATH``) and
driven through the behaviour its docstring promises."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from hookline.core.messages import content_text

from .conftest import MakeAgent
from .helpers import ScriptedUI, texts

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "hooks"


def example(name: str) -> list[str]:
    path = EXAMPLES / f"{name}.py"
    assert path.is_file(), path
    return [str(path)]


async def test_plan_mode_switches_the_tool_set_and_blocks_writes(make_agent: MakeAgent) -> None:
    h = await make_agent(
        [
            {"tool_calls": [{"name": "bash", "arguments": {"command": "echo x > out.txt"}}]},
            "planned",
            {"tool_calls": [{"name": "bash", "arguments": {"command": "echo x > out.txt"}}]},
            "built",
        ],
        hook_paths=example("plan_mode"),
        ui=ScriptedUI(),
    )
    assert "write" in h.agent.get_active_tools()
    await h.runner.run_command("plan")
    assert sorted(h.agent.get_active_tools()) == ["bash", "find", "grep", "ls", "read"]
    await h.agent.prompt("plan the change")
    assert "You are in plan mode" in h.provider.requests[0].system_prompt
    blocked = [m for m in h.seen_by_model(1) if m["role"] == "tool"][-1]
    assert blocked["is_error"] and "plan mode" in content_text(blocked["content"])
    assert not (h.project / "out.txt").exists()
    await h.runner.run_command("plan")  # leave: the full tool set comes back
    assert "write" in h.agent.get_active_tools()
    await h.agent.prompt("do it")
    assert (h.project / "out.txt").read_text() == "x\n"
    assert "plan mode" not in h.provider.requests[2].system_prompt
    assert [e["data"] for e in h.entries() if e.get("custom_type") == "plan-mode"] == [
        {"enabled": True},
        {"enabled": False},
    ]


async def test_plan_mode_flag_starts_in_plan_mode(make_agent: MakeAgent) -> None:
    h = await make_agent([], hook_paths=example("plan_mode"), hook_flags=["--plan"])
    assert "write" not in h.agent.get_active_tools()


async def test_preset_applies_tools_and_thinking_and_restores_on_resume(
    make_agent: MakeAgent, project: Path
) -> None:
    (project / ".hookline").mkdir()
    (project / ".hookline" / "presets.json").write_text(
        json.dumps({"review": {"tools": ["read", "grep"], "thinking": "high"}})
    )
    ui = ScriptedUI()
    h = await make_agent(["ok"], hook_paths=example("preset"), ui=ui)
    await h.runner.run_command("preset", "nosuch")
    assert h.agent.get_active_tools() != ["read", "grep"]
    await h.runner.run_command("preset", "review")
    assert h.agent.get_active_tools() == ["read", "grep"]
    assert h.agent.get_thinking_level() == "high"
    await h.agent.prompt("look")
    assert h.provider.requests[0].thinking == "high"
    file = h.agent.session.get_session_file()
    assert file is not None
    h.agent.session.close()
    again = await make_agent([], hook_paths=example("preset"), session_file=file)
    assert again.agent.get_active_tools() == ["read", "grep"]


async def test_preset_flag(make_agent: MakeAgent) -> None:
    h = await make_agent([], hook_paths=example("preset"), hook_flags=["--preset", "explore"])
    assert sorted(h.agent.get_active_tools()) == ["find", "grep", "ls", "read"]
    assert h.agent.get_thinking_level() == "low"


async def test_dynamic_tools_are_offered_after_start_up(make_agent: MakeAgent) -> None:
    h = await make_agent(
        [
            {"tool_calls": [{"name": "clock", "arguments": {}}]},
            {"tool_calls": [{"name": "shout", "arguments": {"text": "hi"}}]},
            "done",
        ],
        hook_paths=example("dynamic_tools"),
    )
    await h.runner.run_command("add-echo", "shout >> ")
    await h.agent.prompt("what time is it, then shout")
    tools = [m for m in h.seen_by_model(2) if m["role"] == "tool"]
    assert f"(cwd {h.project})" in content_text(tools[0]["content"])
    assert content_text(tools[1]["content"]) == ">>hi"  # "/add-echo shout >> ": prefix ">>"
    assert "- shout: echo a text prefixed with '>>'" in h.provider.requests[0].system_prompt


async def test_pis_tools_example_turns_a_tool_off_and_remembers(make_agent: MakeAgent) -> None:
    tools = [str(EXAMPLES.parent / "pi" / "tools.py")]
    h = await make_agent([], hook_paths=tools)
    await h.runner.run_command("tools", "bash")
    assert "bash" not in h.agent.get_active_tools()
    await h.runner.run_command("tools", "bash")
    assert "bash" in h.agent.get_active_tools()
    await h.runner.run_command("tools", "write")
    file = h.agent.session.get_session_file()
    assert file is not None
    h.agent.session.close()
    again = await make_agent([], hook_paths=tools, session_file=file)
    active = again.agent.get_active_tools()
    assert "write" not in active and "bash" in active


async def test_trigger_compact_on_command_and_past_the_threshold(make_agent: MakeAgent) -> None:
    h = await make_agent(["one", "two", "three"], hook_paths=example("trigger_compact"))
    await h.agent.prompt("first")
    h.agent.context_window = 30_000  # the next prompt is ~22,500 tokens: past 70%
    await h.agent.prompt("word " * 18_000)
    await h.agent.wait_for_idle()
    compactions = [e for e in h.entries() if e["type"] == "compaction"]
    assert len(compactions) >= 1
    before = [e for e in h.recorded() if e.type == "session_before_compact"]
    assert before[0].custom_instructions == "Keep file names and open decisions."  # type: ignore[attr-defined]


async def test_session_name_names_from_the_first_prompt_and_the_command(
    make_agent: MakeAgent,
) -> None:
    h = await make_agent(["ok", "ok"], hook_paths=example("session_name"))
    await h.agent.prompt("Fix the login bug\nmore details")
    assert h.agent.get_session_name() == "Fix the login bug"
    await h.runner.run_command("session-name", "auth work")
    await h.agent.prompt("next")
    assert h.agent.get_session_name() == "auth work"


async def test_bookmark_labels_the_latest_entry(make_agent: MakeAgent) -> None:
    ui = ScriptedUI()
    h = await make_agent(["ok"], hook_paths=example("bookmark"), ui=ui)
    await h.agent.prompt("hello")
    leaf = h.agent.session.get_leaf_id()
    await h.runner.run_command("bookmark", "good state")
    assert h.agent.session.get_labels() == {leaf: "good state"}
    await h.runner.run_command("unbookmark")
    assert h.agent.session.get_labels() == {}
    assert h.errors == []


async def test_event_bus_example_hears_its_own_announcements(make_agent: MakeAgent) -> None:
    notes: list[str] = []

    class UI(ScriptedUI):
        def notify(self, message: str, level: str = "info") -> None:
            notes.append(message)

    h = await make_agent(["one", "two"], hook_paths=example("event_bus"), ui=UI())
    await h.agent.prompt("a")
    await h.agent.prompt("b")
    await h.runner.run_command("runs")
    assert notes[-1].startswith("2 runs ended; last: {'messages': 2, 'denials': 0}")


async def test_provider_payload_caps_and_logs(
    make_agent: MakeAgent, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "payloads.jsonl"
    monkeypatch.setenv("HOOKLINE_PAYLOAD_LOG", str(log))
    h = await make_agent(["ok"], hook_paths=example("provider_payload"))
    await h.agent.prompt("hi")
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert [r["kind"] for r in records] == ["request", "response"]
    assert records[0]["provider"] == "scripted"
    assert records[1]["status"] == 200 and records[1]["request_id"]


async def test_inline_bash_expands_before_the_model_sees_the_prompt(
    make_agent: MakeAgent,
) -> None:
    h = await make_agent(["ok", "ok"], hook_paths=example("inline_bash"))
    (h.project / "VERSION").write_text("1.2.3\n")
    await h.agent.prompt("The version is !{cat VERSION} and !{exit 4}.")
    (prompt,) = texts(h.seen_by_model(0))
    assert prompt.startswith("The version is 1.2.3 and [")
    assert "exit code 4" in prompt
    await h.agent.prompt("!{ not closed")
    assert texts(h.seen_by_model(1))[-1] == "!{ not closed"


async def test_send_user_message_commands(make_agent: MakeAgent) -> None:
    ui = ScriptedUI()
    h = await make_agent(
        [
            {"tool_calls": [{"name": "bash", "arguments": {"command": "sleep 0.3"}}]},
            "answered",
            {"text": "steered", "expect_user_contains": "focus on tests"},
        ],
        hook_paths=example("send_user_message"),
        ui=ui,
    )
    await h.runner.run_command("ask", "start")
    for _ in range(200):  # wait for the run to reach its tool call
        if not h.agent.is_idle() and h.provider.requests:
            break
        await asyncio.sleep(0.01)
    await h.runner.run_command("followup", "focus on tests")
    await h.agent.wait_for_idle()
    assert texts(h.seen_by_model(0)) == ["start"]
    assert texts(h.seen_by_model(2))[-1] == "focus on tests"
