"""Fixtures for the tools tests: a project directory and a runner builder."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from hookline.core.api import HookAPI, LoadedHook
from hookline.core.runner import HookRunner

MakeRunner = Callable[..., HookRunner]


@pytest.fixture
def make_runner(project: Path) -> MakeRunner:
    """``make_runner(setup, ...)``: one hook per ``setup(api)``, loaded in order."""

    def make(*setups: Callable[[HookAPI], None]) -> HookRunner:
        runner = HookRunner(cwd=str(project))
        for i, setup in enumerate(setups):
            hook = LoadedHook(path=f"hook{i}.py")
            api = HookAPI(hook, str(project))
            setup(api)
            runner.add_hook(hook, api)
        return runner

    return make
