"""Which hooks may run: ``disableAllHooks``, ``allowManagedHooksOnly`` and project trust.

The managed (policy) file is the administrator's word, so a value it sets wins
over every other source, in both directions: a managed ``disableAllHooks:
false`` cannot be turned into ``true`` by a user or project file, nor the
reverse. When the managed file sets nothing, the merged value applies.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from hookline.settings.loader import LoadedSettings

#: Where a hook comes from: the settings scopes, ``plugin`` (plugin ``hooks/hooks.json``)
#: and ``callback`` (Python callables registered by the embedding program, in code).
HookScope = Literal["user", "project", "local", "cli", "managed", "plugin", "callback"]

_KNOWN_SCOPES: frozenset[str] = frozenset(
    {"user", "project", "local", "cli", "managed", "plugin", "callback"}
)
_TRUST_SCOPES: frozenset[str] = frozenset({"project", "local"})
#: Scopes ``allowManagedHooksOnly`` keeps: the policy file, and code (not configuration).
_MANAGED_ONLY_SCOPES: frozenset[str] = frozenset({"managed", "callback"})


@dataclass(frozen=True)
class HookPolicy:
    """The global gates; ``allows()`` applies them to one hook's scope."""

    disable_all: bool = False
    managed_only: bool = False


def hook_policy(loaded: LoadedSettings) -> HookPolicy:
    """The policy of a loaded settings set: managed values first, else the merged ones."""
    managed = loaded.managed
    managed_settings = managed.settings if managed is not None else None
    disable_all = loaded.merged.disable_all_hooks
    managed_only = loaded.merged.allow_managed_hooks_only
    if managed_settings is not None:
        if managed_settings.disable_all_hooks is not None:
            disable_all = managed_settings.disable_all_hooks
        if managed_settings.allow_managed_hooks_only is not None:
            managed_only = managed_settings.allow_managed_hooks_only
    return HookPolicy(disable_all=bool(disable_all), managed_only=bool(managed_only))


def allows(scope: str, policy: HookPolicy, project_trusted: bool) -> tuple[bool, str]:
    """Whether a hook from ``scope`` may run, and why (the reason is shown to the user).

    ``disableAllHooks`` stops everything; ``allowManagedHooksOnly`` keeps the
    managed file's hooks and callbacks registered in code by the embedding
    program (the same rule as ``hookline.claude``); project and local scopes
    need a trusted project. An unknown scope is refused: a new source must be
    classified, not run by default.
    """
    if policy.disable_all:
        return False, "all hooks are disabled (disableAllHooks)"
    if scope not in _KNOWN_SCOPES:
        return False, f"unknown hook scope {scope!r}"
    if policy.managed_only and scope not in _MANAGED_ONLY_SCOPES:
        return False, f"only managed hooks may run (allowManagedHooksOnly); this is a {scope} hook"
    if scope in _TRUST_SCOPES and not project_trusted:
        return False, "the project directory is not trusted (run `hookline trust`)"
    return True, f"{scope} hook allowed"
