"""The ``example`` fixture's type, importable by the test modules (conftest is not)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from hookline.authoring import HookHarness
from hookline.core.api import HookAPI

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "hooks"
PI_EXAMPLES = EXAMPLES.parent / "pi"


def example_path(name: str) -> Path:
    """``examples/hooks/<name>.py``, else the port of pi's example in ``examples/pi/``
    (a module, or a package's ``__init__.py``)."""
    found = [
        candidate
        for candidate in (
            EXAMPLES / f"{name}.py",
            PI_EXAMPLES / f"{name}.py",
            PI_EXAMPLES / name / "__init__.py",
        )
        if candidate.is_file()
    ]
    if not found:
        raise FileNotFoundError(f"no example named {name!r} in {EXAMPLES} or {PI_EXAMPLES}")
    if len(found) > 1:  # a test would silently load the other one
        raise LookupError(f"two examples named {name!r}: {', '.join(map(str, found))}")
    return found[0]


class Example(Protocol):
    def __call__(
        self,
        name: str,
        cwd: str | Path | None = None,
        *,
        answers: dict[str, Any] | None = None,
        extra: Callable[[HookAPI], None] | None = None,
    ) -> HookHarness: ...
