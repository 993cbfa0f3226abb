"""A resumed session in the terminal app: its conversation redrawn, the way back on exit."""

from __future__ import annotations

import re
from pathlib import Path

from tests.modes.helpers import run_cli, write_script

from .helpers import bash
from .pane import Pane


def test_a_resumed_session_is_redrawn_and_exit_says_how_to_resume(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    model = write_script(tmp_path / "script.json", [bash("seq 1 50"), "counted to fifty"])
    first = run_cli(
        "-p", "count please", "--model", model, "--permission-mode", "bypassPermissions",
        "--cwd", str(project),
    )  # fmt: skip
    assert first.returncode == 0, first.stderr
    found = re.search(r"Resume with: hookline --resume (\S+)", first.stderr)
    assert found is not None, first.stderr
    session_id = found.group(1)

    later = write_script(tmp_path / "later.json", ["unused"])
    with Pane(tmp_path, "--model", later, "--resume", session_id[:8], cwd=project) as pane:
        pane.ready()
        screen = pane.wait_all(
            ["count please", "✓ bash  seq 1 50", "ctrl+o to expand", "counted to fifty"]
        )
        assert "    25\n" not in screen  # the tool block is collapsed: head and tail shown
        assert "… 42 more lines …" in screen
        assert screen.index("count please") < screen.index("counted to fifty")
        pane.keys("C-o")  # a replayed block expands as a live one does
        pane.wait_for(lambda s: "    25\n" in s and "    26\n" in s)
        pane.keys("C-d")
        assert pane.wait_exit() == 0
        pane.wait_all([f"Resume with: hookline --resume {session_id}"])
