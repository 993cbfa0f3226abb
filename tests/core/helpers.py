"""Helpers shared by the core tests (a unique module name: test folders have no packages)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hookline.core.api import HookAPI
from hookline.core.runner import HookError, HookRunner

Setup = Callable[[HookAPI], None]


class Built:
    """A runner with one hook per setup function, and every error it reported."""

    def __init__(self, runner: HookRunner, apis: list[HookAPI]) -> None:
        self.runner = runner
        self.apis = apis
        self.errors: list[HookError] = []
        runner.on_error(self.errors.append)

    async def emit(self, event: Any) -> Any:
        return await self.runner.emit(event)


MakeRunner = Callable[..., Built]
