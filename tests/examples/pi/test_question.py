"""pi's question example in Python (``examples/pi/question.py``): the options, the inline
editor for "Type something.", and the answer the model reads."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from hookline.authoring import HookHarness
from hookline.core.pipeline import ToolOutcome
from tests.examples.harness import PI_EXAMPLES, Example
from tests.modes.helpers import RpcClient, run_cli, write_script
from tests.modes.tui.helpers import app

EXAMPLE = PI_EXAMPLES / "question.py"
FRUIT = {
    "question": "Which fruit?",
    "options": [{"label": "apple"}, {"label": "banana", "description": "yellow"}],
}


def _asked(harness: HookHarness, params: dict[str, Any]) -> asyncio.Future[ToolOutcome]:
    tool = harness.runner.get_registered_tools()["question"]
    return asyncio.ensure_future(harness.run_tool(tool, params))


def _text(outcome: ToolOutcome) -> str:
    return "".join(str(block.get("text", "")) for block in outcome.result.content)


async def test_arrows_and_enter_pick_an_option(example: Example) -> None:
    harness = example("question", answers={})
    asked = _asked(harness, FRUIT)
    shown = await harness.ui.next_component()
    assert shown.text(40).splitlines()[1:7] == [
        " Which fruit?",
        "",
        "> 1. apple",
        "  2. banana",
        "     yellow",
        "  3. Type something.",
    ]
    shown.press("down")
    assert "> 2. banana" in shown.text(40)
    shown.press("enter")
    outcome = await asked
    assert _text(outcome) == "User selected: 2. banana"
    assert outcome.result.details == {
        "question": "Which fruit?",
        "options": ["apple", "banana"],
        "answer": "banana",
        "was_custom": False,
    }


async def test_type_something_opens_the_editor_inline(example: Example) -> None:
    harness = example("question", answers={})
    asked = _asked(harness, FRUIT)
    shown = await harness.ui.next_component()
    shown.press("down", "down", "enter")
    screen = shown.text(40)
    assert "> 3. Type something. ✎" in screen and " Your answer:" in screen
    assert "Enter to submit • Esc to go back" in screen
    shown.press("enter")  # nothing typed: back to the options
    assert "Your answer:" not in shown.text(40) and not asked.done()
    shown.press("enter")
    shown.type("kiwi")
    assert "kiwi" in shown.text(40)
    shown.press("escape")  # Esc in the editor goes back, forgetting the text
    assert "kiwi" not in shown.text(40) and "↑↓ navigate" in shown.text(40)
    shown.press("enter")
    shown.type("  kiwi ")
    shown.press("enter")
    outcome = await asked
    assert _text(outcome) == "User wrote: kiwi"
    assert outcome.result.details["was_custom"] is True


async def test_escape_cancels_and_without_a_ui_it_is_an_error(example: Example) -> None:
    harness = example("question", answers={})
    asked = _asked(harness, FRUIT)
    (await harness.ui.next_component()).press("escape")
    outcome = await asked
    assert _text(outcome) == "User cancelled the selection"
    assert outcome.result.details["answer"] is None
    empty = await _asked(harness, {"question": "?", "options": []})
    assert _text(empty) == "Error: No options provided"
    headless = await _asked(example("question"), FRUIT)
    assert _text(headless) == "Error: UI not available (running in non-interactive mode)"


def test_the_renderers_number_the_options_and_show_the_answer(example: Example) -> None:
    meta = example("question").runner.get_registered_tools()["question"].meta
    render_call, render_result = meta["render_call"], meta["render_result"]
    assert render_call(FRUIT) == ("Which fruit?  Options: 1. apple, 2. banana, 3. Type something.")
    details = {"question": "q", "options": ["apple", "banana"], "answer": "banana"}
    assert render_result("", {"details": {**details, "was_custom": False}}) == "✓ 2. banana"
    wrote = {**details, "answer": "kiwi", "was_custom": True}
    assert render_result("", {"details": wrote}) == "✓ (wrote) kiwi"
    assert render_result("", {"details": {**details, "answer": None}}) == "Cancelled"
    assert render_result("plain", {}) == "plain"


CALL = {"tool_calls": [{"name": "question", "arguments": FRUIT}]}


def test_in_the_terminal_app_keys_pick_and_the_model_reads_the_answer(tmp_path: Path) -> None:
    answered = {"text": "banana it is", "expect_tool_result_contains": "User selected: 2. banana"}
    args = ("--hook", str(EXAMPLE), "--permission-mode", "bypassPermissions")
    with app(tmp_path, [CALL, answered], None, *args) as pane:
        pane.ready()
        pane.type("ask me")
        pane.keys("Enter")
        screen = pane.wait_for("3. Type something.")
        assert "> 1. apple" in screen and "Which fruit?" in screen
        pane.keys("Down")
        pane.wait_for("> 2. banana")
        pane.keys("Enter")
        screen = pane.wait_for("banana it is")
        assert "✓ 2. banana" in screen  # the result renderer, from the details
        assert "Which fruit?  Options: 1. apple, 2. banana" in screen


def test_in_the_terminal_app_the_user_writes_an_answer(tmp_path: Path) -> None:
    answered = {"text": "kiwi noted", "expect_tool_result_contains": "User wrote: kiwi"}
    args = ("--hook", str(EXAMPLE), "--permission-mode", "bypassPermissions")
    with app(tmp_path, [CALL, answered], None, *args) as pane:
        pane.ready()
        pane.type("ask me")
        pane.keys("Enter")
        pane.wait_for("3. Type something.")
        pane.keys("Down", "Down", "Enter")
        pane.wait_for("Your answer:")
        pane.type("kiwi")
        pane.keys("Enter")
        screen = pane.wait_for("kiwi noted")
        assert "✓ (wrote) kiwi" in screen


def test_print_mode_tells_the_model_there_is_no_ui(tmp_path: Path) -> None:
    told = {"text": "ok then", "expect_tool_result_contains": "UI not available"}
    model = write_script(tmp_path / "script.json", [CALL, told])
    done = run_cli(
        "-p", "ask me", "--model", model, "--hook", str(EXAMPLE), "--no-session",
        "--permission-mode", "bypassPermissions",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "ok then" in done.stdout


async def test_rpc_shows_the_question_and_the_model_reads_a_cancel(tmp_path: Path) -> None:
    told = {"text": "ok then", "expect_tool_result_contains": "User cancelled the selection"}
    model = write_script(tmp_path / "script.json", [CALL, told])
    args = ("--model", model, "--hook", str(EXAMPLE), "--no-session")
    async with RpcClient(*args, "--permission-mode", "bypassPermissions") as rpc:
        lines = await rpc.prompt("ask me")
    notes = [m for m in lines if m.get("method") == "notify"]
    assert any("1. apple" in n["message"] for n in notes)  # the summary of the component
    assert any(m["type"] == "agent_end" for m in lines)
    assert "ok then" in str(lines)
