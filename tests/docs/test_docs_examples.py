"""The docs' first hook works as written: extracted from the page, loaded, and tried."""

from __future__ import annotations

import re
from pathlib import Path

from hookline.authoring import HookHarness

PAGE = Path(__file__).resolve().parents[2] / "docs" / "getting-started.md"


async def test_the_getting_started_hook_blocks_force_pushes(
    hook_harness: HookHarness, tmp_path: Path
) -> None:
    [code] = re.findall(r"```python\n(.*?)```", PAGE.read_text(), re.S)
    hook = tmp_path / "no_force_push.py"
    hook.write_text(code)
    hook_harness.load(hook)
    (await hook_harness.tool_call("bash", {"command": "git push --force"})).assert_blocked("force")
    (await hook_harness.tool_call("Bash", {"command": "git push"})).assert_allowed()
    (await hook_harness.tool_call("bash", {"command": "'git' push --force"})).assert_blocked()
