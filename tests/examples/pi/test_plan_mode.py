"""pi's plan-mode example (``examples/pi/plan_mode.py``) in a real agent: plan read-only,
pick "execute", and watch the steps ticked off as the model marks them done."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hookline.authoring.ui import ScriptedUI
from hookline.core.messages import content_text
from hookline.core.ui import WidgetContent, WidgetPlacement
from tests.agent.conftest import MakeAgent
from tests.modes.tui.helpers import app
from tests.modes.tui.pane import needs_tmux

from ..harness import PI_EXAMPLES

HOOK = [str(PI_EXAMPLES / "plan_mode.py")]
EXECUTE = "Execute the plan (track progress)"
PLAN = (
    "Here is what I would do.\n\n"
    "Plan:\n1. Create the parser module\n2. Write tests for the parser\n"
)


class WidgetUI(ScriptedUI):
    """Keeps the widgets a hook sets, as lists of lines."""

    def __init__(self) -> None:
        super().__init__()
        self.widgets: dict[str, Any] = {}

    def set_widget(
        self, key: str, content: WidgetContent | None, *, placement: WidgetPlacement = "above"
    ) -> None:
        if content is None:
            self.widgets.pop(key, None)
        else:
            self.widgets[key] = content


def bash(command: str) -> dict[str, Any]:
    return {"tool_calls": [{"name": "bash", "arguments": {"command": command}}]}


def said(h: Any, call: int) -> str:
    return "\n".join(content_text(m["content"]) for m in h.seen_by_model(call))


async def test_plan_then_execute_with_progress(make_agent: MakeAgent) -> None:
    ui = WidgetUI()
    ui.answer("select", EXECUTE)
    h = await make_agent(
        [
            bash("echo x > out.txt"),
            bash("cat README"),
            PLAN,
            "Made the parser. [DONE:1]",
            "Tests written. [DONE:2]",
        ],
        hook_paths=HOOK,
        ui=ui,
    )
    (h.project / "README").write_text("the project\n")
    await h.runner.run_command("plan")
    assert ui.notifications[-1] == (
        "info",
        "Plan mode enabled. Tools: read, bash, grep, find, ls, questionnaire",
    )
    assert sorted(h.agent.get_active_tools()) == ["bash", "find", "grep", "ls", "read"]
    assert ui.status.items() == [("plan-mode", "⏸ plan")]

    await h.agent.prompt("add a parser")
    await h.agent.wait_for_idle()
    assert "[PLAN MODE ACTIVE]" in said(h, 0)
    tools = [m for m in h.seen_by_model(2) if m["role"] == "tool"]
    assert tools[0]["is_error"] and "Plan mode: command blocked" in content_text(
        tools[0]["content"]
    )
    assert content_text(tools[1]["content"]) == "the project\n"  # cat is on the allowlist
    assert not (h.project / "out.txt").exists()
    assert ui.asked[-1].detail == [EXECUTE, "Stay in plan mode", "Refine the plan"]

    # "Execute" started a run: full tools, the stale plan-mode message gone, the steps given.
    execution = said(h, 3)
    assert "[PLAN MODE ACTIVE]" not in execution
    assert "Execute the plan. Start with: Parser module" in execution
    assert "Remaining steps:\n1. Parser module\n2. Tests for the parser" in execution
    assert "write" in h.agent.get_active_tools()
    assert ui.status.items() == [("plan-mode", "📋 1/2")]
    assert ui.widgets["plan-todos"] == ["☑ Parser module", "☐ Tests for the parser"]

    await h.runner.run_command("todos")
    assert ui.notifications[-1] == (
        "info",
        "Plan Progress:\n1. ✓ Parser module\n2. ○ Tests for the parser",
    )
    await h.agent.prompt("go on")
    assert "Remaining steps:\n2. Tests for the parser" in said(h, 4)
    complete = [e for e in h.entries() if e.get("custom_type") == "plan-complete"]
    assert complete[0]["content"].startswith("**Plan Complete!** ✓")
    assert ui.status.items() == [] and ui.widgets == {}
    states = [e["data"] for e in h.entries() if e.get("custom_type") == "plan-mode"]
    assert states[-1] == {"enabled": False, "todos": [], "executing": False}


async def test_a_resumed_execution_counts_the_steps_already_done(make_agent: MakeAgent) -> None:
    ui = WidgetUI()
    ui.answer("select", EXECUTE)
    h = await make_agent([PLAN, "Made the parser. [DONE:1]"], hook_paths=HOOK, ui=ui)
    await h.runner.run_command("plan")
    await h.agent.prompt("add a parser")
    await h.agent.wait_for_idle()
    file = h.agent.session.get_session_file()
    assert file is not None
    h.agent.session.close()

    ui = WidgetUI()
    again = await make_agent([], hook_paths=HOOK, session_file=file, ui=ui)
    assert ui.status.items() == [("plan-mode", "📋 1/2")]
    assert "write" in again.agent.get_active_tools()


async def test_the_flag_starts_in_plan_mode_and_stay_keeps_it(make_agent: MakeAgent) -> None:
    ui = WidgetUI()
    ui.answer("select", "Stay in plan mode")
    h = await make_agent(["No plan yet."], hook_paths=HOOK, hook_flags=["--plan"], ui=ui)
    assert "write" not in h.agent.get_active_tools()
    await h.agent.prompt("look around")
    assert ui.asked[-1].detail[0] == "Execute the plan"  # no steps were found
    assert "write" not in h.agent.get_active_tools()
    assert ui.status.items() == [("plan-mode", "⏸ plan")]


async def test_refine_sends_the_refinement_as_the_next_prompt(make_agent: MakeAgent) -> None:
    ui = WidgetUI()
    ui.answer("select", "Refine the plan", "Stay in plan mode")
    ui.answer("editor", "  also handle errors ")
    h = await make_agent([PLAN, PLAN], hook_paths=HOOK, hook_flags=["--plan"], ui=ui)
    await h.agent.prompt("add a parser")
    await h.agent.wait_for_idle()
    users = [content_text(m["content"]) for m in h.seen_by_model(1) if m["role"] == "user"]
    assert users == ["add a parser", "also handle errors"]
    assert "write" not in h.agent.get_active_tools()  # still planning


@needs_tmux
def test_plan_mode_in_the_terminal_app(tmp_path: Path) -> None:
    turns = [bash("echo x > out.txt"), PLAN, "Made the parser. [DONE:1]", "Tests written. [DONE:2]"]
    with app(tmp_path, turns, None, "--hook", HOOK[0]) as pane:
        pane.ready()
        pane.type("/plan")
        pane.keys("Enter")
        pane.wait_for(lambda s: "Plan mode enabled" in s and "⏸ plan" in s)
        pane.type("add a parser")
        pane.keys("Enter")
        pane.wait_for("Plan mode - what next?")
        pane.wait_flat(["Plan mode: command blocked"])  # the write was refused
        assert not (tmp_path / "project" / "out.txt").exists()
        pane.keys("Enter")  # execute the plan
        # the todo widget above the editor ticks off the step the model marked [DONE:1]
        pane.wait_for(lambda s: "📋 1/2" in s and "☑ Parser module\n☐ Tests for the parser" in s)
        pane.type("go on")
        pane.keys("Enter")
        pane.wait_for("Plan Complete!")
