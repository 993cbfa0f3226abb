"""pi's input-transform example (``examples/pi/input_transform.py``): ``?quick`` reaches the
model rewritten, ``ping`` and ``time`` are answered without it, in real ``-p`` runs."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.examples.harness import PI_EXAMPLES, Example
from tests.modes.helpers import run_cli, write_script

PORT = str(PI_EXAMPLES / "input_transform.py")


def test_quick_asks_the_model_for_a_brief_answer(tmp_path: Path) -> None:
    model = write_script(
        tmp_path / "script.json",
        [
            {
                "text": "A language.",
                "expect_user_contains": "Respond briefly in 1-2 sentences: What is Python?",
            }
        ],
    )
    done = run_cli("-p", "?quick What is Python?", "--model", model, "--no-session", "--hook", PORT)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "A language.\n"


@pytest.mark.parametrize(
    ("prompt", "note"),
    [
        ("ping", "[info] pong"),
        ("PING", "[info] pong"),
        ("time", f"[info] {time.strftime('%a %b')}"),
        ("?quick   ", "[warning] Usage: ?quick <question>"),
    ],
)
def test_answered_without_the_model(tmp_path: Path, prompt: str, note: str) -> None:
    model = write_script(tmp_path / "script.json", [])  # any model call would fail the run
    done = run_cli("-p", prompt, "--model", model, "--no-session", "--hook", PORT)
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    assert note in done.stderr


async def test_a_prompt_a_hook_sent_is_left_alone(example: Example) -> None:
    harness = example("input_transform")
    emitted = await harness.emit("input", text="ping", source="extension")
    assert not emitted.blocked
    emitted = await harness.emit("input", text="ping", source="interactive")
    assert emitted.blocked
