"""An audit log for users without a collector: every permission decision and hook outcome
as one JSON line, flushed and fsynced as it is written (a crash loses nothing already
decided).

Lines: ``permission`` (a tool call allowed or denied, with the denial's source and
reason), ``settings_hook`` (a settings hook's outcome, with its origin and duration),
``hook_error`` (a module hook that raised or timed out) and ``sandbox_violation``
(something the sandbox refused: a connection, with host, port and reason). Inputs are written only
with ``include_input``: the log may travel further than the machine.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from typing import Any

AUDIT_ENV = "HOOKLINE_AUDIT_LOG"


class AuditLog:
    """Appends JSON lines to ``path`` (created with mode 0600, never truncated)."""

    def __init__(self, path: str, *, include_input: bool = False) -> None:
        self.path = path
        self.include_input = include_input
        self._fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o600)
        self._pending: dict[str, dict[str, Any]] = {}
        # A call's denial is published just after its tool_execution_end: the decision is
        # written when the next event shows whether one came.
        self._ended: dict[str, Any] | None = None

    def attach(self, agent: Any) -> Callable[[], None]:
        unsubscribe = agent.subscribe(self.on_event)
        stop_errors = agent.runner.on_error(self.on_hook_error)

        def detach() -> None:
            unsubscribe()
            stop_errors()
            self.close()

        return detach

    def write(self, record: dict[str, Any]) -> None:
        line = json.dumps({"time": time.time(), **record}, ensure_ascii=False, default=str)
        os.write(self._fd, (line + "\n").encode())
        os.fsync(self._fd)

    def close(self) -> None:
        self._settle(None)
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def _settle(self, denial: dict[str, Any] | None) -> None:
        """Write the decision for the call that ended last (denied if ``denial`` is its)."""
        ended, self._ended = self._ended, None
        if ended is None or self._fd < 0:
            return
        call_id = str(ended.get("tool_call_id", ""))
        start = self._pending.pop(call_id, {})
        record: dict[str, Any] = {
            "kind": "permission",
            "tool_name": ended.get("tool_name"),
            "tool_call_id": call_id,
            "decision": "deny" if denial else "allow",
        }
        if denial:
            record["source"] = denial.get("source")
            record["reason"] = denial.get("reason")
        else:
            record["is_error"] = bool(ended.get("is_error"))
        if self.include_input:
            record["input"] = start.get("input")
        self.write(record)

    def on_event(self, payload: dict[str, Any]) -> None:
        kind = payload.get("type")
        call_id = str(payload.get("tool_call_id", ""))
        if self._ended is not None:
            mine = kind == "tool_denied" and call_id == str(self._ended.get("tool_call_id"))
            self._settle(payload if mine else None)
            if mine:
                return
        if kind == "tool_execution_start":
            self._pending[call_id] = payload
        elif kind == "tool_execution_end":
            self._ended = payload
        elif kind == "sandbox_violation":
            self.write(
                {
                    "kind": "sandbox_violation",
                    "violation": payload.get("kind"),
                    "host": payload.get("host"),
                    "port": payload.get("port"),
                    "reason": payload.get("reason"),
                }
            )
        elif kind == "settings_hook_outcome":
            self.write(
                {
                    "kind": "settings_hook",
                    "event": payload.get("event"),
                    "hook_id": payload.get("hook_id"),
                    "hook_type": payload.get("hook_type"),
                    "origin": payload.get("origin"),
                    "outcome": payload.get("kind"),
                    "reason": payload.get("reason"),
                    "duration": payload.get("duration"),
                    "permission_decision": payload.get("permission_decision"),
                }
            )

    def on_hook_error(self, error: Any) -> None:
        self.write(
            {
                "kind": "hook_error",
                "hook_path": getattr(error, "hook_path", None),
                "event": getattr(error, "event", None),
                "error": getattr(error, "error", None),
            }
        )
