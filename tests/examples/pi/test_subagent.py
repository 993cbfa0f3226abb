"""pi's subagent example (``examples/pi/subagent/``) in a real agent: the ``subagent`` tool
runs each agent as a real ``hookline -p --mode json`` process with its own scripted model,
tools and system prompt, alone, in parallel or in a chain."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from hookline.authoring.ui import ScriptedUI
from hookline.core.messages import content_text
from tests.agent.conftest import MakeAgent

from ..harness import PI_EXAMPLES

PACKAGE = PI_EXAMPLES / "subagent"
HOOK = [str(PACKAGE)]


def load_example() -> Any:
    """The package's module, for its pure helpers (discovery, the usage line)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("pi_subagent_example", PACKAGE / "__init__.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def agent_file(
    project: Path, name: str, turns: list[Any], body: str, tools: str | None = None
) -> Path:
    """A project agent whose model is its own script."""
    folder = project / ".hookline" / "agents"
    folder.mkdir(parents=True, exist_ok=True)
    script = project.parent / f"{name}-script.json"
    script.write_text(json.dumps({"turns": turns}))
    lines = ["---", f"name: {name}", f"description: the {name} of the tests"]
    if tools:
        lines.append(f"tools: {tools}")
    lines += [f"model: scripted:{script}", "---", "", body]
    path = folder / f"{name}.md"
    path.write_text("\n".join(lines) + "\n")
    return path


def call(**arguments: Any) -> dict[str, Any]:
    return {"tool_calls": [{"name": "subagent", "arguments": arguments}]}


def tool_result(h: Any) -> dict[str, Any]:
    return next(m for m in reversed(h.seen_by_model(-1)) if m["role"] == "tool")


def ls_then(text: str, **expect: Any) -> list[Any]:
    return [{"tool_calls": [{"name": "ls", "arguments": {"path": "."}}], **expect}, text]


async def test_one_agent_runs_as_its_own_process(make_agent: MakeAgent, project: Path) -> None:
    (project / "parser.py").write_text("")
    agent_file(
        project,
        "scout",
        ls_then(
            "Found parser.py",
            expect_system_contains="You are the test scout.",
            expect_user_contains="Task: find the parser",
        ),
        "You are the test scout.",
        tools="ls, read",
    )
    task = {"agent": "scout", "task": "find the parser", "agent_scope": "project"}
    ui = ScriptedUI().answer("confirm", True)  # yes, run the project's agent
    h = await make_agent([call(**task), "done"], hook_paths=HOOK, ui=ui)
    updates: list[str] = []
    h.agent.subscribe(
        lambda e: (
            updates.append(content_text(e["partial_result"]["content"]))
            if e.get("type") == "tool_execution_update"
            else None
        )
    )
    await h.agent.prompt("where is the parser?")
    assert updates == ["(running...)", "(running...)", "Found parser.py"]  # as messages came
    assert ui.asked[0].title == "Run project-local agents?"

    result = tool_result(h)
    assert not result["is_error"], content_text(result["content"])
    assert content_text(result["content"]) == "Found parser.py"
    details = h.entries()  # the tool result's details are in the session
    message = next(e["message"] for e in details if e.get("message", {}).get("role") == "tool")
    [run] = message["details"]["results"]
    assert run["agent"] == "scout" and run["agent_source"] == "project"
    assert run["exit_code"] == 0 and run["usage"]["turns"] == 2
    tools = [m for m in run["messages"] if m["role"] == "tool"]
    assert "parser.py" in content_text(tools[0]["content"])  # the child's own ls ran


async def test_a_chain_passes_each_answer_on(make_agent: MakeAgent, project: Path) -> None:
    agent_file(project, "scout", ["The parser is parser.py"], "You are the test scout.")
    agent_file(
        project,
        "planner",
        [
            {
                "text": "1. Edit parser.py",
                "expect_user_contains": "Plan from: The parser is parser.py",
            }
        ],
        "You are the test planner.",
    )
    chain = [
        {"agent": "scout", "task": "find the parser"},
        {"agent": "planner", "task": "Plan from: {previous}"},
    ]
    h = await make_agent(
        [call(chain=chain, agent_scope="both", confirm_project_agents=False), "done"],
        hook_paths=HOOK,
    )
    await h.agent.prompt("plan it")
    result = tool_result(h)
    assert content_text(result["content"]) == "1. Edit parser.py"


async def test_parallel_tasks_and_a_failing_step(make_agent: MakeAgent, project: Path) -> None:
    agent_file(project, "scout", ["scouted"], "You are the test scout.")
    tasks = [
        {"agent": "scout", "task": "one"},
        {"agent": "scout", "task": "two"},
        {"agent": "nobody", "task": "three"},
    ]
    chain = [{"agent": "nobody", "task": "x"}, {"agent": "scout", "task": "{previous}"}]
    h = await make_agent(
        [
            call(tasks=tasks, agent_scope="project", confirm_project_agents=False),
            call(chain=chain, agent_scope="project", confirm_project_agents=False),
            "done",
        ],
        hook_paths=HOOK,
    )
    await h.agent.prompt("go")
    results = [m for m in h.seen_by_model(-1) if m["role"] == "tool"]
    parallel = content_text(results[0]["content"])
    assert parallel.startswith("Parallel: 2/3 succeeded\n\n[scout] completed: scouted")
    assert "[nobody] failed: (no output)" in parallel
    assert results[1]["is_error"]
    assert content_text(results[1]["content"]).startswith(
        'Chain stopped at step 1 (nobody): Unknown agent: "nobody". Available agents: "scout".'
    )


async def test_bad_calls_and_project_agents_declined(make_agent: MakeAgent, project: Path) -> None:
    agent_file(project, "scout", ["never"], "You are the test scout.")
    ui = ScriptedUI().answer("confirm", False)
    h = await make_agent(
        [
            call(agent="scout"),  # a task is missing: no mode
            call(agent="scout", task="look", agent_scope="project"),
            "done",
        ],
        hook_paths=HOOK,
        ui=ui,
    )
    await h.agent.prompt("go")
    texts = [content_text(m["content"]) for m in h.seen_by_model(-1) if m["role"] == "tool"]
    assert texts[0].startswith("Invalid parameters. Provide exactly one mode.\nAvailable agents: ")
    assert "planner (user)" in texts[0] and "scout (user)" in texts[0]  # the bundled ones
    assert texts[1] == "Canceled: project-local agents not approved."
    assert ui.asked[0].title == "Run project-local agents?"
    assert "Agents: scout" in ui.asked[0].detail


async def test_an_abort_ends_the_agents_process(make_agent: MakeAgent, project: Path) -> None:
    agent_file(project, "scout", [{"text": "late", "delay_ms": 60_000}], "You are the test scout.")
    task = call(agent="scout", task="wait", agent_scope="project", confirm_project_agents=False)
    h = await make_agent([task, "done"], hook_paths=HOOK)
    updates = asyncio.Event()
    h.agent.subscribe(lambda e: updates.set() if e.get("type") == "tool_execution_start" else None)
    run = asyncio.ensure_future(h.agent.prompt("go"))
    await asyncio.wait_for(updates.wait(), 30)
    h.agent.abort()
    await asyncio.wait_for(run, 30)  # not the scripted minute: the process was ended


def test_the_bundled_agents_and_the_usage_line(project: Path) -> None:
    example = load_example()
    found = example.discover_agents(str(project), "user")
    assert sorted(a.name for a in found.agents) == ["planner", "reviewer", "scout", "worker"]
    scout = next(a for a in found.agents if a.name == "scout")
    assert scout.tools == ["read", "grep", "find", "ls", "bash"]
    usage = example.UsageStats(input=1500, output=340, context_tokens=12_000, turns=2)
    assert example.format_usage(usage, "m") == "2 turns ↑1.5k ↓340 ctx:12k m"


async def test_a_workflow_command_asks_for_the_chain(make_agent: MakeAgent) -> None:
    h = await make_agent(["On it."], hook_paths=HOOK)
    await h.runner.run_command("scout-and-plan", " refactor auth ")
    await h.agent.wait_for_idle()
    prompt = content_text(h.seen_by_model(0)[-1]["content"])
    assert '1. the "scout" agent: find the code that matters for: refactor auth' in prompt
    assert "$@" not in prompt
    commands = {c.name for c in h.runner.get_registered_commands()}
    assert {"implement", "scout-and-plan", "implement-and-review"} <= commands
