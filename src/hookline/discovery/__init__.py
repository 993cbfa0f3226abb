"""hookline.discovery: find hook modules (CLI, settings, project, user, packages) and load them.

Discovery lists sources without importing anything; the loader imports them
and calls ``register(pi)``. Only ``hookline.core`` is imported from here.
"""

from hookline.discovery.loader import (
    MODULE_PREFIX,
    LoadError,
    LoadResult,
    build_runner,
    load_hook_file,
    load_hooks,
    load_into_runner,
    load_source,
    module_name_for,
    unload_modules,
)
from hookline.discovery.sources import (
    ENTRY_POINT_GROUP,
    PROJECT_HOOKS_DIR,
    Discovery,
    HookSource,
    SettingsEntry,
    SettingsHookPath,
    ShadowedSource,
    SkippedSource,
    discover_hooks,
    untrusted_reason,
)

__all__ = [
    "ENTRY_POINT_GROUP",
    "MODULE_PREFIX",
    "PROJECT_HOOKS_DIR",
    "Discovery",
    "HookSource",
    "LoadError",
    "LoadResult",
    "SettingsEntry",
    "SettingsHookPath",
    "ShadowedSource",
    "SkippedSource",
    "build_runner",
    "discover_hooks",
    "load_hook_file",
    "load_hooks",
    "load_into_runner",
    "load_source",
    "module_name_for",
    "unload_modules",
    "untrusted_reason",
]
