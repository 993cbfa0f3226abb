"""pi's qna example (``examples/pi/qna.py``) in a real agent: the session's model lists the
last answer's questions, and the list lands in the input box."""

from __future__ import annotations

from pathlib import Path

from hookline.authoring.ui import ScriptedUI
from hookline.core.messages import content_text
from tests.agent.conftest import MakeAgent
from tests.modes.tui.helpers import app
from tests.modes.tui.pane import needs_tmux

from ..harness import PI_EXAMPLES
from .port_runs import input_box

HOOK = [str(PI_EXAMPLES / "qna.py")]
ASKED = "I can do it. Which database do you prefer? And TypeScript or JavaScript?"
FORM = "Q: Which database do you prefer?\nA: \n\nQ: TypeScript or JavaScript?\nA: "


class EditorUI(ScriptedUI):
    """Keeps the input box's text and the working messages."""

    def __init__(self) -> None:
        super().__init__()
        self.editor_text = ""
        self.working: list[str | None] = []

    def set_editor_text(self, text: str) -> None:
        self.editor_text = text

    def set_working_message(self, text: str | None) -> None:
        self.working.append(text)


async def test_the_questions_land_in_the_input_box(make_agent: MakeAgent) -> None:
    ui = EditorUI()
    h = await make_agent(
        [
            ASKED,
            {
                "text": FORM,
                "expect_system_contains": "You are a question extractor.",
                "expect_user_contains": ASKED,
            },
        ],
        hook_paths=HOOK,
        ui=ui,
    )
    await h.agent.prompt("set up the project")
    assert await h.runner.run_command("qna") is True
    assert h.errors == []
    request = h.provider.requests[-1]
    assert [content_text(m["content"]) for m in request.messages] == [ASKED]  # that alone
    assert ui.editor_text == FORM
    assert ui.notifications == [("info", "Questions loaded. Edit and submit when ready.")]
    model = h.agent.get_model_info().id
    assert ui.working == [f"Extracting questions using {model}...", None]


async def test_it_needs_a_ui_and_an_answer(make_agent: MakeAgent) -> None:
    ui = EditorUI()
    h = await make_agent(["unused"], hook_paths=HOOK, ui=ui)
    await h.runner.run_command("qna")
    assert ui.notifications == [("error", "No assistant messages found")]
    h.runner.set_ui(ui, False)
    await h.runner.run_command("qna")
    assert ui.notifications[-1] == ("error", "qna requires interactive mode")
    assert h.provider.remaining == 1  # the model was never asked


@needs_tmux
def test_the_questions_land_in_the_terminal_apps_input_box(tmp_path: Path) -> None:
    turns = [
        ASKED,
        {"text": FORM, "expect_system_contains": "You are a question extractor."},
    ]
    with app(tmp_path, turns, None, "--hook", HOOK[0]) as pane:
        pane.ready()
        pane.type("set up the project")
        pane.keys("Enter")
        pane.wait_for("Which database do you prefer? And TypeScript")
        pane.type("/qna")
        pane.keys("Enter")
        pane.wait_for("Questions loaded. Edit and submit when ready.")
        editor = pane.wait_for(lambda s: "Q: TypeScript or JavaScript?" in input_box(s))
        assert "Q: Which database do you prefer?" in input_box(editor)
