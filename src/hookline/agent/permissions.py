"""The permission decision for one tool call: rules, then the mode.

Order, as in Claude Code: deny > ask > allow, then the mode decides what no
rule covers. Deny rules hold in every mode, ``bypassPermissions`` included;
so do ask rules (an ask in ``dontAsk`` mode is a denial). On top of Claude:

- a bash line is checked command by command (:mod:`hookline.shell`): an
  allow rule must cover every simple command, a deny or ask rule needs only
  one; text that cannot be read, or a program known only at run time, is
  never auto-allowed;
- a file a bash line writes by redirection (``echo hi > out.txt``) needs
  what an edit of that file needs;
- edits outside the working directory and ``additionalDirectories`` ask in
  every mode but ``bypassPermissions``, unless an ``Edit`` allow rule names them.

As in Claude Code, a bash command that only reads (:mod:`hookline.shell.readonly`)
inside the working directories runs unasked in every mode, plan mode included,
and ``acceptEdits`` also runs its filesystem commands (``mkdir``, ``touch``,
``rm``, ``rmdir``, ``mv``, ``cp``, ``sed -i``) when every path they touch is
inside the working directories.

The rule engine itself (syntax, globs, anchors) lives in
:mod:`hookline.settings.permission_rules`.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from hookline.core.vocabulary import CLAUDE_TOOL_NAMES, PERMISSION_MODES, PermissionMode
from hookline.settings.permission_rules import (
    FilePath,
    PermissionRule,
    PermissionRuleError,
    PermissionRules,
    ShellCommand,
    ToolCall,
    describe_call,
    within,
)
from hookline.settings.permission_rules.syntax import EDIT_RULE_TOOLS, READ_RULE_TOOLS

__all__ = [
    "CLAUDE_TOOL_NAMES",
    "EDIT_TOOLS",
    "INTERNAL_TOOLS",
    "PERMISSION_MODES",
    "READ_ONLY_TOOLS",
    "Decision",
    "PermissionCheck",
    "PermissionMode",
    "PermissionRule",
    "PermissionRuleError",
    "PermissionRules",
    "check_permission",
]

Decision = Literal["allow", "deny", "ask"]

READ_ONLY_TOOLS = frozenset({"read", "ls", "find", "grep"})
#: The agent's own tools that touch nothing outside it (the task list, the sub-agent
#: tool, whose every call is checked on its own): never asked about; deny rules still hold.
INTERNAL_TOOLS = frozenset({"todo_write", "task"})
EDIT_TOOLS = frozenset({"write", "edit"})


@dataclass(frozen=True, slots=True)
class PermissionCheck:
    """What the rules and mode say; ``rule`` is the rule that decided, if one did."""

    decision: Decision
    reason: str
    rule: PermissionRule | None = None


def check_permission(
    mode: PermissionMode,
    rules: PermissionRules,
    tool_name: str,
    input: dict[str, Any],
    cwd: str,
    *,
    working_dirs: Sequence[str] | None = None,
    sandboxed: bool = False,
) -> PermissionCheck:
    """What the mode and rules say about one tool call, before anyone is asked.

    ``working_dirs`` are where ``acceptEdits`` may edit without asking
    (default: ``cwd`` and the rules' ``additional_directories``). ``sandboxed``: the
    call runs in the sandbox and its line can be vetted (``hookline.sandbox.policy``),
    so once deny and ask rules and what cannot be checked have had their say it is
    allowed (``autoAllowBashIfSandboxed``): the kernel holds what it may write.
    """
    call = describe_call(tool_name, input, cwd)
    dirs = [call.cwd, *rules.additional_directories] if working_dirs is None else working_dirs
    bypass = mode == "bypassPermissions"

    rule = rules.first_match("deny", call)
    if rule is not None:
        return PermissionCheck("deny", f"denied by rule {rule.describe()}", rule)
    if tool_name in INTERNAL_TOOLS:
        return PermissionCheck("allow", f"the agent's own {tool_name} tool")
    read_only = call.read_only and all(
        _reads_unasked(c, rules, dirs, call.cwd) for c in call.commands
    )
    if mode == "plan" and tool_name not in READ_ONLY_TOOLS and not read_only:
        return PermissionCheck("deny", "plan mode: only read-only tools and commands run")
    # What cannot be checked against a deny rule asks in that rule's name, before any ask
    # rule, so that neither a hook's allow nor a hook's rewrite can answer for it.
    # Text that cannot be read may also hide a redirect (``1<> f``): Edit rules watch it too.
    unverifiable = f"{call.unverifiable}; it is never allowed without asking"
    guard = _guard(rules.deny, _UNREADABLE_GUARDS) if call.unverifiable else None
    if guard is not None:
        return _ask(mode, unverifiable, guard)
    first = call.unknown_edits[0] if call.unknown_edits else ""
    unknown = f"it writes to {first!r}, a file known only when the line runs"
    guard = _guard(rules.deny, EDIT_RULE_TOOLS) if call.unknown_edits else None
    if guard is not None:
        return _ask(mode, unknown, guard)
    unread = call.unknown_reads[0] if call.unknown_reads else ""
    unread = f"it reads {unread!r}, a file known only when the line runs"
    guard = _guard(rules.deny, READ_RULE_TOOLS) if call.unknown_reads else None
    if guard is not None:
        return _ask(mode, unread, guard)
    rule = rules.first_match("ask", call)
    if rule is not None:
        return _ask(mode, f"rule {rule.describe()} asks", rule)

    guard = _guard(rules.ask, _UNREADABLE_GUARDS) if call.unverifiable else None
    if call.unverifiable and not (bypass and guard is None):
        return _ask(mode, unverifiable, guard)
    guard = _guard(rules.ask, EDIT_RULE_TOOLS) if call.unknown_edits else None
    if call.unknown_edits and not (bypass and guard is None):
        return _ask(mode, unknown, guard)
    if sandboxed and not bypass:
        return PermissionCheck("allow", "sandboxed (autoAllowBashIfSandboxed)")
    if not bypass:
        for file in call.edits:
            if not within(file, dirs) and _granting(rules, file, "edit", cwd) is None:
                return _ask(
                    mode,
                    f"{file.path} is outside the working directories (add one with --add-dir "
                    "or permissions.additionalDirectories)",
                )
    if bypass:
        return PermissionCheck("allow", "bypassPermissions mode")

    if tool_name == "bash":
        return _bash(mode, rules, call, dirs)
    for rule in rules.allow:
        if rule.allows_call(call):
            return PermissionCheck("allow", f"allowed by rule {rule.describe()}", rule)
    if tool_name in READ_ONLY_TOOLS:
        return PermissionCheck("allow", "read-only tool")
    if mode == "acceptEdits" and tool_name in EDIT_TOOLS:
        protected = next((f.path for f in call.edits if _protected(f, dirs)), None)
        if protected is not None:
            return _ask(mode, f"{protected} configures git, the agent or an editor")
        return PermissionCheck("allow", "acceptEdits mode, inside the working directories")
    return _ask(mode, f"{call.claude_tool} needs approval")


def _bash(
    mode: PermissionMode, rules: PermissionRules, call: ToolCall, dirs: Sequence[str]
) -> PermissionCheck:
    """A bash line is allowed only when each command and each file it writes is: by an
    allow rule, as a read-only command, or in ``acceptEdits`` as a filesystem command
    whose every path is inside the working directories."""
    granted: list[PermissionRule] = []
    by_mode: list[str] = []
    for command in call.commands:
        rule = next((r for r in rules.allow if r.allows_command(command)), None)
        if rule is None and _reads_unasked(command, rules, dirs, call.cwd):
            by_mode.append("read-only command")
            continue
        if rule is None and mode == "acceptEdits" and _inside(command.touches, dirs):
            by_mode.append("acceptEdits mode, a filesystem command inside the working directories")
            continue
        if rule is None:
            if not any(r.tool in ("Bash", "*") for r in rules.allow):
                return _ask(mode, "Bash needs approval")
            return _ask(
                mode, f"Bash needs approval for {command.exact[0]!r} (no allow rule covers it)"
            )
        granted.append(rule)
    for file in call.edits:
        rule = _granting(rules, file, "edit", call.cwd)
        if rule is not None:
            granted.append(rule)
        elif not (mode == "acceptEdits" and within(file, dirs) and not _protected(file, dirs)):
            return _ask(mode, f"Bash writes {file.path}, which needs approval as an edit")
    if not granted and not by_mode:
        return _ask(mode, "Bash needs approval")
    if not granted:
        return PermissionCheck("allow", "; ".join(dict.fromkeys(by_mode)))
    shown = ", ".join(dict.fromkeys(r.describe() for r in granted))
    return PermissionCheck("allow", f"allowed by rule {shown}", granted[0])


def _reads_unasked(
    command: ShellCommand, rules: PermissionRules, dirs: Sequence[str], cwd: str
) -> bool:
    """A read-only command that reads only inside the working directories, with no rule
    watching reads there (bash reads in too many ways to hold it to one)."""
    files = command.looks_at
    return (
        command.read_only
        and files is not None
        and all(within(file, dirs) for file in files)
        and not rules.watches_reads(dirs, cwd)
    )


def _inside(files: Sequence[FilePath] | None, dirs: Sequence[str]) -> bool:
    """Every file lies strictly inside a working directory (never one of them itself:
    ``rm -rf .`` asks) and is no hard link, whose data may also be a file outside
    (``touch link``, ``cp x link`` write it)."""
    if not files:
        return False
    roots = {os.path.realpath(folder) for folder in dirs}
    return all(
        within(file, dirs)
        and file.real not in roots
        and not _hard_linked(file.real)
        and not _protected(file, dirs)
        for file in files
    )


#: Folders of a working directory whose files configure git, the agent or an editor
#: (``.git/config``, ``.git/hooks``, ``.claude/settings.local.json``): as in Claude
#: Code, ``acceptEdits`` never writes in them unasked.
PROTECTED_FOLDERS = frozenset({".git", ".claude", ".hookline", ".vscode", ".idea"})


def _git_user_config() -> tuple[str, ...]:
    """The user's own git configuration, which git trusts in every repository
    (``core.fsmonitor`` there runs on a read-only ``git status``): a working directory
    may hold HOME."""
    home = os.path.expanduser("~")
    xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
    places = (os.path.join(home, ".gitconfig"), os.path.join(xdg, "git"))
    return tuple(dict.fromkeys(f(p) for p in places for f in (os.path.abspath, os.path.realpath)))


def _touches_user_config(file: FilePath) -> bool:
    """The file is the user's git configuration, in it, or a folder holding it (``mv x
    ~/.config`` replaces it), as written or resolved, whatever its case."""
    for path in (file.path.casefold(), file.real.casefold()):
        for place in (p.casefold() for p in _git_user_config()):
            if path == place or path.startswith(place + "/") or place.startswith(path + "/"):
                return True
    return False


def _protected(file: FilePath, dirs: Sequence[str]) -> bool:
    """The file lies in a :data:`PROTECTED_FOLDERS` folder of a working directory, as
    written or resolved (``link`` to ``.git/config``), or is the user's git
    configuration."""
    if _touches_user_config(file):
        return True
    for folder in dirs:
        for root, path in (
            (os.path.abspath(folder), file.path),
            (os.path.realpath(folder), file.real),
        ):
            if path.startswith(root.rstrip("/") + "/"):
                # casefolded: on a case-insensitive disk ``.GIT/config`` is ``.git/config``
                parts = path[len(root.rstrip("/")) + 1 :].casefold().split("/")
                if not PROTECTED_FOLDERS.isdisjoint(parts):
                    return True
    return False


def _hard_linked(path: str) -> bool:
    try:
        st = os.stat(path)
    except OSError:
        return False
    return stat.S_ISREG(st.st_mode) and st.st_nlink > 1


def _granting(rules: PermissionRules, file: FilePath, kind: str, cwd: str) -> PermissionRule | None:
    return next((r for r in rules.allow if r.allows_file(file, kind, cwd)), None)


#: Rules a bash line that cannot be read may walk around.
_UNREADABLE_GUARDS = frozenset({"Bash", "*", *EDIT_RULE_TOOLS})


def _guard(
    rules: Sequence[PermissionRule], tools: Sequence[str] | frozenset[str]
) -> PermissionRule | None:
    """A rule with a specifier that watches these tools (it cannot be checked on what is
    known only at run time, so even bypassPermissions asks). The rules hookline gives in
    code (the login store's) are left out: they would make every ``cat "$f"`` ask, in
    every mode; they hold for the files a call names, as every rule does."""
    return next(
        (
            r
            for r in rules
            if r.tool in tools and r.specifier is not None and r.origin.scope != "code"
        ),
        None,
    )


def _ask(mode: PermissionMode, reason: str, rule: PermissionRule | None = None) -> PermissionCheck:
    if mode == "dontAsk":
        return PermissionCheck("deny", f"{reason}, and dontAsk mode does not ask", rule)
    return PermissionCheck("ask", reason, rule)
