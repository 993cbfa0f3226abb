"""pi's bash-spawn-hook example in Python (``examples/pi/bash_spawn_hook.py``): the bash tool
sources ``~/.profile`` and sets ``PI_SPAWN_HOOK=1`` before each command."""

from __future__ import annotations

from pathlib import Path

import pytest

from hookline.core.messages import content_text

from ..harness import Example


async def test_the_shell_gets_the_profile_and_the_marker(
    example: Example, isolated_home: Path, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (isolated_home / ".profile").write_text("export FROM_PROFILE=sourced\n")
    monkeypatch.chdir(project)
    harness = example("bash_spawn_hook", project)
    bash = harness.runner.get_registered_tools()["bash"]
    outcome = await harness.run_tool(bash, {"command": 'echo "$FROM_PROFILE $PI_SPAWN_HOOK"; pwd'})
    assert content_text(outcome.result.content).rstrip("\n") == f"sourced 1\n{project}"
