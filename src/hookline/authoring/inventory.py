"""``hookline hooks list``: every hook, where it came from, and whether it runs (and why not)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from hookline.authoring.project import ProjectHooks
from hookline.claude import BUS_EVENTS, HookDefinition

Status = Literal["loaded", "shadowed", "skipped", "failed", "never_fires"]

#: Claude events some moment of the agent fires (the others are accepted, never run).
_FIRED = frozenset(e for events in BUS_EVENTS.values() for e in events)


@dataclass(frozen=True, slots=True)
class HookEntry:
    """One row of ``hooks list``: a module hook or one settings hook."""

    kind: Literal["module", "settings"]
    source: str
    scope: str
    status: Status
    events: list[str] = field(default_factory=list)
    priority: int | None = None
    detail: str | None = None
    matcher: str | None = None
    hook: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v is not None}


def inventory(project: ProjectHooks) -> list[HookEntry]:
    """Module hooks in run order (then those that do not run), then settings hooks."""
    return [*_modules(project), *_settings(project)]


def _modules(project: ProjectHooks) -> list[HookEntry]:
    result = project.modules
    rows = [
        HookEntry("module", hook.path, source.origin, "loaded", list(hook.handlers), i)
        for i, (hook, source) in enumerate(zip(result.hooks, result.sources, strict=True), 1)
    ]
    rows += [
        HookEntry(
            "module",
            s.source.path,
            s.source.origin,
            "shadowed",
            detail=f"shadowed by {s.by.path} ({s.by.origin})",
        )
        for s in result.shadowed
    ]
    rows += [
        HookEntry("module", s.source.path, s.source.origin, "skipped", detail=s.reason)
        for s in result.skipped
    ]
    rows += [
        HookEntry("module", e.path, e.origin, "failed", detail=e.reason) for e in result.errors
    ]
    return rows


def _settings(project: ProjectHooks) -> list[HookEntry]:
    rows: list[HookEntry] = []
    kept: dict[tuple[str, tuple[str, ...]], HookDefinition] = {}
    order = 0
    for event, definitions in project.claude.engine.table.by_event.items():
        for d in definitions:
            status: Status = "loaded"
            detail = None
            if d.denied is not None:
                status, detail = "skipped", d.denied
            elif event not in _FIRED:
                status, detail = "never_fires", f"{event} never fires in hookline"
            elif d.dedupe_key is not None and (event, d.dedupe_key) in kept:
                first = kept[(event, d.dedupe_key)]
                status, detail = "shadowed", f"duplicate of {first.id}: deduped when both match"
            if status == "loaded":
                order += 1
                if d.dedupe_key is not None:
                    kept[(event, d.dedupe_key)] = d
            rows.append(
                HookEntry(
                    "settings",
                    d.origin,
                    d.scope,
                    status,
                    [event],
                    order if status == "loaded" else None,
                    detail,
                    d.matcher,
                    d.describe(),
                )
            )
    return rows


def render(rows: list[HookEntry], notes: list[str]) -> str:
    """The text form: one line per hook, grouped by kind."""
    out: list[str] = []
    for kind, title in (("module", "Module hooks"), ("settings", "Settings hooks")):
        mine = [r for r in rows if r.kind == kind]
        out.append(f"{title} ({len(mine)}):")
        if not mine:
            out.append("  (none)")
        for r in mine:
            mark = f"{r.priority}." if r.priority is not None else "-"
            events = ", ".join(r.events) or "no events"
            what = f"{r.hook}  " if r.hook else ""
            matcher = f" matcher {r.matcher!r}" if r.matcher else ""
            status = r.status.replace("_", " ") + (f": {r.detail}" if r.detail else "")
            out.append(f"  {mark} {what}[{r.scope} {r.source}] {events}{matcher} — {status}")
    out.extend(f"note: {n}" for n in notes)
    return "\n".join(out)
