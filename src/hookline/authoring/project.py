"""A project's hooks as the agent would load them — for ``hookline hooks`` — without a model.

Trust is never asked for here: a project is trusted when it is recorded as
trusted or ``--trust-project`` is given, exactly as in print mode.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from hookline.agent.setup import ModuleHookPlan, enabled_plugins, plan_module_hooks
from hookline.claude import ClaudeHooks
from hookline.claude.bridge_command import skip_bridge_duplicates
from hookline.claude.plugins import Plugin
from hookline.discovery import LoadResult, SkippedSource, load_hooks
from hookline.settings import LoadedSettings, TrustStore, hook_policy, load_settings


class ProjectError(Exception):
    """The project's settings cannot be used; the message says which file and what to fix."""


@dataclass(slots=True)
class ProjectHooks:
    """Module hooks (loaded, or why not) and settings hooks of one project."""

    cwd: str
    trusted: bool
    settings: LoadedSettings
    plan: ModuleHookPlan
    modules: LoadResult
    claude: ClaudeHooks
    notes: list[str] = field(default_factory=list)

    @property
    def hook_timeout(self) -> float | None:
        """Seconds a module handler may take (``hookTimeout``); ``None``: no deadline."""
        return self.settings.hook_timeout_seconds


def load_project_hooks(
    cwd: str | os.PathLike[str],
    *,
    hook_paths: list[str] | None = None,
    settings_file: str | None = None,
    trust_project: bool = False,
) -> ProjectHooks:
    """Discover and load the hooks the agent would run in ``cwd`` (their code is imported)."""
    folder = os.path.abspath(cwd)
    if not os.path.isdir(folder):
        raise ProjectError(f"--cwd {folder} is not a directory")
    trusted = trust_project or TrustStore().is_trusted(Path(folder))
    settings = load_settings(
        Path(folder),
        cli_settings=Path(settings_file) if settings_file else None,
        project_trusted=trusted,
    )
    if settings.errors:
        raise ProjectError("settings cannot be used:\n" + "\n".join(settings.errors))
    notes = [f"settings: {w}" for w in settings.warnings]
    if not trusted:
        notes.append(
            f"project {folder} is not trusted: its hooks and settings hooks are skipped "
            f"(run `hookline trust {folder}` or pass --trust-project)"
        )
    plan = plan_module_hooks(settings, trusted, folder, list(hook_paths or []))
    if plan.note is not None:
        notes.append(plan.note)
    modules = LoadResult() if plan.discovery is None else load_hooks(plan.discovery, cwd=folder)
    if plan.limit is not None:
        modules.skipped.extend(_held_back(plan, settings, trusted, folder, hook_paths or []))
    policy = hook_policy(settings)
    plugins: list[Plugin] = []
    if not policy.managed_only:
        found, warnings = enabled_plugins(settings, folder, trusted)
        plugins = found.plugins
        notes.extend(f"plugins: {w}" for w in warnings)
    claude = ClaudeHooks.from_settings(
        settings,
        plugins=plugins,
        policy=policy,
        project_trusted=trusted,
        project_dir=folder,
        skip=skip_bridge_duplicates([s.key for s in modules.sources], folder, settings.merged.env),
    )
    notes.extend(f"settings hooks: {problem}" for problem in claude.engine.errors)
    return ProjectHooks(folder, trusted, settings, plan, modules, claude, notes)


def _held_back(
    plan: ModuleHookPlan, settings: LoadedSettings, trusted: bool, cwd: str, paths: list[str]
) -> list[SkippedSource]:
    """The hook modules policy keeps from loading (``disableAllHooks`` ...), never imported."""
    everything = plan_module_hooks(settings, trusted, cwd, list(paths), ignore_policy=True)
    allowed = {s.key for s in plan.discovery.sources} if plan.discovery is not None else set()
    assert everything.discovery is not None and plan.limit is not None
    return [
        SkippedSource(source, plan.limit)
        for source in everything.discovery.sources
        if source.key not in allowed
    ]
