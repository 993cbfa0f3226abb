"""Question: a ``question`` tool the model calls to ask the user to pick an option.

The Python version of pi's question example. The user sees the question and its
numbered options, with a last one, "Type something.", that opens an editor inline
for an answer of their own. Up and Down move, Enter picks, Esc in the editor goes
back to the options, Esc in the options cancels. The model reads
``User selected: 2. banana``, ``User wrote: ...`` or ``User cancelled the selection``;
the result's details keep the question, the options and the answer, which the
tool's result renderer draws. Without a UI (print mode) the tool answers with an
error the model can read.

Run it: ``hookline --hook examples/pi/question.py`` and ask the model to use the
question tool.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
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


class Option(BaseModel):
    label: str = Field(description="Display label for the option")
    description: str | None = Field(
        default=None, description="Optional description shown below label"
    )


class QuestionParams(BaseModel):
    question: str = Field(description="The question to ask the user")
    options: list[Option] = Field(description="Options for the user to choose from")


@dataclass(frozen=True, slots=True)
class Answer:
    """What the user chose: an option (``index`` counts from 1) or their own text."""

    answer: str
    was_custom: bool
    index: int | None = None


def editor_theme(theme: Any) -> EditorTheme:
    """The inline editor in the theme's accent, its completion list as pi colours it."""
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


class QuestionView:
    """The options with the cursor on one; "Type something." switches to the editor."""

    def __init__(self, tui: TUI, theme: Any, params: QuestionParams, done: Any) -> None:
        self.tui, self.theme, self.done = tui, theme, done
        self.question = params.question
        self.options = [*params.options, Option(label=OTHER)]
        self.index = 0
        self.editing = False
        self.editor = Editor(tui, editor_theme(theme))
        self.editor.on_submit = self._submitted
        self._lines: list[str] | None = None

    def _submitted(self, text: str) -> None:
        if text.strip():
            self.done(Answer(text.strip(), was_custom=True))
        else:  # nothing typed: back to the options
            self.editing = False
            self.editor.set_text("")
            self._refresh()

    def _refresh(self) -> None:
        self._lines = None
        self.tui.request_render()

    def invalidate(self) -> None:
        self._lines = None

    def handle_input(self, data: str) -> None:
        if self.editing:
            if matches_key(data, Key.escape):
                self.editing = False
                self.editor.set_text("")
            else:
                self.editor.handle_input(data)
            self._refresh()
            return
        if matches_key(data, Key.up):
            self.index = max(0, self.index - 1)
        elif matches_key(data, Key.down):
            self.index = min(len(self.options) - 1, self.index + 1)
        elif matches_key(data, Key.enter):
            chosen = self.options[self.index]
            if self.index == len(self.options) - 1:
                self.editing = True
            else:
                self.done(Answer(chosen.label, was_custom=False, index=self.index + 1))
                return
        elif matches_key(data, Key.escape):
            self.done(None)
            return
        self._refresh()

    def render(self, width: int) -> list[str]:
        if self._lines is not None:
            return self._lines
        th = self.theme
        lines: list[str] = []

        def add(text: str) -> None:
            lines.append(truncate_to_width(text, width))

        add(th.fg("accent", "─" * width))
        add(th.fg("text", f" {self.question}"))
        lines.append("")
        for i, option in enumerate(self.options):
            numbered = f"{i + 1}. {option.label}"
            if i == self.index:
                mark = " ✎" if self.editing and i == len(self.options) - 1 else ""
                add(th.fg("accent", "> ") + th.fg("accent", numbered + mark))
            else:
                add("  " + th.fg("text", numbered))
            if option.description:
                add("     " + th.fg("muted", option.description))
        if self.editing:
            lines.append("")
            add(th.fg("muted", " Your answer:"))
            lines += [
                truncate_to_width(f" {line}", width) for line in self.editor.render(width - 2)
            ]
        lines.append("")
        if self.editing:
            add(th.fg("dim", " Enter to submit • Esc to go back"))
        else:
            add(th.fg("dim", " ↑↓ navigate • Enter to select • Esc to cancel"))
        add(th.fg("accent", "─" * width))
        self._lines = lines
        return lines


def _result(text: str, question: str, options: list[str], answer: Answer | None) -> ToolResult:
    details: dict[str, Any] = {"question": question, "options": options, "answer": None}
    if answer is not None:
        details.update(answer=answer.answer, was_custom=answer.was_custom)
    return ToolResult([{"type": "text", "text": text}], details)


async def ask(
    tool_call_id: str,
    params: dict[str, Any],
    signal: asyncio.Event | None,
    on_update: ToolUpdate | None,
    ctx: HookContext,
) -> ToolResult:
    args = parse_arguments("question", QuestionParams, params)
    labels = [o.label for o in args.options]
    if not ctx.has_ui:
        text = "Error: UI not available (running in non-interactive mode)"
        return _result(text, args.question, labels, None)
    if not args.options:
        return _result("Error: No options provided", args.question, [], None)

    def factory(tui: TUI, theme: Any, keybindings: Keybindings, done: Any) -> QuestionView:
        return QuestionView(tui, theme, args, done)

    answer = await ctx.ui.custom(factory)
    if not isinstance(answer, Answer):
        return _result("User cancelled the selection", args.question, labels, None)
    if answer.was_custom:
        return _result(f"User wrote: {answer.answer}", args.question, labels, answer)
    text = f"User selected: {answer.index}. {answer.answer}"
    return _result(text, args.question, labels, answer)


def render_call(args: dict[str, Any]) -> str:
    """The question, then its options numbered as the user sees them (on the same line:
    the terminal app shows one line of a call)."""
    text = str(args.get("question", ""))
    options = args.get("options")
    if isinstance(options, list) and options:
        labels = [str(o.get("label", "")) for o in options if isinstance(o, dict)] + [OTHER]
        text += "  Options: " + ", ".join(f"{i}. {label}" for i, label in enumerate(labels, 1))
    return text


def render_result(text: str, options: dict[str, Any]) -> str:
    """``✓ 2. banana``, ``✓ (wrote) ...`` or ``Cancelled``, from the result's details."""
    details = options.get("details")
    if not isinstance(details, dict):
        return text
    answer = details.get("answer")
    if answer is None:
        return "Cancelled"
    if details.get("was_custom"):
        return f"✓ (wrote) {answer}"
    labels = details.get("options") or []
    return f"✓ {labels.index(answer) + 1}. {answer}" if answer in labels else f"✓ {answer}"


def register(pi: HookAPI) -> None:
    pi.register_tool(
        Tool(
            "question",
            "Ask the user a question and let them pick from options. "
            "Use when you need user input to proceed.",
            QuestionParams,
            ask,
            meta={"render_call": render_call, "render_result": render_result},
        )
    )
