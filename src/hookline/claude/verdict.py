"""Combining the outcomes of one event's hooks into one verdict.

Claude Code's precedence: ``continue: false`` wins over any decision (it asks
to stop the agent); among permission decisions deny > defer > ask > allow;
every blocking reason and every piece of added context is kept, in hook order.
``updatedInput`` objects are merged in hook order, and the result replaces the
tool input (a later key wins: two hooks rewriting different keys both apply;
rewriting the same key, the later hook's value is used). ``updatedToolOutput``:
the last hook that sets it wins.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hookline.claude.outcome import Outcome

_RANK = {"allow": 1, "ask": 2, "defer": 3, "deny": 4}


@dataclass(slots=True)
class Verdict:
    """What the hooks of one event decided together."""

    block_reasons: list[str] = field(default_factory=list)
    stop: bool = False  # some hook returned ``continue: false``
    stop_reason: str | None = None
    permission: str | None = None  # "allow" | "ask" | "defer" | "deny"
    permission_reason: str | None = None
    permission_behavior: str | None = None  # PermissionRequest: "allow" | "deny"
    permission_message: str | None = None
    updated_input: dict[str, Any] | None = None  # Claude keys
    contexts: list[str] = field(default_factory=list)
    updated_tool_output: Any = None
    retry: bool = False  # PermissionDenied: some hook said the call may be retried
    system_messages: list[str] = field(default_factory=list)
    warnings: list[Outcome] = field(default_factory=list)  # non-blocking errors, cancelled

    @property
    def blocked(self) -> bool:
        return bool(self.block_reasons)

    @property
    def reason(self) -> str | None:
        """All blocking reasons, one a line."""
        return "\n".join(self.block_reasons) if self.block_reasons else None


def aggregate(outcomes: list[Outcome]) -> Verdict:
    v = Verdict()
    for o in outcomes:
        if o.system_message:
            v.system_messages.append(o.system_message)
        if o.kind in ("non_blocking_error", "cancelled"):
            v.warnings.append(o)
            continue
        if not o.continue_:
            v.stop = True
            v.stop_reason = v.stop_reason or o.stop_reason
            continue
        if o.kind == "blocking":
            v.block_reasons.append(o.reason or "blocked by hook")
        if o.permission_decision and _RANK[o.permission_decision] > _RANK.get(
            v.permission or "", 0
        ):
            v.permission = o.permission_decision
            v.permission_reason = o.permission_decision_reason or o.decision_reason
        if o.permission_behavior and v.permission_behavior != "deny":
            v.permission_behavior = o.permission_behavior
            v.permission_message = o.permission_message
        if o.updated_input is not None:
            v.updated_input = {**(v.updated_input or {}), **o.updated_input}
        if o.additional_context:
            v.contexts.append(o.additional_context)
        v.retry = v.retry or o.retry
        if o.updated_tool_output is not None:
            v.updated_tool_output = o.updated_tool_output
    return v
