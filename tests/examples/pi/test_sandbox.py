"""pi's sandbox example in Python (``examples/pi/sandbox/``), on hookline's bubblewrap sandbox:
the bash tool and the user's ``!commands`` write only where the JSON configuration says."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from hookline.authoring import HookHarness
from hookline.core.messages import content_text
from hookline.core.results import UserBashResult
from tests.sandbox.helpers import needs_bwrap

from ..harness import Example


def _configure(project: Path, config: dict[str, object]) -> None:
    folder = project / ".hookline"
    folder.mkdir()
    (folder / "sandbox.json").write_text(json.dumps(config))


async def _started(example: Example, project: Path, monkeypatch: pytest.MonkeyPatch) -> HookHarness:
    monkeypatch.chdir(project)
    harness = example("sandbox", project, answers={})
    await harness.emit("session_start")
    return harness


async def _bash(harness: HookHarness, command: str) -> tuple[bool, str]:
    bash = harness.runner.get_registered_tools()["bash"]
    outcome = await harness.run_tool(bash, {"command": command})
    return outcome.result.is_error, content_text(outcome.result.content).strip()


@needs_bwrap
async def test_bash_writes_only_where_the_configuration_says(
    example: Example, project: Path, isolated_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _configure(project, {"filesystem": {"allowWrite": ["."], "denyWrite": ["*.key"]}})
    (isolated_home / ".ssh").mkdir()
    (isolated_home / ".ssh" / "id_rsa").write_text("PRIVATE")
    harness = await _started(example, project, monkeypatch)
    assert harness.ui.notifications[-1] == ("info", "Sandbox initialized"), harness.ui.notifications
    assert "Sandbox: 10 domains, 1 write paths" in dict(harness.ui.status.items())["sandbox"]

    assert await _bash(harness, "echo kept > inside.txt && cat inside.txt") == (False, "kept")
    (project / "server.key").write_text("original")
    failed, _ = await _bash(harness, "echo leak > server.key")
    assert failed and (project / "server.key").read_text() == "original"
    failed, _ = await _bash(harness, f"echo out > {isolated_home}/outside.txt")
    assert failed and not (isolated_home / "outside.txt").exists()
    failed, text = await _bash(harness, "cat ~/.ssh/id_rsa")
    assert failed and "PRIVATE" not in text

    result = await harness.emit("user_bash", command="touch ~/escaped", cwd=str(project))
    assert isinstance(result.result, UserBashResult)
    out: list[bytes] = []
    code = await result.result.operations.exec(
        "touch ~/escaped",
        str(project),
        on_data=out.append,
        signal=None,
        timeout=10,
        env=dict(os.environ),
    )
    assert code != 0 and not (isolated_home / "escaped").exists()

    await harness.command("sandbox-config")
    shown = harness.ui.notifications[-1][1]
    assert "Allow Write: ." in shown and "Deny Write: *.key" in shown
    await harness.emit("session_shutdown", reason="quit")


async def test_disabled_by_the_configuration(
    example: Example, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _configure(project, {"enabled": False})
    harness = await _started(example, project, monkeypatch)
    assert harness.ui.notifications == [("info", "Sandbox disabled via config")]
    assert await _bash(harness, "echo plain") == (False, "plain")
    await harness.command("sandbox-config")
    assert harness.ui.notifications[-1] == ("info", "Sandbox is disabled")
