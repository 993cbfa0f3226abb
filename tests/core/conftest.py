"""Fixtures for the engine core tests: a project folder and a runner builder."""

from __future__ import annotations

from pathlib import Path

import pytest

from hookline.core.api import HookAPI, LoadedHook
from hookline.core.runner import DEFAULT_HOOK_TIMEOUT, HookRunner

from .helpers import Built, MakeRunner, Setup


@pytest.fixture
def make_runner(project: Path) -> MakeRunner:
    """``make_runner(setup, setup, ..., timeout=)``: hook ``hook{i}.py`` per setup, in order."""

    def make(*setups: Setup, timeout: float | None = DEFAULT_HOOK_TIMEOUT) -> Built:
        runner = HookRunner(cwd=str(project), timeout=timeout)
        apis = []
        for i, setup in enumerate(setups):
            hook = LoadedHook(path=f"hook{i}.py")
            api = HookAPI(hook, str(project))
            setup(api)
            runner.add_hook(hook, api)
            apis.append(api)
        return Built(runner, apis)

    return make
