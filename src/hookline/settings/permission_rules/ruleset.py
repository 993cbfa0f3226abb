"""All permission rules of a project, each knowing the settings file it came from."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from hookline.settings.permission_rules.calls import ToolCall
from hookline.settings.permission_rules.paths import FilePath
from hookline.settings.permission_rules.rule import PermissionRule
from hookline.settings.permission_rules.syntax import (
    READ_RULE_TOOLS,
    SEARCH_RULE_TOOLS,
    PermissionRuleError,
    RuleBehavior,
    RuleOrigin,
)

if TYPE_CHECKING:
    from hookline.settings.loader import LoadedSettings

_BEHAVIORS: tuple[RuleBehavior, ...] = ("allow", "deny", "ask")


@dataclass(slots=True)
class PermissionRules:
    """The ``permissions`` of every settings file, compiled, in merge order.

    ``errors`` holds the rules that could not be read (each names its file
    and key path); they take no part in decisions. ``additional_directories``
    are absolute.
    """

    allow: list[PermissionRule] = field(default_factory=list)
    deny: list[PermissionRule] = field(default_factory=list)
    ask: list[PermissionRule] = field(default_factory=list)
    additional_directories: list[str] = field(default_factory=list)
    errors: list[PermissionRuleError] = field(default_factory=list)

    @classmethod
    def from_lists(
        cls,
        allow: Sequence[str] = (),
        deny: Sequence[str] = (),
        ask: Sequence[str] = (),
        *,
        additional_directories: Sequence[str] = (),
        root: str | None = None,
        file: str | None = None,
    ) -> PermissionRules:
        """Rules given in code (embedders, tests); a bad rule raises ``PermissionRuleError``.

        ``root`` anchors ``/…`` path patterns (default: the working directory).
        """
        rules = cls(additional_directories=[_absolute(d, root) for d in additional_directories])
        for behavior, texts in zip(_BEHAVIORS, (allow, deny, ask), strict=True):
            for i, text in enumerate(texts):
                origin = RuleOrigin(f"permissions.{behavior}[{i}]", file, None, root)
                rules._list(behavior).append(PermissionRule.parse(text, behavior, origin))
        return rules

    @classmethod
    def from_settings(cls, loaded: LoadedSettings) -> PermissionRules:
        """Every valid settings file's ``permissions``, in merge order; bad rules collected."""
        rules = cls()
        root = str(loaded.project_dir)
        for file in loaded.files:
            perms = file.settings.permissions if file.settings is not None else None
            if perms is None:
                continue
            for behavior in _BEHAVIORS:
                for i, text in enumerate(getattr(perms, behavior)):
                    origin = RuleOrigin(
                        f"permissions.{behavior}[{i}]", str(file.path), file.scope, root
                    )
                    try:
                        rules._list(behavior).append(PermissionRule.parse(text, behavior, origin))
                    except PermissionRuleError as exc:
                        rules.errors.append(exc)
            for folder in perms.additional_directories:
                full = _absolute(folder, root)
                if full not in rules.additional_directories:
                    rules.additional_directories.append(full)
        return rules

    def add(
        self, behavior: RuleBehavior, text: str, *, file: str, scope: str, root: str
    ) -> PermissionRule:
        """Compile ``text`` as a rule of ``file`` and put it in force (a rule written while the
        agent runs: "don't ask again", ``/permissions``); a bad rule raises
        ``PermissionRuleError`` and changes nothing. The same rule of the same file is added
        once."""
        rules = self._list(behavior)
        origin = RuleOrigin(f"permissions.{behavior}[{len(rules)}]", file, scope, root)
        rule = PermissionRule.parse(text, behavior, origin)
        for known in rules:
            if known.text == rule.text and known.origin.file == file:
                return known
        rules.append(rule)
        return rule

    def remove(self, behavior: RuleBehavior, text: str, *, file: str) -> bool:
        """Take the rule ``text`` of ``file`` out of force; False when there was none."""
        rules = self._list(behavior)
        kept = [r for r in rules if not (r.text == text.strip() and r.origin.file == file)]
        removed = len(kept) != len(rules)
        rules[:] = kept
        return removed

    def _list(self, behavior: RuleBehavior) -> list[PermissionRule]:
        return self.allow if behavior == "allow" else self.deny if behavior == "deny" else self.ask

    def errors_in(self, *behaviors: RuleBehavior) -> list[PermissionRuleError]:
        """The unreadable rules of the given lists (``deny``/``ask`` ones must stop the agent)."""
        return [e for e in self.errors if e.origin.key.split(".")[1].split("[")[0] in behaviors]

    def first_match(self, behavior: RuleBehavior, call: ToolCall) -> PermissionRule | None:
        """The first rule of a list that touches any part of the call."""
        return next((r for r in self._list(behavior) if r.matches(call)), None)

    def hides(self, path: str, cwd: str) -> bool:
        """Whether a Read deny or ask rule covers ``path`` (by name, or as a hard link to a
        covered file): listings and searches leave it out."""
        file = FilePath.of(path, cwd)
        guards = [r.path for r in self._read_guards() if r.path is not None]
        return any(p.matches(file, cwd) for p in guards) or any(
            p.links_to(file, cwd) for p in guards
        )

    def hide_predicate(self, cwd: str) -> Callable[[str], bool] | None:
        """``hides`` bound to ``cwd`` for the search tools, or None when no rule hides a path."""
        if not any(r.path is not None for r in self._read_guards()):
            return None
        return lambda path: self.hides(path, cwd)

    def watches_reads(self, folders: Sequence[str], cwd: str) -> bool:
        """Whether a deny or ask rule watches what is read (``Read``, ``Grep``, ``Glob``,
        ``LS``) inside ``folders``: a bash line's reads cannot be held to it (globs,
        recursive searches, git objects), so no bash line counts as read-only then. A
        rule on a path outside every folder (the login store's) leaves them be: a
        read-only line is one that reads only inside them."""
        tools = READ_RULE_TOOLS | SEARCH_RULE_TOOLS
        return any(
            r.tool in tools and (r.path is None or r.path.reaches_into(folders, cwd))
            for r in (*self.deny, *self.ask)
        )

    def _read_guards(self) -> Iterable[PermissionRule]:
        return (r for r in (*self.deny, *self.ask) if r.tool in READ_RULE_TOOLS)


def _absolute(folder: str, root: str | None) -> str:
    return os.path.normpath(os.path.join(root or os.getcwd(), os.path.expanduser(folder)))
