"""Reading what a hook left (exit code, stdout, stderr, or a callback's dict) into an ``Outcome``.

Claude Code's rules: exit 0 is success and stdout is read as JSON when it is
a JSON object (for UserPromptSubmit and SessionStart plain stdout is added
context); exit 2 blocks with stderr as the reason; any other exit is a
non-blocking error shown to the user, except that a decision that blocks
(``permissionDecision: "deny"``, ``decision: "block"``, ``continue: false``)
printed before a crash is honoured whatever the exit code: fail closed. A
killed hook is ``cancelled``. JSON output that is malformed, or has a known
field of the wrong type, is a non-blocking error naming the problem. Nothing here raises.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from hookline.claude.config import HookDefinition
from hookline.core.process import ExecResult

OutcomeKind = Literal["success", "blocking", "non_blocking_error", "cancelled"]

#: Events whose plain (non-JSON) stdout on exit 0 becomes context for the model.
PLAIN_CONTEXT_EVENTS: frozenset[str] = frozenset({"UserPromptSubmit", "SessionStart"})


@dataclass(slots=True)
class Outcome:
    """One hook run: its classification, the reason, every parsed field, and who ran."""

    kind: OutcomeKind
    reason: str | None
    hook_id: str
    hook_type: str
    event: str
    scope: str
    origin: str
    duration: float = 0.0
    exit_code: int | None = None
    stdout: str = ""
    stderr: str = ""
    stdout_bytes: int = 0
    stderr_bytes: int = 0
    stdout_truncated: bool = False
    stderr_truncated: bool = False
    notes: list[str] = field(default_factory=list)  # e.g. output cut, how many bytes
    output: dict[str, Any] | None = None  # the JSON object the hook printed/returned
    continue_: bool = True
    stop_reason: str | None = None
    suppress_output: bool = False
    system_message: str | None = None
    decision: str | None = None  # legacy top-level "block" / "approve"
    decision_reason: str | None = None  # top-level "reason"
    permission_decision: str | None = None  # "allow" | "deny" | "ask" | "defer"
    permission_decision_reason: str | None = None
    updated_input: dict[str, Any] | None = None  # Claude keys, as the hook wrote them
    additional_context: str | None = None
    updated_tool_output: Any = None  # PostToolUse: what the model sees instead of the output
    retry: bool = False  # PermissionDenied: the model may try the call again
    permission_behavior: str | None = None  # PermissionRequest: decision.behavior
    permission_message: str | None = None
    async_task_id: str | None = None

    @property
    def blocking(self) -> bool:
        return self.kind == "blocking"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready record for listeners (json mode, the CLI)."""
        return asdict(self)


def new_outcome(hook: HookDefinition, kind: OutcomeKind, reason: str | None) -> Outcome:
    return Outcome(kind, reason, hook.id, hook.type, hook.event, hook.scope, hook.origin)


# -- JSON fields ----------------------------------------------------------------------

_BOOL = ("continue", "suppressOutput")
_STR = ("stopReason", "systemMessage", "reason")
_SPECIFIC_STR = ("hookEventName", "permissionDecisionReason", "additionalContext")


def _check(obj: dict[str, Any], event: str) -> str | None:
    """The first problem with a known field, or ``None``."""
    for k in _BOOL:
        if k in obj and not isinstance(obj[k], bool):
            return f"{k!r} must be a boolean"
    for k in _STR:
        if k in obj and obj[k] is not None and not isinstance(obj[k], str):
            return f"{k!r} must be a string"
    if "decision" in obj and obj["decision"] not in (None, "block", "approve"):
        return f'\'decision\' must be "block" or "approve", got {obj["decision"]!r}'
    spec = obj.get("hookSpecificOutput")
    if spec is None:
        return None
    if not isinstance(spec, dict):
        return "'hookSpecificOutput' must be an object"
    for k in _SPECIFIC_STR:
        if k in spec and spec[k] is not None and not isinstance(spec[k], str):
            return f"'hookSpecificOutput.{k}' must be a string"
    name = spec.get("hookEventName")
    if name is not None and name != event:
        return f"'hookSpecificOutput.hookEventName' is {name!r} but the event is {event!r}"
    if spec.get("permissionDecision") not in (None, "allow", "deny", "ask", "defer"):
        return "'hookSpecificOutput.permissionDecision' must be allow, deny, ask or defer"
    if spec.get("updatedInput") is not None and not isinstance(spec["updatedInput"], dict):
        return "'hookSpecificOutput.updatedInput' must be an object"
    decision = spec.get("decision")
    if decision is not None and (
        not isinstance(decision, dict) or decision.get("behavior") not in ("allow", "deny")
    ):
        return '\'hookSpecificOutput.decision\' must be {"behavior": "allow"|"deny", ...}'
    return None


def apply_output(out: Outcome, obj: dict[str, Any]) -> Outcome:
    """Fill ``out`` from a hook's JSON object and classify it (exit 0 / callback path)."""
    out.output = obj
    problem = _check(obj, out.event)
    if problem:
        out.kind, out.reason = "non_blocking_error", f"invalid hook output: {problem}"
        return out
    out.continue_ = obj.get("continue", True)
    out.stop_reason = obj.get("stopReason")
    out.suppress_output = obj.get("suppressOutput", False)
    out.system_message = obj.get("systemMessage")
    out.decision = obj.get("decision")
    out.decision_reason = obj.get("reason")
    spec = obj.get("hookSpecificOutput") or {}
    out.permission_decision = spec.get("permissionDecision")
    out.permission_decision_reason = spec.get("permissionDecisionReason")
    out.updated_input = spec.get("updatedInput")
    out.additional_context = spec.get("additionalContext")
    out.retry = spec.get("retry") is True
    for key in ("updatedToolOutput", "updatedMCPToolOutput"):
        if spec.get(key) is not None:
            out.updated_tool_output = spec[key]
    decision = spec.get("decision")
    if isinstance(decision, dict):
        out.permission_behavior = decision.get("behavior")
        out.permission_message = decision.get("message")
        if isinstance(decision.get("updatedInput"), dict):
            out.updated_input = decision["updatedInput"]
    if out.event == "PreToolUse" and out.permission_decision is None and out.decision:
        # legacy PreToolUse output: "approve" allows, "block" denies
        out.permission_decision = "allow" if out.decision == "approve" else "deny"
        out.permission_decision_reason = out.decision_reason
    _classify(out)
    return out


def _classify(out: Outcome) -> None:
    if not out.continue_:
        out.kind, out.reason = "blocking", out.stop_reason or "hook returned continue: false"
    elif out.decision == "block":
        out.kind, out.reason = "blocking", out.decision_reason or "blocked by hook"
    elif out.permission_decision == "deny":
        out.kind = "blocking"
        out.reason = out.permission_decision_reason or out.decision_reason or "denied by hook"
    elif out.permission_behavior == "deny":
        out.kind, out.reason = "blocking", out.permission_message or "denied by hook"
    else:
        out.kind = "success"
        out.reason = out.permission_decision_reason or out.decision_reason


# -- exit code + streams -------------------------------------------------------------


def _notes(res: ExecResult) -> list[str]:
    notes = []
    for name, kept, total, cut in (
        ("stdout", len(res.stdout.encode()), res.stdout_bytes, res.stdout_truncated),
        ("stderr", len(res.stderr.encode()), res.stderr_bytes, res.stderr_truncated),
    ):
        if cut:
            notes.append(f"{name} cut: {total - kept} of {total} bytes dropped")
    return notes


def read_stdout(out: Outcome, stdout: str) -> Outcome:
    """Exit 0: JSON object → fields; other text → context for the events that take it."""
    text = stdout.strip()
    if text.startswith("{"):
        try:
            obj = json.loads(text)
        except ValueError as exc:
            out.kind = "non_blocking_error"
            cut = " (stdout was cut)" if out.stdout_truncated else ""
            out.reason = f"hook printed invalid JSON{cut}: {exc}"
            return out
        if isinstance(obj, dict):
            return apply_output(out, obj)
    out.kind, out.reason = "success", None
    if text and out.event in PLAIN_CONTEXT_EVENTS:
        out.additional_context = text
    return out


def outcome_from_exec(
    hook: HookDefinition,
    res: ExecResult,
    *,
    duration: float,
    cancel_reason: str | None = None,
    skip_first_line: bool = False,
) -> Outcome:
    """Classify a finished process; ``cancel_reason`` set when we killed it."""
    out = new_outcome(hook, "success", None)
    out.duration = duration
    out.exit_code = res.code
    out.stdout, out.stderr = res.stdout, res.stderr
    out.stdout_bytes, out.stderr_bytes = res.stdout_bytes, res.stderr_bytes
    out.stdout_truncated, out.stderr_truncated = res.stdout_truncated, res.stderr_truncated
    out.notes = _notes(res)
    err = res.stderr.strip()
    if res.error is not None:
        out.kind, out.reason = "non_blocking_error", f"could not start hook: {res.error}"
    elif cancel_reason is not None or res.killed:
        out.kind, out.reason = "cancelled", cancel_reason or "hook was killed"
    elif res.code == 0:
        stdout = res.stdout.split("\n", 1)[1] if skip_first_line and "\n" in res.stdout else ""
        return read_stdout(out, res.stdout if not skip_first_line else stdout)
    elif res.code == 2:
        out.kind, out.reason = "blocking", err or "hook exited with code 2 (no stderr)"
    elif res.code == 127:
        out.kind = "non_blocking_error"
        out.reason = f"command or interpreter not found (exit 127): {err or hook.describe()}"
    elif res.code == 126:
        out.kind = "non_blocking_error"
        out.reason = f"command not executable (exit 126): {err or hook.describe()}"
    else:
        out.kind = "non_blocking_error"
        code = f"signal {-res.code}" if res.code is not None and res.code < 0 else res.code
        out.reason = f"hook failed ({code}): {err}" if err else f"hook failed with exit {code}"
        honour_printed_block(out, res.stdout)
    return out


def honour_printed_block(out: Outcome, stdout: str) -> None:
    """A crashed hook's stdout JSON counts when it blocks (deny / block / continue false)."""
    text = stdout.strip()
    if not text.startswith("{"):
        return
    try:
        obj = json.loads(text)
    except ValueError:
        return
    if not isinstance(obj, dict) or _check(obj, out.event) is not None:
        return
    failure = out.reason
    probe = _blank_like(out)
    apply_output(probe, obj)
    if probe.kind == "blocking":
        apply_output(out, obj)
        out.notes.append(f"the hook then failed: {failure}")


def _blank_like(out: Outcome) -> Outcome:
    return Outcome("success", None, out.hook_id, out.hook_type, out.event, out.scope, out.origin)
