"""The permission stage of the tool pipeline: rules, mode, hook decisions, then asking.

Order, as in Claude Code (and stricter where noted):

1. deny rules and the mode's hard limits (plan mode) — nothing overrides them;
2. the ``tool_call`` hooks' decision (``permission``: allow / ask, passed in as
   an argument): ``allow`` skips the prompt, but never a deny or an ``ask`` rule;
3. rules and mode for the rest (ask rules, a sandboxed bash call the sandbox vets —
   ``autoAllowBashIfSandboxed``, only while the ``bash`` in force is the one that
   runs in the session's sandbox, not a hook's own or one with ``operations`` —,
   allow rules, read-only tools, acceptEdits);
4. an ``ask`` goes to ``permission_request`` hooks (an input they rewrite is
   checked against the rules again), then to the user through the UI (the dialog of
   ``approval``: yes; yes, and don't ask again; no, and tell the agent), announced
   by a ``permission_prompt`` notification; with no UI it is denied, with a hint
   saying which rule or flag would allow it, and nothing is announced (no prompt
   is shown: Claude Code's ``-p`` sends no Notification either).
"""

from __future__ import annotations

import copy
import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hookline.agent.permissions import (
    PermissionCheck,
    PermissionRules,
    check_permission,
)
from hookline.core.events import Event, NotificationEvent, PermissionRequestEvent
from hookline.core.pipeline import Authorization, Denial, DenialSource
from hookline.core.runner import HookRunner
from hookline.core.vocabulary import PermissionMode

if TYPE_CHECKING:
    from hookline.core.results import HookResult, PermissionRequestResult, ToolCallResult
    from hookline.core.tool import Tool
    from hookline.core.ui import HookUI
    from hookline.sandbox.state import SandboxState
    from hookline.settings.permission_rules.syntax import RuleBehavior


class ModeUnavailableError(ValueError):
    """A switch to ``bypassPermissions`` the session was not started able to make."""


class PermissionGate:
    """Holds the current mode and rules; ``authorize`` is the pipeline's permission stage."""

    def __init__(
        self,
        runner: HookRunner,
        *,
        mode: PermissionMode = "default",
        rules: PermissionRules | None = None,
        cwd: str = ".",
        emit: Callable[[Event], Awaitable[Any]] | None = None,
        sandbox: SandboxState | None = None,
        bypass_available: bool = False,
    ) -> None:
        self.runner = runner
        #: the session's sandbox, read at each call: the bash calls it runs and vets are
        #: allowed without asking (``autoAllowBashIfSandboxed``)
        self.sandbox = sandbox
        #: the tool in force under a name (the agent sets it): auto-allow holds only for
        #: the bash that runs in ``sandbox``; without it, none is auto-allowed
        self.tool_named: Callable[[str], Tool | None] = lambda name: None
        #: read at each call: a change (``Agent.set_permission_mode``) holds from the next
        self.mode: PermissionMode = mode
        #: whether ``set_mode`` may enter bypassPermissions (``settings.bypass_available``);
        #: a session started in it may always go back to it
        self.bypass_available = bypass_available or mode == "bypassPermissions"
        self.rules = rules or PermissionRules()
        self.cwd = cwd
        #: How events are sent; the agent passes its own emit so listeners see them.
        self.emit: Callable[[Event], Awaitable[Any]] = emit or runner.emit

    def set_mode(self, mode: PermissionMode) -> None:
        """Switch the mode from the next call; ``bypassPermissions`` only when the session
        may enter it (else ``ModeUnavailableError``, and the mode stays)."""
        if mode == "bypassPermissions" and not self.bypass_available:
            raise ModeUnavailableError(
                "bypassPermissions is not available in this session: start it with "
                "--allow-dangerously-skip-permissions (or --dangerously-skip-permissions), "
                'and no settings file may set disableBypassPermissionsMode: "disable"'
            )
        self.mode = mode

    def remember(self, rule: str, behavior: RuleBehavior = "allow") -> Path:
        """Write ``rule`` to the project's ``.claude/settings.local.json`` and put it in force
        from the next call ("don't ask again", ``/permissions``). A bad rule raises
        ``PermissionRuleError``, a file that cannot be written ``LocalSettingsError``; either
        way nothing changes."""
        from hookline.settings.local_settings import add_permission_rule, local_settings_path

        path = local_settings_path(self.cwd)
        # compiled first: a rule that does not parse is never written
        self.rules.add(behavior, rule, file=str(path), scope="local", root=self.cwd)
        try:
            return add_permission_rule(self.cwd, behavior, rule)
        except BaseException:
            self.rules.remove(behavior, rule, file=str(path))
            raise

    def forget(self, rule: str, behavior: RuleBehavior = "allow") -> bool:
        """Take a rule out of ``.claude/settings.local.json`` and out of force; False when
        the local file did not hold it (rules of other files are not touched: edit those by
        hand)."""
        from hookline.settings.local_settings import local_settings_path, remove_permission_rule

        removed = remove_permission_rule(self.cwd, behavior, rule)
        self.rules.remove(behavior, rule, file=str(local_settings_path(self.cwd)))
        return removed

    def check(
        self, tool_name: str, input: dict[str, Any], *, rules: PermissionRules | None = None
    ) -> PermissionCheck:
        """What the mode and rules alone say about one call (``rules``: others than the
        ones in force, to see what a rule would change)."""
        sandboxed = (
            tool_name == "bash"
            and self.sandbox is not None
            and self._in_sandbox(tool_name)
            and self.sandbox.auto_allows(input, self.cwd)
        )
        return check_permission(
            self.mode,
            self.rules if rules is None else rules,
            tool_name,
            input,
            self.cwd,
            sandboxed=sandboxed,
        )

    def _in_sandbox(self, tool_name: str) -> bool:
        """Whether the tool in force under ``tool_name`` runs its calls in the session's
        sandbox (the built-in bash; a hook's own bash, or one with ``operations``, does
        not, so the sandbox cannot vouch for it)."""
        tool = self.tool_named(tool_name)
        return tool is not None and tool.meta.get("sandbox") is self.sandbox

    async def authorize(
        self,
        tool_name: str,
        tool_call_id: str,
        input: dict[str, Any],
        hooks: ToolCallResult | None,
    ) -> Authorization:
        check = self.check(tool_name, input)
        if check.decision == "deny":  # deny rules and plan mode beat any hook's allow
            return self._deny(tool_name, tool_call_id, input, check.reason, _source(check))
        hook_says = hooks.permission if hooks is not None else None
        if hook_says == "ask":
            why = (hooks.reason if hooks is not None else None) or "a tool_call hook asks"
            check = PermissionCheck("ask", why, rule=check.rule)
        elif check.decision == "allow":
            return Authorization(input)
        elif hook_says == "allow" and check.rule is None:
            # A hook's allow answers the mode's question, never an ask rule's.
            return Authorization(input)
        # no rule silences a hook that asks: "don't ask again" is then not offered
        return await self._ask(
            tool_name, tool_call_id, input, check, offer_rules=hook_says != "ask"
        )

    async def _ask(
        self,
        tool_name: str,
        tool_call_id: str,
        input: dict[str, Any],
        check: PermissionCheck,
        *,
        offer_rules: bool,
    ) -> Authorization:
        if self.runner.has_handlers("permission_request") or self.emit != self.runner.emit:
            result = _answer(
                await self.emit(
                    # a copy: a hook that edits the input in place and answers "allow" must
                    # not run the edited call unchecked (a rewrite goes in the result, checked
                    # again)
                    PermissionRequestEvent(
                        tool_name=tool_name, tool_call_id=tool_call_id, input=copy.deepcopy(input)
                    )
                )
            )
            if result is not None and result.decision == "deny":
                reason = f"Permission denied by hook: {result.reason or 'no reason given'}"
                return self._deny(
                    tool_name, tool_call_id, input, reason, "permission_request", result.hook_path
                )
            if result is not None and result.decision == "allow":
                if result.input is None:
                    return Authorization(input)
                # A rewritten input is a new call: the rules see it again.
                again = self.check(tool_name, result.input)
                # a deny rule it cannot be checked against counts as one it breaks
                unchecked = again.rule is not None and again.rule.behavior == "deny"
                if again.decision == "deny" or (again.decision == "ask" and unchecked):
                    return self._deny(
                        tool_name, tool_call_id, result.input, again.reason, _source(again)
                    )
                return Authorization(result.input)
        ctx = self.runner.context
        if not ctx.has_ui:  # no prompt is shown, so none is announced (as Claude Code's -p)
            reason = f"Permission denied: {check.reason} and there is no UI to ask"
            return self._deny(tool_name, tool_call_id, input, reason, "no_ui")
        summary = _summary(tool_name, input)
        if self.runner.has_handlers("notification") or self.emit != self.runner.emit:
            await self.emit(
                NotificationEvent(
                    message=f"hookline needs your permission to use {summary}",
                    title="Permission needed",
                    notification_type="permission_prompt",
                )
            )
        from hookline.agent.approval import ask_approval
        from hookline.agent.rule_suggestions import rules_to_remember

        rules = rules_to_remember(self, tool_name, input) if offer_rules else []
        title = f"Allow tool call?\n{check.reason}: {summary}"
        answer = await ask_approval(ctx.ui, title, rules)
        if answer.choice == "always":
            self._remember_all(rules, ctx.ui)
        if answer.choice != "no":
            return Authorization(input)
        return self._deny(tool_name, tool_call_id, input, answer.denial_reason, "user")

    def _remember_all(self, rules: list[str], ui: HookUI) -> None:
        """Write "don't ask again" rules and say which, and where; a rule that cannot be
        written is reported and the call still runs, this once."""
        from hookline.settings.local_settings import LocalSettingsError
        from hookline.settings.permission_rules import PermissionRuleError

        saved: list[str] = []
        where: Path | None = None
        for rule in rules:
            try:
                where = self.remember(rule)
            except (PermissionRuleError, LocalSettingsError) as exc:
                lost = ", ".join(r for r in rules if r not in saved)
                ui.notify(f"Not saved: {lost} ({exc}); allowed this once", "warning")
                break
            saved.append(rule)
        if saved and where is not None:
            shown = os.path.relpath(where, self.cwd)  # the project's own file
            ui.notify(f"Allowed from now on: {', '.join(saved)} (written to {shown})")

    def _deny(
        self,
        tool_name: str,
        tool_call_id: str,
        input: dict[str, Any],
        reason: str,
        source: DenialSource,
        hook: str | None = None,
    ) -> Authorization:
        hint = _hint(self, tool_name, input, source)
        return Authorization(input, Denial(tool_name, tool_call_id, reason, source, hint, hook))


def _source(check: PermissionCheck) -> DenialSource:
    return "rule" if check.rule is not None else "mode"


def _summary(tool_name: str, params: dict[str, Any]) -> str:
    detail = params.get("command") or params.get("path") or params.get("pattern") or ""
    return f"{tool_name} {str(detail)[:120]}".strip()


def _hint(
    gate: PermissionGate, tool_name: str, input: dict[str, Any], source: DenialSource
) -> str | None:
    """Which rule or flag would have let the call run (for the end-of-run summary)."""
    if source == "rule":
        return "a deny rule matched; only removing that rule allows it"
    if source in ("hook", "permission_request", "user"):
        return None
    if gate.mode == "plan":
        return "plan mode runs only read-only tools and commands; use --permission-mode default"
    from hookline.agent.rule_suggestions import rules_to_remember

    flag = "--permission-mode acceptEdits" if tool_name in ("write", "edit") else None
    flag = flag or "--permission-mode bypassPermissions"
    rules = rules_to_remember(gate, tool_name, input)
    if not rules:
        return f"no allow rule lets it run unasked; run with {flag}"
    shown = " and ".join(repr(r) for r in rules)
    return f"add the allow rule {shown} to permissions.allow, or run with {flag}"


def _answer(result: HookResult | None) -> PermissionRequestResult | None:
    """The ``permission_request`` hooks' answer, if any (the result models load only then)."""
    if result is None:
        return None
    from hookline.core.results import PermissionRequestResult

    return result if isinstance(result, PermissionRequestResult) else None
