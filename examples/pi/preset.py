"""pi's preset example: named presets of model, thinking level, tools and instructions.

Presets are JSON, ``{"name": {"provider": …, "model": …, "thinkingLevel": …,
"tools": [...], "instructions": …}}`` (each key optional), read from
``$HOOKLINE_HOME/presets.json`` and ``<project>/.hookline/presets.json`` (the
project's win by name); pi's ``presets.json`` files work as they are. A preset
switches the model, the thinking level and the active tools, and its
instructions are added to the system prompt of every run while it is active.

- ``--preset NAME`` starts with one;
- ``/preset NAME`` switches, ``/preset`` alone picks one from a list (with
  ``(none)``: back to the default tools);
- Alt+U cycles through them (pi's Ctrl+Shift+U: a terminal cannot tell it from Ctrl+U).

The active preset's name is kept in the session at each turn, so a resumed
session gets its instructions back (not its model or tools, as in pi).
In pi the picker is a custom component; here it is ``ctx.ui.select`` with
each preset's summary as its description.

    hookline --hook examples/pi/preset.py --preset plan
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hookline import (
    BeforeAgentStartEvent,
    CommandContext,
    HookAPI,
    HookContext,
    SessionStartEvent,
    TurnStartEvent,
)
from hookline.core.paths import hookline_home

DEFAULT_TOOLS = ["read", "bash", "edit", "write"]
NONE = "(none)"
NO_PRESETS = "No presets defined. Add presets to ~/.hookline/presets.json or .hookline/presets.json"

Preset = dict[str, Any]


def _read_presets(path: Path) -> dict[str, Preset]:
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        print(f"Failed to load presets from {path}: {exc}", file=sys.stderr)
        return {}
    return {k: v for k, v in data.items() if isinstance(v, dict)} if isinstance(data, dict) else {}


def load_presets(cwd: str) -> dict[str, Preset]:
    """The user's presets, then the project's (a project preset replaces one of its name)."""
    return {
        **_read_presets(hookline_home() / "presets.json"),
        **_read_presets(Path(cwd) / ".hookline" / "presets.json"),
    }


def describe(preset: Preset) -> str:
    parts: list[str] = []
    if preset.get("provider") and preset.get("model"):
        parts.append(f"{preset['provider']}/{preset['model']}")
    if preset.get("thinkingLevel"):
        parts.append(f"thinking:{preset['thinkingLevel']}")
    if preset.get("tools"):
        parts.append(f"tools:{','.join(preset['tools'])}")
    if instructions := preset.get("instructions"):
        parts.append(f'"{instructions[:27]}..."' if len(instructions) > 30 else f'"{instructions}"')
    return " | ".join(parts)


@dataclass
class Presets:
    """The presets read at session start and the one active now."""

    pi: HookAPI
    known: dict[str, Preset] = field(default_factory=dict)
    active: str | None = None

    async def apply(self, name: str, preset: Preset, ctx: HookContext) -> None:
        provider, model_id = preset.get("provider"), preset.get("model")
        if provider and model_id:
            model = ctx.model_registry.find(provider, model_id)
            if model is None:
                ctx.ui.notify(f'Preset "{name}": Model {provider}/{model_id} not found', "warning")
            elif not await self.pi.set_model(model):
                ctx.ui.notify(f'Preset "{name}": No API key for {provider}/{model_id}', "warning")
        if level := preset.get("thinkingLevel"):
            self.pi.set_thinking_level(level)
        if tools := preset.get("tools"):
            every = {tool.name for tool in self.pi.get_all_tools()}
            if unknown := [t for t in tools if t not in every]:
                ctx.ui.notify(f'Preset "{name}": Unknown tools: {", ".join(unknown)}', "warning")
            if valid := [t for t in tools if t in every]:
                self.pi.set_active_tools(valid)
        self.active = name

    async def switch(self, name: str, ctx: HookContext) -> None:
        """Activate ``name`` (or clear with ``(none)``), say so, show it in the status."""
        if name == NONE:
            self.active = None
            self.pi.set_active_tools(DEFAULT_TOOLS)
            ctx.ui.notify("Preset cleared, defaults restored", "info")
        else:
            await self.apply(name, self.known[name], ctx)
            ctx.ui.notify(f'Preset "{name}" activated', "info")
        self.show(ctx)

    def show(self, ctx: HookContext) -> None:
        text = ctx.ui.theme.fg("accent", f"preset:{self.active}") if self.active else None
        ctx.ui.set_status("preset", text)

    @property
    def instructions(self) -> str | None:
        preset = self.known.get(self.active) if self.active else None
        return preset.get("instructions") if preset else None


def register(pi: HookAPI) -> None:
    presets = Presets(pi)
    pi.register_flag("preset", type="string", description="Preset configuration to use")

    async def pick(ctx: HookContext) -> None:
        if not presets.known:
            ctx.ui.notify(NO_PRESETS, "warning")
            return
        labels = {
            (f"{name} (active)" if name == presets.active else name): name for name in presets.known
        }
        descriptions = {label: describe(presets.known[name]) for label, name in labels.items()}
        labels[NONE] = NONE
        descriptions[NONE] = "Clear active preset, restore defaults"
        label = await ctx.ui.select("Select Preset", list(labels), descriptions=descriptions)
        if label is not None:
            await presets.switch(labels[label], ctx)

    async def cycle(ctx: HookContext) -> None:
        if not presets.known:
            ctx.ui.notify(NO_PRESETS, "warning")
            return
        order = [NONE, *sorted(presets.known)]
        current = order.index(presets.active) if presets.active in order else 0
        await presets.switch(order[(current + 1) % len(order)], ctx)

    pi.register_shortcut("alt+u", cycle, description="Cycle presets")

    @pi.register_command("preset", description="Switch preset configuration")
    async def preset(args: str, ctx: CommandContext) -> None:
        name = args.strip()
        if not name:
            await pick(ctx)
        elif name not in presets.known:
            available = ", ".join(presets.known) or "(none defined)"
            ctx.ui.notify(f'Unknown preset "{name}". Available: {available}', "error")
        else:
            await presets.switch(name, ctx)

    @pi.on("before_agent_start")
    def add_instructions(event: BeforeAgentStartEvent, ctx: HookContext) -> dict[str, str] | None:
        if instructions := presets.instructions:
            return {"system_prompt": f"{event.system_prompt}\n\n{instructions}"}
        return None

    @pi.on("session_start")
    async def start(event: SessionStartEvent, ctx: HookContext) -> None:
        presets.known = load_presets(ctx.cwd)
        flag = pi.get_flag("preset")
        if isinstance(flag, str) and flag:
            if flag in presets.known:
                await presets.apply(flag, presets.known[flag], ctx)
                ctx.ui.notify(f'Preset "{flag}" activated', "info")
            else:
                available = ", ".join(presets.known) or "(none defined)"
                ctx.ui.notify(f'Unknown preset "{flag}". Available: {available}', "warning")
        else:
            states = [
                e
                for e in ctx.session_manager.get_entries()
                if e["type"] == "custom" and e["custom_type"] == "preset-state"
            ]
            name = states[-1]["data"].get("name") if states else None
            if name in presets.known:
                presets.active = name  # its instructions only: model and tools stay as they are
        presets.show(ctx)

    @pi.on("turn_start")
    def keep(event: TurnStartEvent, ctx: HookContext) -> None:
        if presets.active:
            pi.append_entry("preset-state", {"name": presets.active})
