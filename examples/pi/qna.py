"""pi's qna example: ``/qna`` turns the questions of the last answer into a form to fill in.

The session's model reads the last assistant message of the branch and lists
its questions as ``Q: …`` / ``A: `` pairs; the list is put in the input box for
the user to answer and send. While the model works, the working line says so
(in pi a bordered loader that Esc cancels; here Esc aborts the call through
``ctx.signal``). Needs the terminal app (a UI).

    hookline --hook examples/pi/qna.py      then  /qna
"""

from __future__ import annotations

from typing import Any

from hookline import CommandContext, HookAPI, complete
from hookline.core.messages import content_text, user_message

SYSTEM_PROMPT = (
    "You are a question extractor. Given text from a conversation, extract any questions "
    "that need answering and format them for the user to fill in.\n\n"
    "Output format:\n"
    '- List each question on its own line, prefixed with "Q: "\n'
    '- After each question, add a blank line for the answer prefixed with "A: "\n'
    '- If no questions are found, output "No questions found in the last message."\n\n'
    "Example output:\n"
    "Q: What is your preferred database?\n"
    "A: \n\n"
    "Q: Should we use TypeScript or JavaScript?\n"
    "A: \n\n"
    "Keep questions in the order they appeared. Be concise."
)


def _text(message: dict[str, Any]) -> str:
    content = message.get("content")
    if not isinstance(content, list):
        return ""
    return "\n".join(b["text"] for b in content if isinstance(b, dict) and b.get("type") == "text")


def register(pi: HookAPI) -> None:
    @pi.register_command(
        "qna", description="Extract questions from last assistant message into editor"
    )
    async def qna(args: str, ctx: CommandContext) -> None:
        if not ctx.has_ui:
            ctx.ui.notify("qna requires interactive mode", "error")
            return
        model = ctx.model_info
        if model is None:
            ctx.ui.notify("No model selected", "error")
            return

        last_text: str | None = None
        for entry in reversed(ctx.session_manager.get_branch()):
            message = entry.get("message") if entry.get("type") == "message" else None
            if not isinstance(message, dict) or message.get("role") != "assistant":
                continue
            if (reason := message.get("stop_reason", "stop")) != "stop":
                ctx.ui.notify(f"Last assistant message incomplete ({reason})", "error")
                return
            if text := _text(message):
                last_text = text
                break
        if last_text is None:
            ctx.ui.notify("No assistant messages found", "error")
            return

        auth = ctx.model_registry.get_api_key_and_headers(model)
        ctx.ui.set_working_message(f"Extracting questions using {model.id}...")
        try:
            response = await complete(
                model,
                [user_message(last_text)],
                registry=ctx.model_registry,
                system_prompt=SYSTEM_PROMPT,
                api_key=auth.api_key,
                signal=ctx.signal,
            )
        except Exception:  # as pi's loader: any failure closes it, "Cancelled"
            response = None
        finally:
            ctx.ui.set_working_message(None)
        if response is None or response.get("stop_reason") in ("aborted", "error"):
            ctx.ui.notify("Cancelled", "info")
            return
        ctx.ui.set_editor_text(content_text(response["content"]))
        ctx.ui.notify("Questions loaded. Edit and submit when ready.", "info")
