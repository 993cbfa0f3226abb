"""pi's custom-footer example (``examples/pi/custom_footer.py``): ``/footer`` swaps the
footer for a component showing tokens, model and git branch, drawn again live when the
branch changes."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.examples.harness import example_path
from tests.modes.tui.helpers import app

USAGE = {"input_tokens": 1200, "output_tokens": 34}


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def test_the_footer_shows_tokens_model_and_the_live_branch(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    _git(project, "init", "-q", "-b", "main")
    turns = [{"text": "counted", "usage": USAGE}]
    with app(tmp_path, turns, None, "--hook", str(example_path("custom_footer"))) as pane:
        pane.ready()
        pane.type("hello")
        pane.keys("Enter")
        pane.wait_for("counted")
        pane.type("/footer")
        pane.keys("Enter")

        def footer(screen: str) -> str:
            return screen.rstrip("\n").splitlines()[-1]

        screen = pane.wait_for(lambda s: "(main)" in footer(s))
        assert "↑1.2k ↓34" in footer(screen) and "script.json" in footer(screen)
        assert "msgs · ctx" not in screen  # the app's footer (it counts tokens too) is gone
        _git(project, "checkout", "-q", "-b", "feature")
        pane.wait_for(lambda s: "(feature)" in footer(s))  # redrawn on the branch change
        pane.type("/footer")
        pane.keys("Enter")
        pane.wait_for(lambda s: "Default footer restored" in s and "msgs · ctx" in s)
