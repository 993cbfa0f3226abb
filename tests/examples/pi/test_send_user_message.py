"""pi's send-user-message example in Python (``examples/pi/send_user_message.py``): commands
that send user messages, which pass the ``input`` hooks with ``source="extension"``."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from hookline.agent.setup import AgentOptions, build_agent
from hookline.core.messages import content_text
from tests.modes.helpers import write_hook, write_script

from ..harness import PI_EXAMPLES, Example

INPUT_RECORDER = """
import json, os

def register(pi):
    @pi.on("input")
    def seen(event, ctx):
        with open(os.path.join(ctx.cwd, "inputs.jsonl"), "a") as f:
            f.write(json.dumps([event.source, event.text]) + "\\n")
"""


async def test_askwith_sends_blocks_through_the_input_hooks(tmp_path: Path, project: Path) -> None:
    recorder = write_hook(tmp_path / "recorder.py", INPUT_RECORDER)
    turns = [{"text": "4", "expect_user_contains": ["User request: what is 2+2?"]}]
    options = AgentOptions(
        cwd=str(project),
        model=write_script(tmp_path / "s.json", turns),
        hook_paths=[str(PI_EXAMPLES / "send_user_message.py"), str(recorder)],
    )
    bundle = await build_agent(options)
    try:
        await bundle.agent.start()
        assert await bundle.runner.run_command("askwith", "what is 2+2?")
        for _ in range(500):  # the run starts on the next loop turns
            await asyncio.sleep(0.01)
            await bundle.agent.wait_for_idle()
            if len(bundle.agent.session.build_context_messages()) >= 2:
                break
        first, answer = bundle.agent.session.build_context_messages()
        assert [b.get("text") for b in first["content"]] == [  # type: ignore[union-attr]
            "User request: what is 2+2?",
            "Please respond concisely.",
        ]
        assert content_text(answer["content"]) == "4"
        inputs = (project / "inputs.jsonl").read_text().splitlines()
        assert [json.loads(x) for x in inputs] == [
            ["extension", "User request: what is 2+2?\nPlease respond concisely."]
        ]
    finally:
        await bundle.agent.shutdown()
        bundle.agent.session.close()


async def test_empty_and_busy(example: Example) -> None:
    harness = example("send_user_message", answers={})
    await harness.command("ask", "  ")
    assert harness.ui.notifications[-1] == ("warning", "Usage: /ask <message>")
    harness.host.is_idle = lambda: False  # type: ignore[method-assign]
    await harness.command("ask", "now")
    assert harness.ui.notifications[-1] == (
        "warning",
        "Agent is busy. Use /steer or /followup instead.",
    )
    await harness.command("steer", "focus")
    await harness.command("followup", "then this")
    assert harness.ui.notifications[-1] == ("info", "Follow-up queued")
    sent = [(content_text(m["content"]), how) for m, how in harness.host.delivered]
    assert sent == [("focus", "steer"), ("then this", "follow_up")]


async def test_when_idle_steer_and_followup_send_plainly(example: Example) -> None:
    harness = example("send_user_message")
    await harness.command("steer", "a")
    await harness.command("followup", "b")
    assert [how for _, how in harness.host.delivered] == [None, None]
