"""``hookline hooks test`` and ``hooks replay``: a project's hooks run on synthetic or recorded
calls, with no model. The harness is the pytest plugin's, so both see the same outcomes."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hookline.authoring.harness import Emitted, HookHarness, short
from hookline.authoring.project import ProjectHooks
from hookline.core.messages import content_text
from hookline.core.pipeline import Authorize

if TYPE_CHECKING:
    from hookline.session.listing import SessionInfo

#: ``hooks test`` exit codes: the event's action allowed, refused, or a hook or input error.
EXIT_ALLOWED, EXIT_BLOCKED, EXIT_ERROR = 0, 1, 2

_FAILED_OUTCOMES = frozenset({"non_blocking_error", "cancelled"})


def permission_stage(project: ProjectHooks, harness: HookHarness) -> Authorize:
    """The project's permission rules and mode, with no one to ask: an ``ask`` is denied."""
    from hookline.agent.gate import PermissionGate
    from hookline.agent.permissions import PermissionRules
    from hookline.settings import resolve_permission_mode

    mode, _ = resolve_permission_mode(project.settings, None)
    rules = PermissionRules.from_settings(project.settings)
    gate = PermissionGate(harness.runner, mode=mode, rules=rules, cwd=project.cwd)
    return gate.authorize


def project_harness(project: ProjectHooks) -> HookHarness:
    """A harness holding the project's module hooks, then its settings hooks (no UI)."""
    harness = HookHarness(project.cwd, timeout=project.hook_timeout, has_ui=False)
    for hook, api in project.modules.pairs():
        harness.add(hook, api)
    return harness.use_settings(claude=project.claude)


def exit_code(emitted: Emitted) -> int:
    """2 when a hook failed, else 1 when the action was refused, else 0."""
    failed = emitted.errors or any(o.kind in _FAILED_OUTCOMES for o in emitted.outcomes)
    if failed:
        return EXIT_ERROR
    return EXIT_BLOCKED if emitted.blocked else EXIT_ALLOWED


def report(emitted: Emitted) -> dict[str, Any]:
    """The JSON form of one test run: each hook's outcome and the combined result."""
    result = emitted.result
    return {
        "event": emitted.event.type,
        "modules": [
            {"hook": c.hook_path, "handler": c.handler, "outcome": c.describe()}
            for c in emitted.calls
        ],
        "settings": [
            {
                "hook": o.hook_id,
                "kind": o.kind,
                "reason": o.reason,
                "exit_code": o.exit_code,
            }
            for o in emitted.outcomes
        ],
        "errors": [{"hook": e.hook_path, "error": e.error} for e in emitted.errors],
        "result": None if result is None else result.model_dump(mode="json", exclude_defaults=True),
        "blocked": emitted.blocked,
        "exit_code": exit_code(emitted),
    }


def render(emitted: Emitted) -> str:
    """The text form: each hook's outcome, then the combined result and the verdict."""
    out = [f"Event {emitted.event.type}"]
    for c in emitted.calls:
        out.append(f"  module {c.hook_path} {c.handler}: {c.describe()}")
    for o in emitted.outcomes:
        code = f" exit {o.exit_code}" if o.exit_code is not None else ""
        why = f": {o.reason}" if o.reason else ""
        out.append(f"  settings {o.hook_id}: {o.kind}{code}{why}")
    if not emitted.calls and not emitted.outcomes:
        out.append("  no hook handles this event")
    for e in emitted.errors:
        out.append(f"  error {e.hook_path}: {e.error}")
    from hookline.core.results import ToolCallResult

    result = emitted.result
    if isinstance(result, ToolCallResult) and result.hook_failed:  # its error is above
        out.append(f"Combined result: blocked: its hook {result.hook_path} failed (error above)")
    else:
        out.append(f"Combined result: {short(emitted.result, 400)}")
    verdict = {EXIT_ALLOWED: "allowed", EXIT_BLOCKED: "blocked", EXIT_ERROR: "error"}
    status = exit_code(emitted)
    reason = f": {emitted.reason}" if status == EXIT_BLOCKED and emitted.reason else ""
    out.append(f"Verdict: {verdict[status]}{reason}")
    return "\n".join(out)


# -- replay ------------------------------------------------------------------------


@dataclass(slots=True)
class Replayed:
    """One recorded tool call run through today's hooks."""

    tool_name: str
    tool_call_id: str
    input: dict[str, Any]
    blocked: str | None = None
    new_input: dict[str, Any] | None = None
    output_changed: bool = False
    output: str = ""
    notes: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return self.blocked is not None or self.new_input is not None or self.output_changed

    def to_dict(self) -> dict[str, Any]:
        return {
            "tool_name": self.tool_name,
            "tool_call_id": self.tool_call_id,
            "input": self.input,
            "blocked": self.blocked,
            "new_input": self.new_input,
            "output_changed": self.output_changed,
            "output": self.output if self.output_changed else None,
        }


def recorded_calls(session_file: str | Path) -> list[tuple[str, str, dict[str, Any], str]]:
    """``(tool_name, id, arguments, recorded output)`` of every tool call in the file."""
    from hookline.session import SessionManager

    session = SessionManager.open(session_file, read_only=True)
    calls: list[tuple[str, str, dict[str, Any]]] = []
    outputs: dict[str, str] = {}
    for entry in session.get_entries():
        if entry.get("type") != "message":
            continue
        message: Any = entry.get("message")
        if message.get("role") == "assistant":
            for block in message.get("content", []):
                if block.get("type") == "tool_call":
                    calls.append((block["name"], block["id"], dict(block.get("arguments") or {})))
        elif message.get("role") == "tool":
            outputs[message["tool_call_id"]] = content_text(message.get("content", []))
    return [(name, cid, args, outputs.get(cid, "")) for name, cid, args in calls]


async def replay(
    harness: HookHarness,
    session_file: str | Path,
    *,
    execute: bool = False,
    authorize: Authorize | None = None,
) -> list[Replayed]:
    """Each recorded call through the current hooks; the tools run only with ``execute``.

    ``authorize`` is the permission stage real runs go through (required with
    ``execute``: nothing runs that the project's rules would not let run).
    """
    tools: dict[str, Any] = {}
    if execute:
        if authorize is None:
            raise ValueError("replaying with execute needs the permission stage (authorize)")
        from hookline.tools import builtin_tools

        tools = {t.name: t for t in builtin_tools(str(harness.cwd))}
    out = []
    for name, call_id, args, recorded in recorded_calls(session_file):
        tool = tools.get(name, name)
        outcome = await harness.run_tool(
            tool, args, output=recorded, tool_call_id=call_id, authorize=authorize
        )
        item = Replayed(name, call_id, args)
        if outcome.denial is not None:
            item.blocked = outcome.denial.reason
        else:
            if outcome.input != args:
                item.new_input = outcome.input
            item.output = content_text(outcome.result.content)
            item.output_changed = item.output != recorded
        out.append(item)
    return out


def replay_exit_code(items: list[Replayed]) -> int:
    """1 when a recorded call would now be blocked (as ``hooks test``), else 0."""
    return EXIT_BLOCKED if any(r.blocked is not None for r in items) else EXIT_ALLOWED


def session_rows(sessions: Sequence[SessionInfo], shown: int = 10) -> list[str]:
    """The newest ``shown`` sessions, one line each: id, when written, size, first prompt."""
    rows = []
    for info in sessions[:shown]:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(info.modified))
        label = info.name or info.first_message or "(no prompt)"
        rows.append(f"  {info.id}  {when}  {info.message_count} msgs  {label[:60]}")
    if len(sessions) > shown:
        rows.append(f"  … and {len(sessions) - shown} older")
    return rows


def render_replay(items: list[Replayed], execute: bool) -> str:
    out = []
    for r in items:
        head = f"{r.tool_name} {r.tool_call_id} {short(r.input, 100)}"
        if r.blocked is not None:
            out.append(f"BLOCKED  {head}: {r.blocked}")
        elif r.changed:
            what = []
            if r.new_input is not None:
                what.append(f"input → {short(r.new_input, 100)}")
            if r.output_changed:
                what.append("output " + ("differs" if execute else "patched by a hook"))
            out.append(f"CHANGED  {head}: {'; '.join(what)}")
        else:
            out.append(f"same     {head}")
    blocked = [f"{r.tool_name} {r.tool_call_id}" for r in items if r.blocked is not None]
    changed = sum(r.changed and r.blocked is None for r in items)
    which = f" ({', '.join(blocked)})" if blocked else ""
    calls = f"{len(items)} recorded tool call{'' if len(items) == 1 else 's'}"
    out.append(f"{calls}: {len(blocked)} would now be blocked{which}, {changed} changed")
    return "\n".join(out)
