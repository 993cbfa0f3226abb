"""The permission gate: sits between ``tool_call`` hooks and the tool itself.

Order, as in Claude Code: PreToolUse/``tool_call`` hooks first (they may block
or rewrite), then the permission mode and rules, then an ``ask`` goes to
``permission_request`` hooks, then to the user; with no UI to ask, it is denied
with a reason that says how to allow it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from hookline.agent.permissions import PermissionCheck, PermissionRules, check_permission
from hookline.core.events import Event, NotificationEvent, PermissionRequestEvent
from hookline.core.results import PermissionRequestResult
from hookline.core.runner import HookRunner
from hookline.core.tool import TOOL_CALL_PERMISSION, Tool, ToolBlockedError, ToolResult, ToolUpdate


class PermissionGate:
    """Holds the current mode and rules; wraps tools so each call is checked."""

    def __init__(
        self,
        runner: HookRunner,
        *,
        mode: str = "default",
        rules: PermissionRules | None = None,
        cwd: str = ".",
    ) -> None:
        self.runner = runner
        self.mode = mode
        self.rules = rules or PermissionRules()
        self.cwd = cwd
        #: How events are sent; the agent points it at its own emit so listeners see them.
        self.emit: Callable[[Event], Awaitable[Any]] = runner.emit

    def wrap(self, tool: Tool) -> Tool:
        """A tool whose execute asks the gate first."""
        inner = tool.execute

        async def execute(
            call_id: str, params: dict[str, Any], signal: Any, on_update: ToolUpdate | None
        ) -> ToolResult:
            params = await self.authorize(tool.name, call_id, params)
            return await inner(call_id, params, signal, on_update)

        return replace(tool, execute=execute)

    async def authorize(
        self, tool_name: str, call_id: str, params: dict[str, Any]
    ) -> dict[str, Any]:
        """Return the params to run with, or raise ``ToolBlockedError`` with the reason."""
        check = check_permission(self.mode, self.rules, tool_name, params, self.cwd)
        if check.decision == "deny":  # deny rules and plan mode beat any hook's allow
            raise ToolBlockedError(f"Permission denied: {check.reason}")
        hook_says = TOOL_CALL_PERMISSION.get()
        if hook_says == "allow":
            return params
        if hook_says == "ask":
            check = PermissionCheck("ask", "a tool_call hook asks for confirmation")
        elif check.decision == "allow":
            return params
        if self.runner.has_handlers("permission_request") or self.emit != self.runner.emit:
            result = await self.emit(
                PermissionRequestEvent(tool_name=tool_name, tool_call_id=call_id, input=params)
            )
            if isinstance(result, PermissionRequestResult) and result.decision in ("allow", "deny"):
                if result.decision == "deny":
                    raise ToolBlockedError(
                        f"Permission denied by hook: {result.reason or 'no reason given'}"
                    )
                return result.input if result.input is not None else params
        ctx = self.runner.context
        summary = _summary(tool_name, params)
        if self.runner.has_handlers("notification") or self.emit != self.runner.emit:
            await self.emit(
                NotificationEvent(
                    message=f"hookline needs your permission to use {summary}",
                    title="Permission needed",
                    notification_type="permission_prompt",
                )
            )
        if ctx.has_ui and await ctx.ui.confirm("Allow tool call?", f"{check.reason}: {summary}"):
            return params
        if not ctx.has_ui:
            raise ToolBlockedError(
                f"Permission denied: {check.reason} and there is no UI to ask; add an allow "
                f"rule or run with --permission-mode acceptEdits/bypassPermissions"
            )
        raise ToolBlockedError("Permission denied by the user")


def _summary(tool_name: str, params: dict[str, Any]) -> str:
    detail = params.get("command") or params.get("path") or params.get("pattern") or ""
    return f"{tool_name} {str(detail)[:120]}".strip()
