"""``resources_discover``: load the project's shared prompt templates."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hookline import HookAPI, HookContext, ResourcesDiscoverEvent


def register(pi: HookAPI) -> None:
    @pi.on("resources_discover")
    def shared_prompts(event: ResourcesDiscoverEvent, ctx: HookContext) -> dict[str, Any] | None:
        return {"prompt_paths": [str(Path(event.cwd) / "shared" / "prompts")]}
