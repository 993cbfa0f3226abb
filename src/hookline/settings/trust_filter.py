"""What a settings file of an untrusted project may still do: restrict, never loosen.

Cloning a repository must neither run its code nor weaken the user's guard.
So from ``<project>/.claude/settings*.json`` and ``<project>/.hookline/
settings.json`` of an untrusted project only a whitelist survives (default
deny: a key added tomorrow is dropped until it is classified):

- ``permissions.deny`` and ``permissions.ask`` (more rules only forbid more);
- ``permissions.disableBypassPermissionsMode`` (it only forbids);
- ``permissions.defaultMode`` when it is stricter than the mode the trusted
  sources before it chose (``mode_strictness``);
- of ``sandbox``, what only confines: ``enabled: true``, ``failIfUnavailable:
  true``, ``allowUnsandboxedCommands: false``, ``autoAllowBashIfSandboxed:
  false``, ``filesystem.denyWrite``/``denyRead`` and ``network.deniedDomains``.

Everything else (allow rules, ``additionalDirectories``, ``env``, ``hooks``,
``disableAllHooks``, ``hookTimeout``, ``model``, ``requiredHooks`` — a hook
of an untrusted project cannot be loaded anyway — ``apiKeyHelper``,
``statusLine``, ``enabledPlugins``, MCP keys, unknown keys) is dropped and
reported by key path.
"""

from __future__ import annotations

from typing import Any

from hookline.settings.models import Settings

#: Strictness of each permission mode: a higher number asks or refuses more.
#: ``plan`` (nothing that changes anything runs) and ``dontAsk`` (what is not
#: allowed by a rule is refused, never asked) are both the strictest; they
#: do not compare, so neither replaces the other.
MODE_STRICTNESS: dict[str, int] = {
    "bypassPermissions": 0,
    "acceptEdits": 1,
    "default": 2,
    "dontAsk": 3,
    "plan": 3,
}

_KEPT_PERMISSIONS = ("deny", "ask", "disableBypassPermissionsMode")
#: ``sandbox`` scalars kept only with the value that confines more.
_KEPT_SANDBOX_VALUES: dict[str, bool] = {
    "enabled": True,
    "failIfUnavailable": True,
    "allowUnsandboxedCommands": False,
    "autoAllowBashIfSandboxed": False,
}
#: ``sandbox`` lists that only take away (per sub-object).
_KEPT_SANDBOX_LISTS: dict[str, frozenset[str]] = {
    "filesystem": frozenset({"denyWrite", "denyRead"}),
    "network": frozenset({"deniedDomains"}),
}


def mode_strictness(mode: str | None) -> int:
    """How strict ``mode`` is (``None`` is ``default``; an unknown mode counts as loosest)."""
    return MODE_STRICTNESS.get(mode or "default", 0)


def restrict_untrusted(
    settings: Settings, *, current_mode: str | None = None
) -> tuple[Settings, list[str]]:
    """``settings`` with only restrictive keys, and the key paths dropped.

    ``current_mode`` is the ``defaultMode`` the sources merged before this one
    chose (``None``: none did, so ``default``); this file's ``defaultMode``
    survives only when it is stricter.
    """
    raw: dict[str, Any] = settings.model_dump(mode="json", by_alias=True, exclude_unset=True)
    kept: dict[str, Any] = {}
    ignored: list[str] = []
    for key, value in raw.items():
        if key == "sandbox" and isinstance(value, dict):
            sandbox = _restrict_sandbox(value, ignored)
            if sandbox:
                kept["sandbox"] = sandbox
            continue
        if key != "permissions" or not isinstance(value, dict):
            ignored.append(key)
            continue
        permissions: dict[str, Any] = {}
        for name, item in value.items():
            if name in _KEPT_PERMISSIONS or (
                name == "defaultMode" and mode_strictness(item) > mode_strictness(current_mode)
            ):
                permissions[name] = item
            else:
                ignored.append(f"permissions.{name}")
        if permissions:
            kept["permissions"] = permissions
    return Settings.model_validate(kept), ignored


def _restrict_sandbox(value: dict[str, Any], ignored: list[str]) -> dict[str, Any]:
    """The ``sandbox`` keys that only confine; the others are added to ``ignored``."""
    kept: dict[str, Any] = {}
    for name, item in value.items():
        if name in _KEPT_SANDBOX_VALUES and item is _KEPT_SANDBOX_VALUES[name]:
            kept[name] = item
        elif name in _KEPT_SANDBOX_LISTS and isinstance(item, dict):
            inner = {k: v for k, v in item.items() if k in _KEPT_SANDBOX_LISTS[name]}
            ignored.extend(f"sandbox.{name}.{k}" for k in item if k not in inner)
            if inner:
                kept[name] = inner
        else:
            ignored.append(f"sandbox.{name}")
    return kept
