"""Scripts and hooks for the terminal tests."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tests.modes.helpers import write_hook, write_script

from .pane import Pane


def app(
    tmp_path: Path,
    turns: Sequence[Any],
    hook: str | None = None,
    *extra: str,
) -> Pane:
    """A pane running hookline with a scripted model, an optional hook, no session file."""
    model = write_script(tmp_path / "script.json", turns)
    args = ["--model", model, "--no-session", *extra]
    if hook is not None:
        args += ["--hook", str(write_hook(tmp_path / "hook.py", hook))]
    project = tmp_path / "project"
    project.mkdir(exist_ok=True)
    return Pane(tmp_path, *args, cwd=project)


def bash(command: str) -> dict[str, Any]:
    return {"tool_calls": [{"name": "bash", "arguments": {"command": command}}]}
