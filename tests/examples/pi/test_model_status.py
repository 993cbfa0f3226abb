"""pi's model-status example (``examples/pi/model_status.py``): the model in the status
line, a notice on a change (not on a restore)."""

from __future__ import annotations

import json
from pathlib import Path

from hookline.authoring import HookHarness
from tests.examples.harness import example_path
from tests.modes.tui.helpers import app

MODEL = {"provider": "anthropic", "id": "claude-sonnet-4-5"}
BEFORE = {"provider": "openai", "id": "gpt-5"}


def _status(harness: HookHarness) -> str:
    return dict(harness.ui.status.items())["model"]


async def test_a_change_is_notified_and_shown(tmp_path: Path) -> None:
    harness = HookHarness(tmp_path).load(example_path("model_status"))
    await harness.emit(
        "model_select",
        model=MODEL,
        spec="anthropic:claude-sonnet-4-5",
        previous_model=BEFORE,
        previous_spec="openai:gpt-5",
        source="set",
    )
    assert harness.ui.notifications == [("info", "Model: anthropic/claude-sonnet-4-5")]
    assert _status(harness) == "🤖 claude-sonnet-4-5"


async def test_a_restore_is_shown_but_not_notified(tmp_path: Path) -> None:
    harness = HookHarness(tmp_path).load(example_path("model_status"))
    await harness.emit("model_select", model=MODEL, spec="x", source="restore")
    assert harness.ui.notifications == []
    assert _status(harness) == "🤖 claude-sonnet-4-5"


def test_in_the_terminal_app_model_switches_show(tmp_path: Path) -> None:
    other = tmp_path / "other-model.json"
    other.write_text(json.dumps({"turns": []}))
    with app(tmp_path, [], None, "--hook", str(example_path("model_status"))) as pane:
        pane.ready()
        pane.type(f"/model scripted:{other}")
        pane.keys("Enter")
        # the notice wraps where the pane is narrower than the model's path
        pane.wait_for(lambda s: "Model:scripted/" in "".join(s.split()) and "🤖 " in s)
        pane.wait_for(
            lambda s: any("🤖" in line and "other-model" in line for line in s.splitlines())
        )
