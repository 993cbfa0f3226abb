"""The example hooks are tested through hookline's pytest plugin, as a hook author would."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hookline.authoring import HookHarness
from hookline.core.api import HookAPI

from .harness import Example, example_path


@pytest.fixture
def example(make_harness: Callable[..., HookHarness]) -> Example:
    """``example("permission_gate")``: a harness with ``examples/hooks/<name>.py`` (or the
    port of pi's example in ``examples/pi/``) loaded.

    ``answers`` ({"select": "Yes"}) gives it a UI answering so; without it ``ctx.has_ui``
    is false and dialogs answer as in print mode. ``extra`` registers a second hook after it.
    """

    def build(
        name: str,
        cwd: str | Path | None = None,
        *,
        answers: dict[str, Any] | None = None,
        extra: Callable[[HookAPI], None] | None = None,
    ) -> HookHarness:
        harness = make_harness(example_path(name), cwd=cwd, has_ui=answers is not None)
        for kind, value in (answers or {}).items():
            harness.ui.answer(kind, value)
        if extra is not None:
            harness.register(extra, "extra.py")
        return harness

    return build
