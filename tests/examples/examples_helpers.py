"""Load an example hook FILE the way the loader does (by path) and run it in a runner."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from hookline.core.api import HookAPI, LoadedHook
from hookline.core.runner import HookError, HookRunner
from hookline.core.ui import NoUI

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "hooks"


def load_example(name: str) -> ModuleType:
    """Import ``examples/hooks/<name>.py`` by path under a private module name."""
    path = EXAMPLES / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"example_hook_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


class ScriptedUI(NoUI):
    """A UI whose dialogs give fixed answers and record what they were asked."""

    def __init__(self, select: str | None = None, confirm: bool = False) -> None:
        super().__init__()
        self.select_answer = select
        self.confirm_answer = confirm
        self.asked: list[tuple[str, Any]] = []

    async def select(self, title: str, options: Sequence[str]) -> str | None:
        self.asked.append((title, list(options)))
        return self.select_answer

    async def confirm(self, title: str, message: str) -> bool:
        self.asked.append((title, message))
        return self.confirm_answer


class Loaded:
    def __init__(self, runner: HookRunner, module: ModuleType) -> None:
        self.runner = runner
        self.module = module
        self.errors: list[HookError] = []
        runner.on_error(self.errors.append)


def run_example(
    name: str,
    cwd: str | Path = ".",
    ui: NoUI | None = None,
    extra: Callable[[HookAPI], None] | None = None,
) -> Loaded:
    """A runner with the example loaded from its file (then ``extra`` as a second hook)."""
    module = load_example(name)
    runner = HookRunner(cwd=str(cwd))
    hook = LoadedHook(path=str(EXAMPLES / f"{name}.py"))
    api = HookAPI(hook, str(cwd))
    module.register(api)
    runner.add_hook(hook, api)
    if extra is not None:
        hook2 = LoadedHook(path="extra.py")
        api2 = HookAPI(hook2, str(cwd))
        extra(api2)
        runner.add_hook(hook2, api2)
    if ui is not None:
        runner.set_ui(ui, has_ui=type(ui) is not NoUI)
    return Loaded(runner, module)
