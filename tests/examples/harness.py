"""The ``example`` fixture's type, importable by the test modules (conftest is not)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from hookline.authoring import HookHarness
from hookline.core.api import HookAPI

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "hooks"


class Example(Protocol):
    def __call__(
        self,
        name: str,
        cwd: str | Path | None = None,
        *,
        answers: dict[str, Any] | None = None,
        extra: Callable[[HookAPI], None] | None = None,
    ) -> HookHarness: ...
