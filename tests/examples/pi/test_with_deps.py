"""pi's with-deps example in Python (``examples/pi/with_deps/``): the hook imports a
dependency kept beside it, and its tool works through the agent."""

from __future__ import annotations

import sys
from pathlib import Path

from hookline.discovery import module_name_for
from tests.modes.helpers import json_lines, run_cli, write_script

from ..harness import PI_EXAMPLES, Example

HOOK = PI_EXAMPLES / "with_deps"


async def test_the_vendored_dependency_is_the_hooks_own(example: Example) -> None:
    harness = example("with_deps")
    tool = harness.runner.get_registered_tools()["parse_duration"]
    name = module_name_for(str(HOOK / "__init__.py"))
    assert f"{name}._vendor.ms" in sys.modules  # under the hook's name, not a global `ms`
    assert "ms" not in sys.modules and "_vendor" not in sys.modules
    for duration, expected in (("2 days", "172800000"), ("1h", "3600000"), ("2.5 hrs", "9000000")):
        outcome = await harness.run_tool(tool, {"duration": duration})
        assert outcome.result.content[0] == {
            "type": "text",
            "text": f"{duration} = {expected} milliseconds",
        }
    failed = await harness.run_tool(tool, {"duration": "soon"})
    assert failed.result.is_error and 'Invalid duration: "soon"' in str(failed.result.content)


def test_the_model_calls_the_tool(tmp_path: Path, project: Path) -> None:
    turns = [
        {
            "text": "parsing",
            "tool_calls": [{"name": "parse_duration", "arguments": {"duration": "5m"}}],
        },
        {"text": "five minutes", "expect_tool_result_contains": "5m = 300000 milliseconds"},
    ]
    done = run_cli(
        "-p", "how long is 5m?", "--mode", "json",
        "--model", write_script(tmp_path / "s.json", turns),
        "--hook", str(HOOK), "--permission-mode", "bypassPermissions",
        cwd=project,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    ends = [x for x in json_lines(done.stdout) if x["type"] == "tool_execution_end"]
    assert [x["is_error"] for x in ends] == [False]
