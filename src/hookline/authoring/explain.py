"""``hookline hooks explain``: which hooks one event runs, in what order, and why.

Module hooks have no matchers: every handler of the event runs, in load
order, each under ``hookTimeout``; they filter in their own code. Settings
hooks are selected by Claude Code's algorithm (``claude.selection``), whose
diagnostics are shown as they are: matchers tested, policy skips, dedupes.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hookline.authoring.project import ProjectHooks
from hookline.claude import BUS_EVENTS, HookDefinition, Selection
from hookline.claude import payloads as claude_payloads
from hookline.claude.matchers import match_query
from hookline.claude.timeouts import hook_timeout
from hookline.core.events import Event, ToolResultEvent

#: hookline event → the settings hook input fields it produces (as the bridge builds them).
_PAYLOADS: dict[str, Callable[[Any], dict[str, Any]]] = {
    "tool_call": claude_payloads.pre_tool_use,
    "input": lambda ev: claude_payloads.user_prompt_submit(ev.text),
    "session_start": claude_payloads.session_start,
    "session_shutdown": claude_payloads.session_end,
    "session_before_compact": claude_payloads.pre_compact,
    "stop": claude_payloads.stop,
    "subagent_stop": claude_payloads.subagent_stop,
    "subagent_start": claude_payloads.subagent_start,
    "notification": claude_payloads.notification,
    "permission_request": claude_payloads.permission_request,
}


@dataclass(slots=True)
class ModuleStep:
    """One module handler that runs for the event."""

    hook_path: str
    handler: str
    timeout: float | None


@dataclass(slots=True)
class Explanation:
    """The selection of one event: module handlers, then the settings hooks' selection."""

    event: Event
    claude_event: str | None
    query: str | None
    modules: list[ModuleStep] = field(default_factory=list)
    selection: Selection | None = None

    def to_dict(self) -> dict[str, Any]:
        sel = self.selection
        return {
            "event": self.event.type,
            "claude_event": self.claude_event,
            "query": self.query,
            "modules": [
                {"hook": m.hook_path, "handler": m.handler, "timeout": m.timeout}
                for m in self.modules
            ],
            "settings": None
            if sel is None
            else {
                **sel.to_dict(),
                "order": [
                    {"hook": h.id, "command": h.describe(), "timeout": _timeout(h)}
                    for h in sel.hooks
                ],
            },
        }


def explain(project: ProjectHooks, event: Event) -> Explanation:
    """What ``event`` would run in ``project``; nothing is run."""
    modules = [
        ModuleStep(hook.path, getattr(fn, "__qualname__", repr(fn)), project.hook_timeout)
        for hook in project.modules.hooks
        for fn in hook.handlers.get(event.type, [])
    ]
    claude_event = _claude_event(event)
    build = _PAYLOADS.get(event.type)
    if claude_event is None:
        return Explanation(event, None, None, modules)
    if isinstance(event, ToolResultEvent):
        fields = (
            claude_payloads.post_tool_use_failure(event)
            if event.is_error
            else claude_payloads.post_tool_use(event)
        )
    else:
        assert build is not None
        fields = build(event)
    payload = claude_payloads.build_payload(
        claude_event, project.claude.engine.facts(project.cwd), fields
    )
    query = match_query(claude_event, payload)
    selection = project.claude.engine.select(claude_event, query)
    return Explanation(event, claude_event, query, modules, selection)


def _claude_event(event: Event) -> str | None:
    names = BUS_EVENTS.get(event.type)
    if not names:
        return None
    if isinstance(event, ToolResultEvent) and event.is_error and len(names) > 1:
        return names[1]
    return names[0]


def _timeout(hook: HookDefinition) -> float:
    """The hook's timeout as the engine gives it (its own, else the per-type/event default)."""
    return hook_timeout(hook.spec, hook.event, os.environ)


def _seconds(value: float | None) -> str:
    return "no deadline" if value is None else f"timeout {value:g} s"


def render(ex: Explanation) -> str:
    """The text form, in the order things happen."""
    out = [
        f"Event {ex.event.type}"
        + (f" (settings hooks: {ex.claude_event})" if ex.claude_event else "")
    ]
    out.append("1. Module hooks, in load order (no matchers: each handler filters in its code):")
    if not ex.modules:
        out.append("   (none handle this event)")
    for i, m in enumerate(ex.modules, 1):
        out.append(f"   {i}. {m.hook_path} {m.handler} — {_seconds(m.timeout)}")
    sel = ex.selection
    if sel is None:
        out.append("2. Settings hooks: none (no Claude event maps to this one)")
        return "\n".join(out)
    out.append(f"2. Settings hooks for {sel.event}, query {sel.query!r}:")
    for check in sel.matchers:
        verdict = "matches" if check.matched else "does not match"
        shown = "(no matcher: every query)" if not check.matcher else repr(check.matcher)
        error = f" — {check.error}" if check.error else ""
        out.append(
            f"   matcher {shown} in {check.origin} [group {check.group}, {check.kind}]: "
            f"{verdict}{error}"
        )
    for s in sel.skipped:
        out.append(f"   skipped {s.hook.id}: {s.reason}")
    for d in sel.deduped:
        out.append(f"   deduped {d.hook.id}: {d.reason}")
    if sel.hooks:
        out.append("   run in parallel, after the module hooks:")
    else:
        out.append("   no settings hook runs")
    for h in sel.hooks:
        out.append(f"   - {h.describe()} ({h.id}) — timeout {_timeout(h):g} s")
    return "\n".join(out)
