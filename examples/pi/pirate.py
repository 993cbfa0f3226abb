"""pi's pirate example: ``/pirate`` toggles a mode that appends to the system prompt.

Shows ``before_agent_start`` changing the system prompt from the hook's own
state: while pirate mode is on, every run's system prompt ends with the
pirate instructions; off, the prompt is left alone.

    hookline --hook examples/pi/pirate.py      then  /pirate
"""

from __future__ import annotations

from typing import Any

from hookline import BeforeAgentStartEvent, HookAPI, HookContext

PIRATE_INSTRUCTIONS = """

IMPORTANT: You are now in PIRATE MODE. You must:
- Speak like a stereotypical pirate in all responses
- Use phrases like "Arrr!", "Ahoy!", "Shiver me timbers!", "Avast!", "Ye scurvy dog!"
- Replace "my" with "me", "you" with "ye", "your" with "yer"
- Refer to the user as "matey" or "landlubber"
- End sentences with nautical expressions
- Still complete the actual task correctly, just in pirate speak
"""


def register(pi: HookAPI) -> None:
    pirate_mode = False

    @pi.register_command("pirate", description="Toggle pirate mode (agent speaks like a pirate)")
    def toggle(args: str, ctx: HookContext) -> None:
        nonlocal pirate_mode
        pirate_mode = not pirate_mode
        ctx.ui.notify("Arrr! Pirate mode enabled!" if pirate_mode else "Pirate mode disabled")

    @pi.on("before_agent_start")
    def prompt(event: BeforeAgentStartEvent, ctx: HookContext) -> dict[str, Any] | None:
        if not pirate_mode:
            return None
        return {"system_prompt": event.system_prompt + PIRATE_INSTRUCTIONS}
