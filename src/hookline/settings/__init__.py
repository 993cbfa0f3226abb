"""hookline.settings: settings sources and their merge, hook policy, project trust, schema."""

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
