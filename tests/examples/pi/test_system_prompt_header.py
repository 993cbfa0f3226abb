"""pi's system-prompt-header example (``examples/pi/system_prompt_header.py``): the effective
system prompt's length in the status line, in a real RPC session, cleared at shutdown."""

from __future__ import annotations

from pathlib import Path

from tests.examples.harness import PI_EXAMPLES
from tests.modes.helpers import RpcClient, write_hook, write_script

#: A second hook that makes the effective system prompt 4321 characters long.
PADDING = """
def register(pi):
    @pi.on("before_agent_start")
    def pad(event, ctx):
        return {"system_prompt": "x" * 4321}
"""


async def test_the_status_shows_the_system_prompts_length(tmp_path: Path) -> None:
    model = write_script(tmp_path / "script.json", ["done"])
    padding = write_hook(tmp_path / "padding.py", PADDING)
    header = PI_EXAMPLES / "system_prompt_header.py"
    args = ("--model", model, "--hook", str(padding), "--hook", str(header), "--no-session")
    async with RpcClient(*args, cwd=tmp_path) as client:
        await client.prompt("hi")
        assert await client.close_stdin() == 0
    statuses = [
        m["statusText"]
        for m in client.seen
        if m.get("method") == "setStatus" and m["statusKey"] == "system-prompt"
    ]
    assert statuses == ["System: 4321 chars", None]
