"""pi's summarize example: ``/summarize`` asks GPT-5.2 for a summary of the conversation.

The user and assistant text of the current branch (and the assistant's tool
calls, one line each) goes to ``openai:gpt-5.2`` with a request for a summary
to resume from, at high reasoning; the answer is shown in a dialog closed with
Enter or Esc. Without a UI nothing is shown; without an OpenAI key (or a
``--base-url`` server) it says so and stops.

    hookline -e examples/pi/summarize.py      then  /summarize
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from hookline import CommandContext, HookAPI, complete
from hookline.core.messages import content_text, user_message


def _text_parts(content: Any) -> list[str]:
    if isinstance(content, str):
        return [content]
    if not isinstance(content, list):
        return []
    return [b["text"] for b in content if isinstance(b, dict) and b.get("type") == "text"]


def _tool_call_lines(content: Any) -> list[str]:
    if not isinstance(content, list):
        return []
    return [
        f"Tool {b['name']} was called with args {json.dumps(b.get('arguments') or {})}"
        for b in content
        if isinstance(b, dict) and b.get("type") == "tool_call" and isinstance(b.get("name"), str)
    ]


def conversation_text(entries: Sequence[Mapping[str, Any]]) -> str:
    """``User: …`` and ``Assistant: …`` sections of the branch's messages, tool calls as lines."""
    sections: list[str] = []
    for entry in entries:
        message = entry.get("message") if entry.get("type") == "message" else None
        if not isinstance(message, Mapping) or message.get("role") not in ("user", "assistant"):
            continue
        lines: list[str] = []
        text = "\n".join(_text_parts(message.get("content"))).strip()
        if text:
            label = "User" if message["role"] == "user" else "Assistant"
            lines.append(f"{label}: {text}")
        if message["role"] == "assistant":
            lines.extend(_tool_call_lines(message.get("content")))
        if lines:
            sections.append("\n".join(lines))
    return "\n\n".join(sections)


def summary_prompt(conversation: str) -> str:
    return "\n".join(
        [
            "Summarize this conversation so I can resume it later.",
            "Include goals, key decisions, progress, open questions, and next steps.",
            "Keep it concise and structured with headings.",
            "",
            "<conversation>",
            conversation,
            "</conversation>",
        ]
    )


def register(pi: HookAPI) -> None:
    @pi.register_command(
        "summarize", description="Summarize the current conversation in a custom UI"
    )
    async def summarize(args: str, ctx: CommandContext) -> None:
        conversation = conversation_text(ctx.session_manager.get_branch())
        if not conversation.strip():
            if ctx.has_ui:
                ctx.ui.notify("No conversation text found", "warning")
            return
        if ctx.has_ui:
            ctx.ui.notify("Preparing summary...", "info")

        model = ctx.model_registry.find("openai", "gpt-5.2")
        if model is None:
            if ctx.has_ui:
                ctx.ui.notify("Model openai/gpt-5.2 not found", "warning")
            return
        auth = ctx.model_registry.get_api_key_and_headers(model)
        if not auth.ok:
            if ctx.has_ui:
                ctx.ui.notify(auth.error or "No API key for openai/gpt-5.2", "warning")
            return

        response = await complete(
            model,
            [user_message(summary_prompt(conversation))],
            registry=ctx.model_registry,
            api_key=auth.api_key,
            reasoning="high",
        )
        summary = content_text(response["content"])
        if ctx.has_ui:
            await ctx.ui.select(f"Conversation Summary\n\n{summary}", ["Close"])
