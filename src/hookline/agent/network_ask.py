"""Asking the user about a sandboxed command's connection, and saving an "always" answer.

``make_host_asker`` gives the sandbox's proxy its ``ask``: a select dialog in the
session's UI ("Allow once" / "Always allow for this project" / "No"); with no UI the
answer is "no", as Claude Code refuses in ``-p``. ``make_host_rememberer`` gives it its
``remember``: Claude Code writes an always-allowed sandbox host as the permission rule
``WebFetch(domain:HOST)`` in the project's ``.claude/settings.local.json`` (the rule is
merged into ``sandbox.network.allowedDomains`` when the settings are read — see
``hookline.sandbox.network.rule_domains``), and so does hookline.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from hookline.core.runner import HookRunner
from hookline.sandbox.network import AskHost, HostAnswer, SharedQuestions, host_and_port
from hookline.settings.local_settings import add_permission_rule

__all__ = ["ASK_OPTIONS", "host_rule", "make_host_asker", "make_host_rememberer"]

#: The dialog's options, in order, and what each answers.
ASK_OPTIONS: dict[str, HostAnswer] = {
    "Allow once": "once",
    "Always allow for this project": "always",
    "No": "no",
}


def make_host_asker(runner: HookRunner) -> AskHost:
    """An ``AskHost`` that opens one dialog per host at a time in ``runner``'s UI.

    The proxy already shares one question among its connections; this shares one
    dialog among proxies (a sub-agent's sandbox has its own), so two commands asking
    about the same host at once see one dialog and the same answer. A dialog closed
    without a choice is a "no".
    """
    open_dialogs = SharedQuestions()

    async def dialog(host: str, port: int) -> HostAnswer:
        context = runner.context
        if not context.has_ui:
            return "no"
        title = f"Allow network access to {host_and_port(host, port)}?"
        choice = await context.ui.select(title, list(ASK_OPTIONS))
        return ASK_OPTIONS.get(choice or "", "no")

    async def ask(host: str, port: int) -> HostAnswer:
        return await open_dialogs.ask(host, lambda: dialog(host, port))

    return ask


def host_rule(host: str) -> str:
    """The permission rule Claude Code writes for an always-allowed sandbox host."""
    return f"WebFetch(domain:{host})"


def make_host_rememberer(project_dir: str | os.PathLike[str]) -> Callable[[str], None]:
    """A ``remember`` that adds ``WebFetch(domain:HOST)`` to ``permissions.allow`` in the
    project's ``.claude/settings.local.json`` (once; other keys kept). Raises
    ``LocalSettingsError`` when the file cannot be read or written, or its ``permissions``
    is not what Claude Code writes; the file is then left as it was."""

    def remember(host: str) -> None:
        add_permission_rule(project_dir, "allow", host_rule(host))

    return remember
