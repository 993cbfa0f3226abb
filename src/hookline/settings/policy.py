"""Which hooks may run, and which permission mode applies: the one implementation.

Hooks (``hook_policy`` + ``allows``), as Claude Code decides them:

- the managed file's ``disableAllHooks: true`` stops every hook;
- ``disableAllHooks: true`` in any other file (user, project, ``--settings``)
  stops every hook but the managed file's: only the administrator can switch
  off the administrator's hooks;
- ``allowManagedHooksOnly`` keeps the managed file's hooks and callbacks
  registered in code by the embedding program;
- project and local hooks need a trusted project;
- an unknown scope is refused: a new source must be classified, not run.

The mode (``resolve_permission_mode``): the flag, else the merged
``defaultMode``, else ``default``; ``permissions.disableBypassPermissionsMode:
"disable"`` forbids ``bypassPermissions`` whatever asked for it. Whether a running
session may switch into it (``bypass_available``) is decided once, at start.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from hookline.core.vocabulary import PermissionMode
from hookline.settings.loader import PROJECT_SCOPES, LoadedSettings

#: Where a hook comes from: the settings scopes, ``plugin`` (plugin ``hooks/hooks.json``)
#: and ``callback`` (Python callables registered by the embedding program, in code).
HookScope = Literal["user", "project", "local", "cli", "managed", "plugin", "callback"]

_KNOWN_SCOPES: frozenset[str] = frozenset(
    {"user", "project", "local", "cli", "managed", "plugin", "callback"}
)
#: Scopes ``allowManagedHooksOnly`` keeps: the policy file, and code (not configuration).
_MANAGED_ONLY_SCOPES: frozenset[str] = frozenset({"managed", "callback"})


class PermissionModeError(Exception):
    """The flag asks for a mode the settings forbid; the message says which file."""


@dataclass(frozen=True)
class HookPolicy:
    """The global gates; ``allows()`` applies them to one hook's scope.

    ``disable_all``: the managed file switched off every hook.
    ``disable_unmanaged``: another file switched off every hook but the managed ones.
    """

    disable_all: bool = False
    managed_only: bool = False
    disable_unmanaged: bool = False


def hook_policy(loaded: LoadedSettings) -> HookPolicy:
    """The policy of a loaded settings set (files of an untrusted project already filtered)."""
    managed = loaded.managed
    managed_settings = managed.settings if managed is not None else None
    unmanaged: bool | None = None
    for file in loaded.files:
        value = file.settings.disable_all_hooks if file.settings is not None else None
        if file.scope != "managed" and value is not None:
            unmanaged = value  # scalars override in merge order
    managed_only = None if loaded.empty else loaded.merged.allow_managed_hooks_only
    disable_all = False
    if managed_settings is not None:
        disable_all = bool(managed_settings.disable_all_hooks)
        if managed_settings.allow_managed_hooks_only is not None:
            managed_only = managed_settings.allow_managed_hooks_only
    return HookPolicy(
        disable_all=disable_all, managed_only=bool(managed_only), disable_unmanaged=bool(unmanaged)
    )


def allows(scope: str, policy: HookPolicy, project_trusted: bool) -> tuple[bool, str]:
    """Whether a hook from ``scope`` may run, and why (the reason is shown to the user)."""
    if policy.disable_all:
        return False, "all hooks are disabled (disableAllHooks in the managed settings)"
    if scope not in _KNOWN_SCOPES:
        return False, f"unknown hook scope {scope!r}"
    if policy.disable_unmanaged and scope != "managed":
        return False, "hooks are disabled (disableAllHooks); only managed hooks run"
    if policy.managed_only and scope not in _MANAGED_ONLY_SCOPES:
        return False, f"only managed hooks may run (allowManagedHooksOnly); this is a {scope} hook"
    if scope in PROJECT_SCOPES and not project_trusted:
        return False, "the project directory is not trusted (run `hookline trust`)"
    return True, f"{scope} hook allowed"


def resolve_permission_mode(
    loaded: LoadedSettings, cli_mode: PermissionMode | None
) -> tuple[PermissionMode, list[str]]:
    """The mode to run in, and warnings to show.

    A ``bypassPermissions`` that ``disableBypassPermissionsMode: "disable"``
    forbids is an error when the flag asked for it (``PermissionModeError``:
    the user must drop the flag) and becomes ``default`` with a warning when a
    settings file asked for it.
    """
    permissions = None if loaded.empty else loaded.merged.permissions
    forbidding = _bypass_forbidden_by(loaded)
    if cli_mode is not None:
        if cli_mode == "bypassPermissions" and forbidding is not None:
            raise PermissionModeError(
                "--permission-mode bypassPermissions is disabled by "
                f'permissions.disableBypassPermissionsMode: "disable" in {forbidding}'
            )
        return cli_mode, []
    mode = (permissions.default_mode if permissions is not None else None) or "default"
    if mode == "bypassPermissions" and forbidding is not None:
        return "default", [
            "defaultMode bypassPermissions is disabled by permissions."
            f'disableBypassPermissionsMode: "disable" in {forbidding}; using default'
        ]
    return mode, []


def bypass_available(
    loaded: LoadedSettings, start_mode: PermissionMode, allowed_by_flag: bool
) -> bool:
    """Whether the session may switch to ``bypassPermissions`` while it runs (Shift+Tab,
    ``set_permission_mode``), decided as Claude Code does at start: it started in that
    mode (``--dangerously-skip-permissions``, the flag, or a ``defaultMode`` a file may
    grant it in) or ``--allow-dangerously-skip-permissions`` was given, and no file sets
    ``disableBypassPermissionsMode: "disable"``."""
    asked = start_mode == "bypassPermissions" or allowed_by_flag
    return asked and _bypass_forbidden_by(loaded) is None


def _bypass_forbidden_by(loaded: LoadedSettings) -> str | None:
    """The file that sets ``disableBypassPermissionsMode: "disable"`` (managed first), or None."""
    files = sorted(loaded.files, key=lambda f: f.scope != "managed")
    for file in files:
        permissions = file.settings.permissions if file.settings is not None else None
        if permissions is not None and permissions.disable_bypass_permissions_mode == "disable":
            return str(file.path)
    return None
