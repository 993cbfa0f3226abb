"""Running a pi port's UI: under tmux in the terminal app, and in print mode."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.examples.harness import example_path
from tests.modes.helpers import run_cli, write_script
from tests.modes.tui.pane import Pane

#: While a component overlay shows the app is one row shorter than the terminal: the
#: screen row of an overlay's row 0.
OVERLAY_TOP = 1


def tui(tmp_path: Path, name: str, *extra: str) -> Pane:
    """The terminal app with the port ``name`` loaded, a scripted model, no session file."""
    model = write_script(tmp_path / "script.json", ["Done."])
    project = tmp_path / "project"
    project.mkdir(exist_ok=True)
    args = ["--model", model, "--hook", str(example_path(name)), *extra]
    return Pane(tmp_path, *args, cwd=project)


def print_mode(tmp_path: Path, name: str, prompt: str) -> subprocess.CompletedProcess[str]:
    """``hookline -p PROMPT`` with the port loaded (its notifications go to stderr)."""
    model = write_script(tmp_path / "script.json", ["Done."])
    return run_cli(
        "-p", prompt, "--model", model, "--hook", str(example_path(name)), "--no-session"
    )


def input_box(screen: str) -> str:
    """The app's input box on ``screen``: the lines below its top rule, the footer included
    (none while a redraw is under way)."""
    lines = screen.rstrip("\n").splitlines()
    rules = [i for i, line in enumerate(lines) if line.startswith("────")]
    return "\n".join(lines[rules[-1] + 1 :]) if rules else ""
