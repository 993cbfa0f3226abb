"""pi's hello example (``examples/pi/hello.py``): the model calls ``hello`` and reads the
greeting, in a real ``-p`` run with a scripted model."""

from __future__ import annotations

from pathlib import Path

from tests.examples.harness import PI_EXAMPLES
from tests.modes.helpers import run_cli, write_script


def test_the_model_calls_hello_and_reads_the_greeting(tmp_path: Path) -> None:
    model = write_script(
        tmp_path / "script.json",
        [
            {"tool_calls": [{"name": "hello", "arguments": {"name": "Ada"}}]},
            {"text": "Greeted.", "expect_tool_result_contains": "Hello, Ada!"},
        ],
    )
    done = run_cli(
        *("-p", "greet Ada", "--model", model, "--no-session", "--cwd", str(tmp_path)),
        *("--hook", str(PI_EXAMPLES / "hello.py"), "--permission-mode", "bypassPermissions"),
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "Greeted.\n"
