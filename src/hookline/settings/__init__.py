"""hookline.settings: settings sources and their merge, hook policy, project trust, schema."""

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
    MatcherConfig,
    PermissionsConfig,
    PromptHookConfig,
    Settings,
)
from hookline.settings.policy import (
    HookPolicy,
    HookScope,
    PermissionModeError,
    allows,
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
    "JsonFileError",
    "LoadedSettings",
    "MatcherConfig",
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
