"""pi's titlebar-spinner example (``examples/pi/titlebar_spinner.py``): the terminal's
title spins while the agent works, and is plain again when it is done."""

from __future__ import annotations

import os
from pathlib import Path

from tests.examples.harness import example_path
from tests.modes.tui.helpers import app, bash

FRAMES = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"


def test_the_title_spins_while_a_turn_runs(tmp_path: Path) -> None:
    fifo = tmp_path / "release"
    os.mkfifo(fifo)
    turns = [bash(f"read word < {fifo}; echo released-$word"), "done"]
    hook = str(example_path("titlebar_spinner"))
    with app(
        tmp_path, turns, None, "--hook", hook, "--permission-mode", "bypassPermissions"
    ) as pane:
        pane.ready()
        pane.type("go")
        pane.keys("Enter")
        pane.wait_for("read word")  # the call runs, waiting on the FIFO
        pane.wait_for(lambda s: pane.title()[:1] in FRAMES and pane.title().endswith("π - project"))
        first = pane.title()
        pane.wait_for(lambda s: pane.title() not in (first, "π - project"))  # the next frame
        with fifo.open("w") as writer:
            writer.write("go\n")
        pane.wait_all(["released-go", "done"])
        pane.wait_for(lambda s: pane.title() == "π - project")
