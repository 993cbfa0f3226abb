"""hookline.settings: settings sources and their merge, hook policy, project trust, schema."""

from typing import TYPE_CHECKING

from hookline._lazy import lazy_exports

if TYPE_CHECKING:
    from hookline.settings.loader import (
        DEFAULT_HOOK_TIMEOUT_SECONDS,
        DEFAULT_MANAGED_PATHS,
        LoadedSettings,
        SettingsFile,
        SettingsScope,
        load_settings,
        read_settings_file,
        settings_candidates,
    )
    from hookline.settings.merge import deep_merge, merge_all, union_lists
    from hookline.settings.models import (
        CLAUDE_EVENTS,
        AgentHookConfig,
        ClaudeEvent,
        CommandHookConfig,
        HookConfig,
        HooksConfig,
        MatcherConfig,
        PermissionsConfig,
        PromptHookConfig,
        Settings,
    )
    from hookline.settings.policy import HookPolicy, HookScope, allows, hook_policy
    from hookline.settings.schema import SCHEMA_PATH, settings_json_schema
    from hookline.settings.trust import TrustStore

__all__ = [
    "CLAUDE_EVENTS",
    "DEFAULT_HOOK_TIMEOUT_SECONDS",
    "DEFAULT_MANAGED_PATHS",
    "SCHEMA_PATH",
    "AgentHookConfig",
    "ClaudeEvent",
    "CommandHookConfig",
    "HookConfig",
    "HookPolicy",
    "HookScope",
    "HooksConfig",
    "LoadedSettings",
    "MatcherConfig",
    "PermissionsConfig",
    "PromptHookConfig",
    "Settings",
    "SettingsFile",
    "SettingsScope",
    "TrustStore",
    "allows",
    "deep_merge",
    "hook_policy",
    "load_settings",
    "merge_all",
    "read_settings_file",
    "settings_candidates",
    "settings_json_schema",
    "union_lists",
]

#: Public name → the module that defines it, imported when the name is first read.
_EXPORTS = {
    "DEFAULT_HOOK_TIMEOUT_SECONDS": "hookline.settings.loader",
    "DEFAULT_MANAGED_PATHS": "hookline.settings.loader",
    "LoadedSettings": "hookline.settings.loader",
    "SettingsFile": "hookline.settings.loader",
    "SettingsScope": "hookline.settings.loader",
    "load_settings": "hookline.settings.loader",
    "read_settings_file": "hookline.settings.loader",
    "settings_candidates": "hookline.settings.loader",
    "deep_merge": "hookline.settings.merge",
    "merge_all": "hookline.settings.merge",
    "union_lists": "hookline.settings.merge",
    "AgentHookConfig": "hookline.settings.models",
    "CLAUDE_EVENTS": "hookline.settings.models",
    "ClaudeEvent": "hookline.settings.models",
    "CommandHookConfig": "hookline.settings.models",
    "HookConfig": "hookline.settings.models",
    "HooksConfig": "hookline.settings.models",
    "MatcherConfig": "hookline.settings.models",
    "PermissionsConfig": "hookline.settings.models",
    "PromptHookConfig": "hookline.settings.models",
    "Settings": "hookline.settings.models",
    "HookPolicy": "hookline.settings.policy",
    "HookScope": "hookline.settings.policy",
    "allows": "hookline.settings.policy",
    "hook_policy": "hookline.settings.policy",
    "SCHEMA_PATH": "hookline.settings.schema",
    "settings_json_schema": "hookline.settings.schema",
    "TrustStore": "hookline.settings.trust",
}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
