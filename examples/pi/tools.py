"""Tools: ``/tools`` opens a selector that turns each tool on and off, kept in the session.

The Python version of pi's tools example. The selector lists every tool with
``enabled`` or ``disabled``; Enter or Space flips the selected one at once (the
model's next call sees the new set), Esc closes it. Each change is saved as a
``tools-config`` entry of the session, and the last one on the current branch is
applied again when the session starts, is resumed or switched to, forked, or moved
in with ``/tree``: the choice follows the branch. ``/tools NAME`` flips one tool
without the selector (for modes without a terminal: print, RPC).

Run it: ``hookline --hook examples/pi/tools.py``, then ``/tools``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from hookline import HookAPI, HookContext
from hookline.components import (
    TUI,
    Component,
    Container,
    Keybindings,
    SettingItem,
    SettingsList,
    settings_list_theme,
)

ENTRY = "tools-config"
ON, OFF = "enabled", "disabled"


def saved_tools(branch: Sequence[Mapping[str, Any]]) -> list[str] | None:
    """The tools the last ``tools-config`` entry of ``branch`` enabled (None: no entry)."""
    saved = None
    for entry in branch:
        if entry.get("type") == "custom" and entry.get("custom_type") == ENTRY:
            data = entry.get("data") or {}
            if isinstance(data.get("enabled_tools"), list):
                saved = [str(name) for name in data["enabled_tools"]]
    return saved


class Title:
    """The selector's heading."""

    def __init__(self, theme: Any) -> None:
        self.theme = theme

    def render(self, width: int) -> list[str]:
        return [self.theme.fg("accent", self.theme.bold("Tool Configuration")), ""]

    def invalidate(self) -> None:
        return None


class Selector:
    """The heading over the settings list, which takes the keys."""

    def __init__(self, theme: Any, settings: SettingsList) -> None:
        self.settings = settings
        self.body = Container([Title(theme), settings])

    def render(self, width: int) -> list[str]:
        return self.body.render(width)

    def invalidate(self) -> None:
        self.body.invalidate()

    def handle_input(self, data: str) -> None:
        self.settings.handle_input(data)


def register(pi: HookAPI) -> None:
    enabled: set[str] = set()

    def apply_and_save() -> None:
        pi.set_active_tools([t.name for t in pi.get_all_tools() if t.name in enabled])
        pi.append_entry(ENTRY, {"enabled_tools": sorted(enabled)})

    def restore(event: Any, ctx: HookContext) -> None:
        saved = saved_tools(ctx.session_manager.get_branch())
        enabled.clear()
        if saved is None:  # nothing saved on this branch: what is on now
            enabled.update(pi.get_active_tools())
            return
        known = {t.name for t in pi.get_all_tools()}
        enabled.update(name for name in saved if name in known)
        pi.set_active_tools([t.name for t in pi.get_all_tools() if t.name in enabled])

    for event in ("session_start", "session_switch", "session_fork", "session_tree"):
        pi.on(event, restore)

    def selector(tui: TUI, theme: Any, keybindings: Keybindings, done: Any) -> Component:
        items = [
            SettingItem(t.name, t.name, ON if t.name in enabled else OFF, values=[ON, OFF])
            for t in pi.get_all_tools()
        ]

        def changed(name: str, value: str) -> None:
            if value == ON:
                enabled.add(name)
            else:
                enabled.discard(name)
            apply_and_save()

        settings = SettingsList(
            items,
            min(len(items) + 2, 15),
            settings_list_theme(theme),
            changed,
            lambda: done(None),
            keybindings=keybindings,
        )
        return Selector(theme, settings)

    @pi.register_command("tools", description="Enable/disable tools")
    async def tools(args: str, ctx: Any) -> None:
        name = args.strip()
        if not name:
            await ctx.ui.custom(selector)
            return
        if name not in {t.name for t in pi.get_all_tools()}:
            ctx.ui.notify(f"no tool {name!r}", "error")
            return
        enabled.symmetric_difference_update({name})
        apply_and_save()
        ctx.ui.notify(f"{name} {ON if name in enabled else OFF}", "info")
