"""Questionnaire: a ``questionnaire`` tool that asks the user one question or several.

The Python version of pi's questionnaire example. One question is a plain list of
options; several get a tab bar (``□ Scope  □ Priority  ✓ Submit``): Tab or the
arrows Left and Right move between the questions and the Submit tab, Up and Down
pick an option, Enter answers (and moves on), Esc cancels. A question allows its
own answer unless ``allow_other`` is false: "Type something." opens an editor
inline. The model reads one line per answer (``Scope: user selected: 2. All``)
and the details keep the questions and answers for the result renderer.

Run it: ``hookline --hook examples/pi/questionnaire.py`` and ask the model to use
the questionnaire tool.
"""

from __future__ import annotations

import asyncio
from dataclasses import asdict, dataclass
from typing import Any

from pydantic import BaseModel, Field

from hookline import HookAPI, HookContext, Tool, ToolResult, ToolUpdate, parse_arguments
from hookline.components import (
    TUI,
    Editor,
    EditorTheme,
    Key,
    Keybindings,
    SelectListTheme,
    matches_key,
    truncate_to_width,
)

OTHER = "Type something."


class OptionParams(BaseModel):
    value: str = Field(description="The value returned when selected")
    label: str = Field(description="Display label for the option")
    description: str | None = Field(
        default=None, description="Optional description shown below label"
    )


class QuestionParams(BaseModel):
    id: str = Field(description="Unique identifier for this question")
    label: str | None = Field(
        default=None,
        description="Short contextual label for tab bar, e.g. 'Scope', 'Priority' "
        "(defaults to Q1, Q2)",
    )
    prompt: str = Field(description="The full question text to display")
    options: list[OptionParams] = Field(description="Available options to choose from")
    allow_other: bool = Field(
        default=True, description="Allow 'Type something' option (default: true)"
    )


class QuestionnaireParams(BaseModel):
    questions: list[QuestionParams] = Field(description="Questions to ask the user")


@dataclass(frozen=True, slots=True)
class Answer:
    id: str
    value: str
    label: str
    was_custom: bool
    index: int | None = None


@dataclass(frozen=True, slots=True)
class Outcome:
    answers: list[Answer]
    cancelled: bool


def editor_theme(theme: Any) -> EditorTheme:
    return EditorTheme(
        border_color=lambda s: theme.fg("accent", s),
        select_list=SelectListTheme(
            selected_prefix=lambda s: theme.fg("accent", s),
            selected_text=lambda s: theme.fg("accent", s),
            description=lambda s: theme.fg("muted", s),
            scroll_info=lambda s: theme.fg("dim", s),
            no_match=lambda s: theme.fg("warning", s),
        ),
    )


class Questionnaire:
    """The questions as tabs (one question: no tabs), the answers so far, and the editor
    for an answer of the user's own."""

    def __init__(self, tui: TUI, theme: Any, questions: list[QuestionParams], done: Any) -> None:
        self.tui, self.theme, self.done = tui, theme, done
        self.questions = questions
        self.multi = len(questions) > 1
        self.tab = 0
        self.index = 0
        self.answers: dict[str, Answer] = {}
        self.typing_for: str | None = None
        self.editor = Editor(tui, editor_theme(theme))
        self.editor.on_submit = self._typed
        self._lines: list[str] | None = None

    # -- state ----------------------------------------------------------------------

    @property
    def on_submit_tab(self) -> bool:
        return self.tab == len(self.questions)

    def options(self) -> list[OptionParams]:
        if self.on_submit_tab:
            return []
        question = self.questions[self.tab]
        other = [OptionParams(value="__other__", label=OTHER)] if question.allow_other else []
        return [*question.options, *other]

    def all_answered(self) -> bool:
        return all(q.id in self.answers for q in self.questions)

    def _finish(self, cancelled: bool) -> None:
        self.done(Outcome(list(self.answers.values()), cancelled))

    def _answered(self, answer: Answer) -> None:
        self.answers[answer.id] = answer
        if not self.multi:
            self._finish(False)
            return
        self.tab += 1  # the next question, or the Submit tab after the last
        self.index = 0

    def _typed(self, text: str) -> None:
        if self.typing_for is None:
            return
        value = text.strip() or "(no response)"
        question_id, self.typing_for = self.typing_for, None
        self.editor.set_text("")
        self._answered(Answer(question_id, value, value, was_custom=True))

    # -- keys -----------------------------------------------------------------------

    def invalidate(self) -> None:
        self._lines = None

    def handle_input(self, data: str) -> None:
        self._keys(data)
        self._lines = None
        self.tui.request_render()

    def _keys(self, data: str) -> None:
        if self.typing_for is not None:
            if matches_key(data, Key.escape):
                self.typing_for = None
                self.editor.set_text("")
            else:
                self.editor.handle_input(data)
            return
        tabs = len(self.questions) + 1
        if self.multi and (matches_key(data, Key.tab) or matches_key(data, Key.right)):
            self.tab, self.index = (self.tab + 1) % tabs, 0
        elif self.multi and (matches_key(data, Key.shift("tab")) or matches_key(data, Key.left)):
            self.tab, self.index = (self.tab - 1) % tabs, 0
        elif self.on_submit_tab:
            if matches_key(data, Key.enter) and self.all_answered():
                self._finish(False)
            elif matches_key(data, Key.escape):
                self._finish(True)
        elif matches_key(data, Key.up):
            self.index = max(0, self.index - 1)
        elif matches_key(data, Key.down):
            self.index = min(len(self.options()) - 1, self.index + 1)
        elif matches_key(data, Key.enter):
            question, option = self.questions[self.tab], self.options()[self.index]
            if option.value == "__other__" and question.allow_other:
                self.typing_for = question.id
                self.editor.set_text("")
            else:
                answer = Answer(question.id, option.value, option.label, False, self.index + 1)
                self._answered(answer)
        elif matches_key(data, Key.escape):
            self._finish(True)

    # -- drawing --------------------------------------------------------------------

    def render(self, width: int) -> list[str]:
        if self._lines is None:
            self._lines = [truncate_to_width(line, width) for line in self._draw(width)]
        return self._lines

    def _draw(self, width: int) -> list[str]:
        th = self.theme
        lines = [th.fg("accent", "─" * width)]
        if self.multi:
            lines += [" " + self._tab_bar(), ""]
        if self.on_submit_tab and self.typing_for is None:
            lines += self._summary()
        else:
            lines += [
                th.fg("text", f" {self.questions[self.tab].prompt}"),
                "",
                *self._option_rows(),
            ]
        if self.typing_for is not None:
            lines += ["", th.fg("muted", " Your answer:")]
            lines += [f" {line}" for line in self.editor.render(width - 2)]
            lines += ["", th.fg("dim", " Enter to submit • Esc to cancel")]
        lines.append("")
        if self.typing_for is None:
            help_text = (
                " Tab/←→ navigate • ↑↓ select • Enter confirm • Esc cancel"
                if self.multi
                else " ↑↓ navigate • Enter select • Esc cancel"
            )
            lines.append(th.fg("dim", help_text))
        lines.append(th.fg("accent", "─" * width))
        return lines

    def _tab_bar(self) -> str:
        th = self.theme
        tabs = ["← "]
        for i, question in enumerate(self.questions):
            answered = question.id in self.answers
            text = f" {'■' if answered else '□'} {question.label} "
            if i == self.tab:
                tabs.append(th.bg("selectedBg", th.fg("text", text)) + " ")
            else:
                tabs.append(th.fg("success" if answered else "muted", text) + " ")
        submit = " ✓ Submit "
        if self.on_submit_tab:
            tabs.append(th.bg("selectedBg", th.fg("text", submit)) + " →")
        else:
            tabs.append(th.fg("success" if self.all_answered() else "dim", submit) + " →")
        return "".join(tabs)

    def _option_rows(self) -> list[str]:
        th, rows = self.theme, []
        for i, option in enumerate(self.options()):
            selected = i == self.index
            prefix = th.fg("accent", "> ") if selected else "  "
            numbered = f"{i + 1}. {option.label}"
            if option.value == "__other__" and self.typing_for is not None:
                rows.append(prefix + th.fg("accent", numbered + " ✎"))
            else:
                rows.append(prefix + th.fg("accent" if selected else "text", numbered))
            if option.description:
                rows.append("     " + th.fg("muted", option.description))
        return rows

    def _summary(self) -> list[str]:
        th = self.theme
        lines = [th.fg("accent", th.bold(" Ready to submit")), ""]
        for question in self.questions:
            answer = self.answers.get(question.id)
            if answer is not None:
                wrote = "(wrote) " if answer.was_custom else ""
                lines.append(
                    th.fg("muted", f" {question.label}: ") + th.fg("text", wrote + answer.label)
                )
        lines.append("")
        if self.all_answered():
            lines.append(th.fg("success", " Press Enter to submit"))
        else:
            missing = ", ".join(str(q.label) for q in self.questions if q.id not in self.answers)
            lines.append(th.fg("warning", f" Unanswered: {missing}"))
        return lines


def _details(questions: list[QuestionParams], outcome: Outcome) -> dict[str, Any]:
    return {
        "questions": [q.model_dump() for q in questions],
        "answers": [asdict(a) for a in outcome.answers],
        "cancelled": outcome.cancelled,
    }


def _error(message: str) -> ToolResult:
    details = {"questions": [], "answers": [], "cancelled": True}
    return ToolResult([{"type": "text", "text": message}], details)


async def ask(
    tool_call_id: str,
    params: dict[str, Any],
    signal: asyncio.Event | None,
    on_update: ToolUpdate | None,
    ctx: HookContext,
) -> ToolResult:
    args = parse_arguments("questionnaire", QuestionnaireParams, params)
    if not ctx.has_ui:
        return _error("Error: UI not available (running in non-interactive mode)")
    if not args.questions:
        return _error("Error: No questions provided")
    questions = [
        q.model_copy(update={"label": q.label or f"Q{i}"}) for i, q in enumerate(args.questions, 1)
    ]

    def factory(tui: TUI, theme: Any, keybindings: Keybindings, done: Any) -> Questionnaire:
        return Questionnaire(tui, theme, questions, done)

    outcome = await ctx.ui.custom(factory)
    if not isinstance(outcome, Outcome):  # no terminal to draw it: nobody answered
        outcome = Outcome([], cancelled=True)
    details = _details(questions, outcome)
    if outcome.cancelled:
        return ToolResult([{"type": "text", "text": "User cancelled the questionnaire"}], details)
    labels = {q.id: q.label for q in questions}
    lines = [
        f"{labels.get(a.id) or a.id}: user wrote: {a.label}"
        if a.was_custom
        else f"{labels.get(a.id) or a.id}: user selected: {a.index}. {a.label}"
        for a in outcome.answers
    ]
    return ToolResult([{"type": "text", "text": "\n".join(lines)}], details)


def render_call(args: dict[str, Any]) -> str:
    """``2 questions (Scope, Priority)``."""
    questions = [q for q in args.get("questions") or [] if isinstance(q, dict)]
    count = len(questions)
    text = f"{count} question{'' if count == 1 else 's'}"
    labels = ", ".join(str(q.get("label") or q.get("id", "")) for q in questions)
    return f"{text} ({truncate_to_width(labels, 40)})" if labels else text


def render_result(text: str, options: dict[str, Any]) -> str:
    """One ``✓ id: answer`` line per answer, or ``Cancelled``, from the details."""
    details = options.get("details")
    if not isinstance(details, dict):
        return text
    if details.get("cancelled"):
        return "Cancelled"
    lines = []
    for answer in details.get("answers") or []:
        if answer.get("was_custom"):
            lines.append(f"✓ {answer['id']}: (wrote) {answer['label']}")
        else:
            index = answer.get("index")
            shown = f"{index}. {answer['label']}" if index else answer["label"]
            lines.append(f"✓ {answer['id']}: {shown}")
    return "\n".join(lines)


def register(pi: HookAPI) -> None:
    pi.register_tool(
        Tool(
            "questionnaire",
            "Ask the user one or more questions. Use for clarifying requirements, getting "
            "preferences, or confirming decisions. For single questions, shows a simple "
            "option list. For multiple questions, shows a tab-based interface.",
            QuestionnaireParams,
            ask,
            meta={"render_call": render_call, "render_result": render_result},
        )
    )
