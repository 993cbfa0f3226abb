"""pi's custom-compaction example: a model writes the compaction summary.

Instead of hookline's extractive summary, every message the compaction would
drop is sent to a model with a request for a comprehensive summary, which
replaces them; the newest messages are kept as the compaction chose.

pi's example summarises with Gemini Flash; hookline has no Google provider, so
this port asks the session's own model (its key and its request hooks, through
``ctx.model_registry``). ``ctx.abort()`` during the call aborts it, and the
compaction with it.

    hookline -e examples/pi/custom_compaction.py
"""

from __future__ import annotations

from hookline import (
    HookAPI,
    HookContext,
    SessionBeforeCompactEvent,
    complete,
    serialize_conversation,
)
from hookline.core.messages import content_text, user_message

PROMPT = """You are a conversation summarizer. Create a comprehensive summary of this \
conversation that captures:{previous}

1. The main goals and objectives discussed
2. Key decisions made and their rationale
3. Important code changes, file modifications, or technical details
4. Current state of any ongoing work
5. Any blockers, issues, or open questions
6. Next steps that were planned or suggested

Be thorough but concise. The summary will replace the ENTIRE conversation history, so \
include all information needed to continue the work effectively.

Format the summary as structured markdown with clear sections.

<conversation>
{conversation}
</conversation>"""


def register(pi: HookAPI) -> None:
    @pi.on("session_before_compact")
    async def summarize(event: SessionBeforeCompactEvent, ctx: HookContext) -> object:
        ctx.ui.notify("Custom compaction extension triggered", "info")
        prep = event.preparation
        info = ctx.model_info
        model = ctx.model_registry.find(info.provider, info.id) if info is not None else None
        if model is None:
            ctx.ui.notify("Could not find the session's model, using default compaction", "warning")
            return None
        auth = ctx.model_registry.get_api_key_and_headers(model)
        if not auth.ok:
            ctx.ui.notify(f"Compaction auth failed: {auth.error}", "warning")
            return None

        messages = prep.messages_to_summarize
        ctx.ui.notify(
            f"Custom compaction: summarizing {len(messages)} messages "
            f"({prep.tokens_before:,} tokens) with {model.id}...",
            "info",
        )
        previous = (
            f"\n\nPrevious session summary for context:\n{prep.previous_summary}"
            if prep.previous_summary
            else ""
        )
        request = PROMPT.format(previous=previous, conversation=serialize_conversation(messages))
        response = await complete(
            model,
            [user_message(request)],
            registry=ctx.model_registry,
            api_key=auth.api_key,
            max_tokens=8192,
            signal=event.signal,
        )
        if response.get("stop_reason") == "error":
            ctx.ui.notify(f"Compaction failed: {response.get('error')}", "error")
            return None  # the default compaction goes on
        summary = content_text(response["content"])
        if not summary.strip():
            if not (event.signal is not None and event.signal.is_set()):
                ctx.ui.notify("Compaction summary was empty, using default compaction", "warning")
            return None
        return {
            "compaction": {
                "summary": summary,
                "first_kept_entry_id": prep.first_kept_entry_id,
                "tokens_before": prep.tokens_before,
            }
        }
