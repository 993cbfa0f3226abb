"""Settings that degrade safely: skip what is not understood, keep what restricts.

Claude Code adds events, hook types and fields often; a settings file written
for a newer Claude must not lose its deny rules because one entry is new to
hookline. ``check_settings`` walks the parsed JSON before validation:

- an unknown event, hook type or hook field, or a hook entry of the wrong
  shape, is a warning naming the key path; that entry (the event, the hook)
  is skipped and the rest of the file applies;
- a known key with a value of the wrong type is skipped with a warning,
  unless the key restricts (``permissions.deny``/``ask``/``defaultMode``/
  ``disableBypassPermissionsMode``, ``requiredHooks``,
  ``allowManagedHooksOnly``, ``sandbox``): what it would forbid cannot be known, so it is
  an error and the agent does not start;
- unknown top-level keys are kept (Claude Code settings carry many keys
  hookline does not read).

``check_hooks`` is the same walk for a ``hooks`` value alone (plugin
``hooks.json`` files use it).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, TypeAdapter, ValidationError

from hookline.core.plain_errors import shown, unknown_key
from hookline.core.vocabulary import PERMISSION_MODES
from hookline.settings._errors import validation_messages
from hookline.settings.models import (
    CLAUDE_EVENTS,
    CONDITION_EVENTS,
    AgentHookConfig,
    CommandHookConfig,
    HookConfig,
    HttpHookConfig,
    McpToolHookConfig,
    PromptHookConfig,
    Settings,
)

#: Hook types hookline runs, and the keys each may carry (as settings spell them).
_HOOK_MODELS: dict[str, type[BaseModel]] = {
    "command": CommandHookConfig,
    "http": HttpHookConfig,
    "mcp_tool": McpToolHookConfig,
    "prompt": PromptHookConfig,
    "agent": AgentHookConfig,
}
_GROUP_KEYS = frozenset({"matcher", "hooks"})

#: Top-level keys whose wrong type stops start-up (they only ever restrict).
_RESTRICTIVE_TOP = frozenset(
    {
        "requiredHooks",
        "allowManagedHooksOnly",
        "allowedHttpHookUrls",
        "httpHookAllowedEnvVars",
        "sandbox",
    }
)
#: ``permissions`` keys whose wrong type stops start-up.
_RESTRICTIVE_PERMISSIONS = frozenset({"deny", "ask", "defaultMode", "disableBypassPermissionsMode"})


def _fields(model: type[BaseModel]) -> frozenset[str]:
    return frozenset(f.alias or name for name, f in model.model_fields.items())


_HOOK_FIELDS = {kind: _fields(model) for kind, model in _HOOK_MODELS.items()}
_SETTINGS_FIELDS = _fields(Settings)


@functools.cache
def _hook_adapter() -> TypeAdapter[Any]:
    """The hook config validator, built on the first hook checked (most runs check none)."""
    return TypeAdapter(HookConfig)


@dataclass
class Checked:
    """The entries of a file that hookline understands, and what was said about the rest."""

    value: Any
    warnings: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def check_settings(raw: dict[str, Any]) -> Checked:
    """Keep what validates; warnings and errors are ``key.path: message`` lines."""
    out = Checked({})
    for key, value in raw.items():
        if key == "hooks":
            hooks = check_hooks(value)
            out.warnings += hooks.warnings
            if hooks.value is not None:
                out.value[key] = hooks.value
        elif key == "permissions":
            _check_permissions(value, out)
        elif key in _SETTINGS_FIELDS:
            problem = _field_problem(key, value)
            if problem is None:
                out.value[key] = value
            elif key in _RESTRICTIVE_TOP:
                out.errors.append(f"{problem} (it restricts the agent, so it must be valid)")
            else:
                out.warnings.append(f"{problem}; ignored")
        else:
            out.value[key] = value  # a Claude Code key hookline does not read
    return out


def check_hooks(value: Any, key: str = "hooks") -> Checked:
    """A ``hooks`` value (module path list or event object) with unusable entries skipped."""
    if isinstance(value, list):
        kept: list[str] = []
        warnings: list[str] = []
        for i, entry in enumerate(value):
            if isinstance(entry, str) and entry:
                kept.append(entry)
            else:
                warnings.append(f"{key}[{i}]: not a module path (a non-empty string); skipped")
        return Checked(kept, warnings)
    if not isinstance(value, dict):
        return Checked(
            None,
            [
                f"{key}: must be a list of hook module paths or an object of Claude-style "
                "event hooks; ignored"
            ],
        )
    out = Checked({})
    for event, groups in value.items():
        where = f"{key}.{event}"
        if event not in CLAUDE_EVENTS:
            out.warnings.append(f"{where}: {unknown_key(event, CLAUDE_EVENTS, 'event')}; skipped")
        elif not isinstance(groups, list):
            out.warnings.append(f"{where}: must be a list of matcher groups; skipped")
        else:
            out.value[event] = [
                g
                for i, group in enumerate(groups)
                if (g := _group(group, f"{where}[{i}]", out, event))
            ]
    return out


def _group(group: Any, where: str, out: Checked, event: str) -> dict[str, Any] | None:
    if not isinstance(group, dict):
        out.warnings.append(f"{where}: must be an object with matcher and hooks; skipped")
        return None
    unknown = sorted(set(group) - _GROUP_KEYS)
    if unknown:
        key = unknown_key(unknown[0], _GROUP_KEYS, within="in a matcher group")
        out.warnings.append(f"{where}.{unknown[0]}: {key}; matcher group skipped")
        return None
    matcher = group.get("matcher")
    if matcher is not None and not isinstance(matcher, str):
        out.warnings.append(f"{where}.matcher: must be a string; matcher group skipped")
        return None
    hooks = group.get("hooks", [])
    if not isinstance(hooks, list):
        out.warnings.append(f"{where}.hooks: must be a list of hooks; matcher group skipped")
        return None
    kept = [
        h for i, hook in enumerate(hooks) if (h := _hook(hook, f"{where}.hooks[{i}]", out, event))
    ]
    return {**group, "hooks": kept}


def _hook(hook: Any, where: str, out: Checked, event: str) -> dict[str, Any] | None:
    if not isinstance(hook, dict):
        out.warnings.append(f"{where}: must be an object; skipped")
        return None
    kind = hook.get("type")
    if kind not in _HOOK_MODELS:
        what = unknown_key(kind, _HOOK_MODELS, "hook type") if isinstance(kind, str) else ""
        what = what or f"must be a hook type ({', '.join(_HOOK_MODELS)}), got {shown(kind)}"
        out.warnings.append(f"{where}.type: {what}; hook skipped")
        return None
    unknown = sorted(set(hook) - _HOOK_FIELDS[kind])
    if unknown:
        key = unknown_key(unknown[0], _HOOK_FIELDS[kind], within=f"in a {kind} hook")
        out.warnings.append(f"{where}.{unknown[0]}: {key}; hook skipped")
        return None
    try:
        _hook_adapter().validate_python(hook)
    except ValidationError as exc:
        first = validation_messages(exc, hook)[0]
        out.warnings.append(f"{where}.{first}; hook skipped")
        return None
    condition = hook.get("if")
    if condition is not None and event not in CONDITION_EVENTS:
        out.warnings.append(
            f"{where}.if: 'if' is evaluated on tool events only "
            f"({', '.join(sorted(CONDITION_EVENTS))}); on {event} this hook never runs"
        )
    elif condition is not None:
        problem = condition_problem(condition)
        if problem is not None:
            out.warnings.append(f"{where}.if: {problem}; the hook runs on every matching call")
    return hook


def condition_problem(text: str) -> str | None:
    """Why an ``if`` condition is not a permission rule, or ``None`` when it is one."""
    from hookline.settings.permission_rules import PermissionRule, PermissionRuleError

    try:
        PermissionRule.parse(text, "ask")
    except PermissionRuleError as exc:
        return f"not a permission rule {text!r}: {exc.why}"
    return None


def _check_permissions(value: Any, out: Checked) -> None:
    if not isinstance(value, dict):
        out.errors.append(
            "permissions: must be an object (it restricts the agent, so it must be valid)"
        )
        return
    kept: dict[str, Any] = {}
    for key, item in value.items():
        where = f"permissions.{key}"
        problem: str | None = None
        if key in ("allow", "deny", "ask", "additionalDirectories"):
            if not (isinstance(item, list) and all(isinstance(r, str) for r in item)):
                problem = f"{where}: must be a list of strings"
        elif key == "defaultMode":
            if item not in PERMISSION_MODES:
                problem = f"{where}: {unknown_key(str(item), PERMISSION_MODES, 'mode')}"
        elif key == "disableBypassPermissionsMode" and item != "disable":
            problem = f'{where}: the only value is "disable"'
        if problem is None:
            kept[key] = item
        elif key in _RESTRICTIVE_PERMISSIONS:
            out.errors.append(f"{problem} (it restricts the agent, so it must be valid)")
        else:
            out.warnings.append(f"{problem}; ignored")
    out.value["permissions"] = kept


def _field_problem(key: str, value: Any) -> str | None:
    """``key: message`` when ``value`` does not validate for the top-level ``key``."""
    try:
        Settings.model_validate({key: value})
    except ValidationError as exc:
        return validation_messages(exc, {key: value})[0]
    return None
