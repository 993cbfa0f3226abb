"""pi's handoff example: ``/handoff GOAL`` carries what matters into a new session.

Instead of compacting (which is lossy), the session's model reads the
conversation (as the model sees it now: a compaction's summary and what was
kept after it) with the goal for the next thread, and writes a self-contained
prompt for it. The prompt opens in an editor for review; once accepted, a new
session starts (its parent is this one) with the prompt in the input box, ready
to submit. Needs the terminal app (a UI).

    hookline -e examples/pi/handoff.py      then  /handoff now do the same for teams
"""

from __future__ import annotations

from hookline import CommandContext, HookAPI, complete, serialize_conversation
from hookline.core.messages import content_text, user_message

SYSTEM_PROMPT = """You are a context transfer assistant. Given a conversation history and \
the user's goal for a new thread, generate a focused prompt that:

1. Summarizes relevant context from the conversation (decisions made, approaches taken, \
key findings)
2. Lists any relevant files that were discussed or modified
3. Clearly states the next task based on the user's goal
4. Is self-contained - the new thread should be able to proceed without the old conversation

Format your response as a prompt the user can send to start the new thread. Be concise but \
include all necessary context. Do not include any preamble like "Here's the prompt" - just \
output the prompt itself.

Example output format:
## Context
We've been working on X. Key decisions:
- Decision 1
- Decision 2

Files involved:
- path/to/file1.ts
- path/to/file2.ts

## Task
[Clear description of what to do next based on user's goal]"""


def register(pi: HookAPI) -> None:
    @pi.register_command("handoff", description="Transfer context to a new focused session")
    async def handoff(args: str, ctx: CommandContext) -> None:
        if not ctx.has_ui:
            ctx.ui.notify("handoff requires interactive mode", "error")
            return
        model = ctx.model_info
        if model is None:
            ctx.ui.notify("No model selected", "error")
            return
        goal = args.strip()
        if not goal:
            ctx.ui.notify("Usage: /handoff <goal for new thread>", "error")
            return
        messages = list(ctx.session_manager.build_context_messages())
        if not messages:
            ctx.ui.notify("No conversation to hand off", "error")
            return
        conversation = serialize_conversation(messages)
        current_file = ctx.session_manager.get_session_file()

        auth = ctx.model_registry.get_api_key_and_headers(model)
        if not auth.ok:
            ctx.ui.notify(f"Handoff failed: {auth.error}", "error")
            return
        ctx.ui.set_working_message("Generating handoff prompt...")
        try:
            response = await complete(
                model,
                [
                    user_message(
                        f"## Conversation History\n\n{conversation}\n\n"
                        f"## User's Goal for New Thread\n\n{goal}"
                    )
                ],
                registry=ctx.model_registry,
                system_prompt=SYSTEM_PROMPT,
                api_key=auth.api_key,
                signal=ctx.signal,
            )
        finally:
            ctx.ui.set_working_message(None)
        if response.get("stop_reason") in ("aborted", "error"):
            ctx.ui.notify("Cancelled", "info")
            return

        edited = await ctx.ui.editor("Edit handoff prompt", content_text(response["content"]))
        if edited is None:
            ctx.ui.notify("Cancelled", "info")
            return
        if not await ctx.new_session(parent_session=current_file):
            ctx.ui.notify("New session cancelled", "info")
            return
        ctx.ui.set_editor_text(edited)
        ctx.ui.notify("Handoff ready. Submit when ready.", "info")
