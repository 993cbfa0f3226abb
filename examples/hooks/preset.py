"""Presets: a named model, tool set and thinking level, chosen with ``/preset`` or ``--preset``.

The Python version of pi's preset example. Presets live in
``<project>/.hookline/presets.json`` (``{"name": {"model": ..., "tools": [...],
"thinking": ...}}``, each key optional) or fall back to the built-in ones.
The chosen preset is kept as a session entry and applied again on resume.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hookline import HookAPI, HookContext, SessionStartEvent

BUILT_IN: dict[str, dict[str, Any]] = {
    "explore": {"tools": ["read", "ls", "find", "grep"], "thinking": "low"},
    "build": {"thinking": "medium"},
}


def load_presets(cwd: str) -> dict[str, dict[str, Any]]:
    path = Path(cwd) / ".hookline" / "presets.json"
    if not path.is_file():
        return BUILT_IN
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"{path}: expected an object of presets")
    return data


async def apply_preset(pi: HookAPI, ctx: HookContext, name: str) -> bool:
    presets = load_presets(ctx.cwd)
    preset = presets.get(name)
    if preset is None:
        ctx.ui.notify(f"no preset {name!r}; presets: {', '.join(sorted(presets))}", "error")
        return False
    if "model" in preset and not await ctx.set_model(str(preset["model"])):
        return False
    if "tools" in preset:
        pi.set_active_tools(list(preset["tools"]))
    if "thinking" in preset:
        ctx.set_thinking_level(str(preset["thinking"]))
    ctx.ui.set_status("preset", name)
    return True


def register(pi: HookAPI) -> None:
    pi.register_flag("preset", type="string", description="start with this preset")

    @pi.register_command("preset", description="apply a preset (model, tools, thinking)")
    async def choose(args: str, ctx: Any) -> None:
        name = args.strip()
        if not name:
            picked = await ctx.ui.select("Preset", sorted(load_presets(ctx.cwd)))
            if picked is None:
                return
            name = picked
        if await apply_preset(pi, ctx, name):
            pi.append_entry("preset", {"name": name})

    @pi.on("session_start")
    async def restore(event: SessionStartEvent, ctx: HookContext) -> None:
        name = pi.get_flag("preset")
        for entry in ctx.session_manager.get_entries():
            if entry["type"] == "custom" and entry["custom_type"] == "preset":
                name = entry["data"]["name"]
        if isinstance(name, str) and name:
            await apply_preset(pi, ctx, name)
