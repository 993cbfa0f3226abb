"""hookline.discovery: find hook modules (CLI, settings, project, user, packages) and load them.

Discovery lists sources without importing anything; the loader imports them
and calls ``register(pi)``. Only ``hookline.core`` is imported from here.
"""

from typing import TYPE_CHECKING

from hookline._lazy import lazy_exports

if TYPE_CHECKING:
    from hookline.discovery.loader import (
        MODULE_PREFIX,
        LoadError,
        LoadResult,
        build_runner,
        discover_and_load_hooks,
        load_hook_file,
        load_hooks,
        load_hooks_async,
        load_into_runner,
        load_source,
        load_source_async,
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
    "discover_and_load_hooks",
    "discover_hooks",
    "load_hook_file",
    "load_hooks",
    "load_hooks_async",
    "load_into_runner",
    "load_source",
    "load_source_async",
    "module_name_for",
    "unload_modules",
    "untrusted_reason",
]

#: Public name → the module that defines it, imported when the name is first read.
_EXPORTS = {
    "LoadError": "hookline.discovery.loader",
    "LoadResult": "hookline.discovery.loader",
    "MODULE_PREFIX": "hookline.discovery.loader",
    "build_runner": "hookline.discovery.loader",
    "discover_and_load_hooks": "hookline.discovery.loader",
    "load_hook_file": "hookline.discovery.loader",
    "load_hooks": "hookline.discovery.loader",
    "load_hooks_async": "hookline.discovery.loader",
    "load_into_runner": "hookline.discovery.loader",
    "load_source": "hookline.discovery.loader",
    "load_source_async": "hookline.discovery.loader",
    "module_name_for": "hookline.discovery.loader",
    "unload_modules": "hookline.discovery.loader",
    "Discovery": "hookline.discovery.sources",
    "ENTRY_POINT_GROUP": "hookline.discovery.sources",
    "HookSource": "hookline.discovery.sources",
    "PROJECT_HOOKS_DIR": "hookline.discovery.sources",
    "SettingsEntry": "hookline.discovery.sources",
    "SettingsHookPath": "hookline.discovery.sources",
    "ShadowedSource": "hookline.discovery.sources",
    "SkippedSource": "hookline.discovery.sources",
    "discover_hooks": "hookline.discovery.sources",
    "untrusted_reason": "hookline.discovery.sources",
}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
