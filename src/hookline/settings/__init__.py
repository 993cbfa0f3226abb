"""hookline.settings: settings sources and their merge, hook policy, project trust, schema."""

from typing import TYPE_CHECKING

from hookline._lazy import lazy_exports

if TYPE_CHECKING:
    from hookline.core.vocabulary import PERMISSION_MODES, PermissionMode
    from hookline.settings.loader import (
        DEFAULT_HOOK_TIMEOUT_SECONDS,
        DEFAULT_MANAGED_PATHS,
        PROJECT_SCOPES,
        LoadedSettings,
        SettingsError,
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
        HttpHookConfig,
        MatcherConfig,
        McpToolHookConfig,
        PermissionsConfig,
        PromptHookConfig,
        Settings,
    )
    from hookline.settings.policy import (
        HookPolicy,
        HookScope,
        PermissionModeError,
        allows,
        bypass_available,
        hook_policy,
        resolve_permission_mode,
    )
    from hookline.settings.safe_json import JsonFileError, read_json_file
    from hookline.settings.schema import SCHEMA_PATH, settings_json_schema
    from hookline.settings.trust import TrustError, TrustStore
    from hookline.settings.trust_filter import MODE_STRICTNESS, mode_strictness, restrict_untrusted
    from hookline.settings.validate import check_hooks, check_settings

__all__ = [
    "CLAUDE_EVENTS",
    "DEFAULT_HOOK_TIMEOUT_SECONDS",
    "DEFAULT_MANAGED_PATHS",
    "MODE_STRICTNESS",
    "PERMISSION_MODES",
    "PROJECT_SCOPES",
    "SCHEMA_PATH",
    "AgentHookConfig",
    "ClaudeEvent",
    "CommandHookConfig",
    "HookConfig",
    "HookPolicy",
    "HookScope",
    "HooksConfig",
    "HttpHookConfig",
    "JsonFileError",
    "LoadedSettings",
    "MatcherConfig",
    "McpToolHookConfig",
    "PermissionMode",
    "PermissionModeError",
    "PermissionsConfig",
    "PromptHookConfig",
    "Settings",
    "SettingsError",
    "SettingsFile",
    "SettingsScope",
    "TrustError",
    "TrustStore",
    "allows",
    "bypass_available",
    "check_hooks",
    "check_settings",
    "deep_merge",
    "hook_policy",
    "load_settings",
    "merge_all",
    "mode_strictness",
    "read_json_file",
    "read_settings_file",
    "resolve_permission_mode",
    "restrict_untrusted",
    "settings_candidates",
    "settings_json_schema",
    "union_lists",
]

#: Public name → the module that defines it, imported when the name is first read.
_EXPORTS = {
    "CLAUDE_EVENTS": "hookline.settings.models",
    "DEFAULT_HOOK_TIMEOUT_SECONDS": "hookline.settings.loader",
    "DEFAULT_MANAGED_PATHS": "hookline.settings.loader",
    "MODE_STRICTNESS": "hookline.settings.trust_filter",
    "PERMISSION_MODES": "hookline.core.vocabulary",
    "PROJECT_SCOPES": "hookline.settings.loader",
    "SCHEMA_PATH": "hookline.settings.schema",
    "AgentHookConfig": "hookline.settings.models",
    "ClaudeEvent": "hookline.settings.models",
    "CommandHookConfig": "hookline.settings.models",
    "HttpHookConfig": "hookline.settings.models",
    "McpToolHookConfig": "hookline.settings.models",
    "HookConfig": "hookline.settings.models",
    "HookPolicy": "hookline.settings.policy",
    "HookScope": "hookline.settings.policy",
    "HooksConfig": "hookline.settings.models",
    "JsonFileError": "hookline.settings.safe_json",
    "LoadedSettings": "hookline.settings.loader",
    "MatcherConfig": "hookline.settings.models",
    "PermissionMode": "hookline.core.vocabulary",
    "PermissionModeError": "hookline.settings.policy",
    "PermissionsConfig": "hookline.settings.models",
    "PromptHookConfig": "hookline.settings.models",
    "Settings": "hookline.settings.models",
    "SettingsError": "hookline.settings.loader",
    "SettingsFile": "hookline.settings.loader",
    "SettingsScope": "hookline.settings.loader",
    "TrustError": "hookline.settings.trust",
    "TrustStore": "hookline.settings.trust",
    "allows": "hookline.settings.policy",
    "bypass_available": "hookline.settings.policy",
    "check_hooks": "hookline.settings.validate",
    "check_settings": "hookline.settings.validate",
    "deep_merge": "hookline.settings.merge",
    "hook_policy": "hookline.settings.policy",
    "load_settings": "hookline.settings.loader",
    "merge_all": "hookline.settings.merge",
    "mode_strictness": "hookline.settings.trust_filter",
    "read_json_file": "hookline.settings.safe_json",
    "read_settings_file": "hookline.settings.loader",
    "resolve_permission_mode": "hookline.settings.policy",
    "restrict_untrusted": "hookline.settings.trust_filter",
    "settings_candidates": "hookline.settings.loader",
    "settings_json_schema": "hookline.settings.schema",
    "union_lists": "hookline.settings.merge",
}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
