"""``/reload`` and ``ctx.reload()``: discover the hooks again and swap them in, whole.

Module hooks are discovered and imported anew (files added since count), the
providers they register replace the ones they registered before, and
the settings hooks are read again, both with the trust decided at start-up,
so an untrusted project's hooks stay out. Everything is loaded first and
swapped into the runner in one step: a module that now fails to load is
reported and left out (never half there), and settings that cannot be used
keep the settings hooks as they were.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TextIO

from hookline.discovery import LoadResult, load_hooks_async

if TYPE_CHECKING:
    from hookline.agent.providers.registered import ProviderTable
    from hookline.agent.setup import ModuleHookPlan
    from hookline.claude.adapter import ClaudeHooks
    from hookline.core.api import HookAPI, LoadedHook
    from hookline.core.runner import HookRunner
    from hookline.settings.loader import LoadedSettings

_log = logging.getLogger("hookline.agent")


@dataclass(frozen=True, slots=True)
class Reloaded:
    """What a reload found: the hooks now loaded, and what could not be (one line each)."""

    hooks: LoadResult
    problems: list[str] = field(default_factory=list)


class HookReload:
    """Reloads the module hooks of ``plan`` and the settings hooks of ``claude`` into
    ``runner``; ``loaded`` is what is loaded now (``/hooks`` lists it)."""

    def __init__(
        self,
        plan: Callable[[], ModuleHookPlan],
        runner: HookRunner,
        loaded: LoadResult,
        cwd: str,
        *,
        read_settings: Callable[[], LoadedSettings] | None = None,
        claude: ClaudeHooks | None = None,
        err: TextIO | None = None,
        registered: ProviderTable | None = None,
    ) -> None:
        self._plan = plan
        self._registered = registered
        self._runner = runner
        self.loaded = loaded
        self._cwd = cwd
        self._read_settings = read_settings
        self._claude = claude
        self._err = err
        #: What the last reload found (``None`` before one).
        self.last: Reloaded | None = None

    async def __call__(self) -> Reloaded:
        problems: list[str] = []
        fresh = LoadResult()
        plan = self._plan()  # a fresh plan: discovery finds files added since start-up
        if plan.discovery is not None:
            fresh = await load_hooks_async(plan.discovery, cwd=self._cwd)
        problems += [f"hook {e.path} failed to load: {e.reason}" for e in fresh.errors]
        fresh.flag_values.update(self.loaded.flag_values)
        fresh.events.on_error = self.loaded.events.on_error
        new: list[tuple[LoadedHook, HookAPI | None]] = list(fresh.pairs())
        old: list[LoadedHook] = list(self.loaded.hooks)
        settings_hook = self._settings_hook(problems)
        if settings_hook is not None:
            from hookline.claude.adapter import SETTINGS_HOOK_PATH

            old += [h for h in self._runner.hooks if h.path == SETTINGS_HOOK_PATH]
            new.append((settings_hook, None))
        self._runner.replace_hooks(old, new)
        if self._registered is not None:  # the providers the hooks register, anew
            problems += self._registered.load(fresh.hooks, replacing=self.loaded.hooks)
        self.loaded = fresh
        for problem in problems:
            self._say(problem)
        self.last = Reloaded(fresh, problems)
        return self.last

    def _settings_hook(self, problems: list[str]) -> LoadedHook | None:
        """The settings hooks read again, as one bus hook; None keeps the ones in place
        (no settings hooks at start-up, or settings that cannot be used now)."""
        if self._read_settings is None:
            return None
        settings = self._read_settings()
        if settings.errors:
            problems += [f"settings kept as they were: {e}" for e in settings.errors]
            return None
        if self._claude is None:
            if settings.command_hooks():
                problems.append("settings hooks added since start-up load at the next start")
            return None
        hook = self._claude.reload(settings)
        problems += [f"settings hooks: {p}" for p in self._claude.engine.errors]
        return hook

    def _say(self, text: str) -> None:
        if self._err is None:
            _log.error("%s", text)
        else:
            print(f"hookline: {text}", file=self._err, flush=True)
