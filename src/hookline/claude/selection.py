"""Selecting the hooks of one event: matchers, policy skips, dedupe — with diagnostics.

Claude Code's algorithm: walk the event's definitions in source order, drop
those policy or trust forbids (before their matcher is even compiled:
nothing from a source that may not run is evaluated), keep those whose
matcher selects the query,
then dedupe (command by command string, prompt by prompt, agent by prompt
stringified for empty arguments; callbacks always appended). The first of a
duplicate set is kept. An ``http`` hook on SessionStart or Setup is skipped
with Claude Code's reason. Every decision is recorded so ``hookline hooks
explain`` and json mode can say why a hook did or did not run.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from hookline.claude.config import HookDefinition
from hookline.claude.matchers import LITERAL_MATCHER_EVENTS, MatcherKind, compile_matcher
from hookline.claude.names import never_fires

#: Events Claude Code runs no ``http`` hook on (it skips them, saying so in its debug log).
NO_HTTP_EVENTS: frozenset[str] = frozenset({"SessionStart", "Setup"})


@dataclass(frozen=True, slots=True)
class MatcherCheck:
    """One matcher group tested against the query."""

    origin: str
    group: int
    matcher: str | None
    kind: MatcherKind
    matched: bool
    error: str | None = None


@dataclass(frozen=True, slots=True)
class Deduped:
    """A hook dropped because an earlier hook has the same identity."""

    hook: HookDefinition
    kept: HookDefinition
    key: tuple[str, ...]

    @property
    def reason(self) -> str:
        kind, value = self.key
        return f"duplicate {kind} {value!r} (kept {self.kept.id})"


@dataclass(frozen=True, slots=True)
class Skipped:
    """A hook whose matcher matched but that did not run, and why."""

    hook: HookDefinition
    reason: str


@dataclass(slots=True)
class Selection:
    """The ordered hooks to run for one event and query, and how they were chosen."""

    event: str
    query: str | None
    hooks: list[HookDefinition] = field(default_factory=list)
    matchers: list[MatcherCheck] = field(default_factory=list)
    deduped: list[Deduped] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    #: Set for an event hookline accepts but has no moment for (``names.NEVER_FIRES``).
    never_fires: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready diagnostics (json mode, ``hooks explain``)."""
        return {
            "event": self.event,
            "query": self.query,
            "hooks": [h.id for h in self.hooks],
            "matchers": [
                {
                    "origin": m.origin,
                    "group": m.group,
                    "matcher": m.matcher,
                    "kind": m.kind,
                    "matched": m.matched,
                    **({"error": m.error} if m.error else {}),
                }
                for m in self.matchers
            ],
            "deduped": [{"hook": d.hook.id, "reason": d.reason} for d in self.deduped],
            "skipped": [{"hook": s.hook.id, "reason": s.reason} for s in self.skipped],
            "errors": list(self.errors),
            **({"never_fires": self.never_fires} if self.never_fires else {}),
        }


def select_hooks(event: str, query: str | None, definitions: Iterable[HookDefinition]) -> Selection:
    """Run the selection algorithm over ``definitions`` (already in source order)."""
    sel = Selection(event, query, never_fires=never_fires(event))
    seen_groups: dict[tuple[str, str, int], bool] = {}
    literal = event in LITERAL_MATCHER_EVENTS
    kept: dict[tuple[str, ...], HookDefinition] = {}
    for d in definitions:
        if d.denied is not None:
            sel.skipped.append(Skipped(d, d.denied))
            continue
        group_key = (d.scope, d.origin, d.group)
        matched = seen_groups.get(group_key)
        if matched is None:
            m = compile_matcher(d.matcher, literal)
            matched = m.matches(query)
            seen_groups[group_key] = matched
            sel.matchers.append(
                MatcherCheck(d.origin, d.group, d.matcher, m.kind, matched, m.error)
            )
            if m.error:
                sel.errors.append(m.error)
        if not matched:
            continue
        key = d.dedupe_key
        if key is not None:
            first = kept.get(key)
            if first is not None:
                sel.deduped.append(Deduped(d, first, key))
                continue
            kept[key] = d
        if d.type == "http" and event in NO_HTTP_EVENTS:
            sel.skipped.append(Skipped(d, f"HTTP hooks are not supported for {event}"))
            continue
        sel.hooks.append(d)
    return sel
