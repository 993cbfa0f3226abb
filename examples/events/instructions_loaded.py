"""``instructions_loaded``: say which instructions were loaded."""

from __future__ import annotations

from hookline import HookAPI, HookContext, InstructionsLoadedEvent


def register(pi: HookAPI) -> None:
    @pi.on("instructions_loaded")
    def loaded(event: InstructionsLoadedEvent, ctx: HookContext) -> None:
        ctx.ui.notify(f"{event.memory_type} instructions: {event.file_path} ({event.load_reason})")
