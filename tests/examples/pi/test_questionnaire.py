"""pi's questionnaire example in Python (``examples/pi/questionnaire.py``): one question as
a list, several as tabs with a Submit tab, and the answers the model reads."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from hookline.authoring import HookHarness
from hookline.core.pipeline import ToolOutcome
from tests.examples.harness import PI_EXAMPLES, Example
from tests.modes.helpers import RpcClient, run_cli, write_script
from tests.modes.tui.helpers import app

EXAMPLE = PI_EXAMPLES / "questionnaire.py"
SCOPE = {
    "id": "scope",
    "label": "Scope",
    "prompt": "What should change?",
    "options": [{"value": "one", "label": "One file"}, {"value": "all", "label": "All files"}],
}
PRIORITY = {
    "id": "priority",
    "prompt": "How urgent?",
    "options": [{"value": "low", "label": "Low"}, {"value": "high", "label": "High"}],
    "allow_other": False,
}
TWO = {"questions": [SCOPE, PRIORITY]}


def _asked(harness: HookHarness, params: dict[str, Any]) -> asyncio.Future[ToolOutcome]:
    tool = harness.runner.get_registered_tools()["questionnaire"]
    return asyncio.ensure_future(harness.run_tool(tool, params))


def _text(outcome: ToolOutcome) -> str:
    return "".join(str(block.get("text", "")) for block in outcome.result.content)


async def test_one_question_is_a_plain_list(example: Example) -> None:
    harness = example("questionnaire", answers={})
    asked = _asked(harness, {"questions": [SCOPE]})
    shown = await harness.ui.next_component()
    screen = shown.text(60)
    assert "Submit" not in screen and "3. Type something." in screen
    assert " ↑↓ navigate • Enter select • Esc cancel" in screen
    shown.press("down", "enter")
    outcome = await asked
    assert _text(outcome) == "Scope: user selected: 2. All files"
    (answer,) = outcome.result.details["answers"]
    assert answer == {
        "id": "scope",
        "value": "all",
        "label": "All files",
        "was_custom": False,
        "index": 2,
    }


async def test_tabs_walk_the_questions_to_submit(example: Example) -> None:
    harness = example("questionnaire", answers={})
    asked = _asked(harness, TWO)
    shown = await harness.ui.next_component()
    assert shown.text(70).splitlines()[1] == " ←  □ Scope   □ Q2   ✓ Submit  →"
    assert "3. Type something." in shown.text(70)
    shown.press("down", "down", "enter")  # Scope: an answer of one's own
    shown.type("just README")
    shown.press("enter")
    screen = shown.text(70)
    assert screen.splitlines()[1] == " ←  ■ Scope   □ Q2   ✓ Submit  →"
    assert "How urgent?" in screen and "Type something." not in screen  # allow_other off
    shown.press("tab")  # to Submit, Q2 still open
    screen = shown.text(70)
    assert " Scope: (wrote) just README" in screen and " Unanswered: Q2" in screen
    shown.press("enter")  # nothing happens until all are answered
    assert not asked.done()
    shown.press("left", "down", "enter")  # back to Q2, High; on to Submit
    assert " Press Enter to submit" in shown.text(70)
    shown.press("enter")
    outcome = await asked
    assert _text(outcome) == "Scope: user wrote: just README\nQ2: user selected: 2. High"
    assert outcome.result.details["cancelled"] is False
    assert [q["label"] for q in outcome.result.details["questions"]] == ["Scope", "Q2"]


async def test_escape_cancels_and_without_a_ui_it_is_an_error(example: Example) -> None:
    harness = example("questionnaire", answers={})
    asked = _asked(harness, TWO)
    (await harness.ui.next_component()).press("escape")
    outcome = await asked
    assert _text(outcome) == "User cancelled the questionnaire"
    assert outcome.result.details["cancelled"] is True
    assert _text(await _asked(harness, {"questions": []})) == "Error: No questions provided"
    headless = await _asked(example("questionnaire"), TWO)
    assert _text(headless) == "Error: UI not available (running in non-interactive mode)"


def test_the_renderers(example: Example) -> None:
    meta = example("questionnaire").runner.get_registered_tools()["questionnaire"].meta
    assert meta["render_call"](TWO) == "2 questions (Scope, priority)"
    answers = [
        {"id": "scope", "label": "just README", "was_custom": True},
        {"id": "priority", "label": "High", "was_custom": False, "index": 2},
    ]
    details = {"questions": [], "answers": answers, "cancelled": False}
    assert meta["render_result"]("", {"details": details}) == (
        "✓ scope: (wrote) just README\n✓ priority: 2. High"
    )
    assert meta["render_result"]("", {"details": {**details, "cancelled": True}}) == "Cancelled"


CALL = {"tool_calls": [{"name": "questionnaire", "arguments": TWO}]}


def test_in_the_terminal_app_tabs_answer_and_the_model_reads_them(tmp_path: Path) -> None:
    expected = ["Scope: user selected: 1. One file", "Q2: user selected: 2. High"]
    answered = {"text": "plan made", "expect_tool_result_contains": expected}
    args = ("--hook", str(EXAMPLE), "--permission-mode", "bypassPermissions")
    with app(tmp_path, [CALL, answered], None, *args) as pane:
        pane.ready()
        pane.type("ask me")
        pane.keys("Enter")
        pane.wait_for("□ Scope")
        pane.keys("Enter")  # Scope: One file; on to Q2
        pane.wait_for("How urgent?")
        pane.keys("Down", "Enter")
        pane.wait_for("Press Enter to submit")
        pane.keys("Enter")
        screen = pane.wait_for("plan made")
        assert "✓ priority: 2. High" in screen


def test_print_mode_tells_the_model_there_is_no_ui(tmp_path: Path) -> None:
    told = {"text": "ok then", "expect_tool_result_contains": "UI not available"}
    model = write_script(tmp_path / "script.json", [CALL, told])
    done = run_cli(
        "-p", "ask me", "--model", model, "--hook", str(EXAMPLE), "--no-session",
        "--permission-mode", "bypassPermissions",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "ok then" in done.stdout


async def test_over_rpc_the_model_reads_a_cancel(tmp_path: Path) -> None:
    told = {"text": "ok then", "expect_tool_result_contains": "User cancelled the questionnaire"}
    model = write_script(tmp_path / "script.json", [CALL, told])
    args = ("--model", model, "--hook", str(EXAMPLE), "--no-session")
    async with RpcClient(*args, "--permission-mode", "bypassPermissions") as rpc:
        lines = await rpc.prompt("ask me")
    notes = [m["message"] for m in lines if m.get("method") == "notify"]
    assert any("□ Scope" in note for note in notes)  # the tabs, as text
    assert "ok then" in str(lines)
