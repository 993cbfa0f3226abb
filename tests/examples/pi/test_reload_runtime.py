"""pi's reload-runtime example in Python (``examples/pi/reload_runtime.py``): the command
reloads the hooks; the tool queues the command as a follow-up user message."""

from __future__ import annotations

from pathlib import Path

from hookline.agent.setup import AgentOptions, build_agent
from hookline.core.messages import content_text
from tests.modes.helpers import write_script

from ..harness import PI_EXAMPLES, Example


async def test_the_command_loads_the_hooks_anew(tmp_path: Path, project: Path) -> None:
    options = AgentOptions(
        cwd=str(project),
        model=write_script(tmp_path / "s.json", ["ok"]),
        hook_paths=[str(PI_EXAMPLES / "reload_runtime.py")],
    )
    bundle = await build_agent(options)
    try:
        await bundle.agent.start()
        before = bundle.runner.hooks[0]
        prompts = project / ".hookline" / "prompts"
        prompts.mkdir(parents=True)
        (prompts / "added.md").write_text("added since start-up\n")
        assert await bundle.runner.run_command("reload-runtime")
        assert bundle.runner.hooks[0] is not before  # the module ran again
        assert bundle.runner.get_command("reload-runtime") is not None
        assert "added" in [c.name for c in bundle.agent.get_commands()]  # found on reload
    finally:
        await bundle.agent.shutdown()
        bundle.agent.session.close()


async def test_the_tool_queues_the_command_as_a_follow_up(example: Example) -> None:
    harness = example("reload_runtime")
    tool = harness.runner.get_registered_tools()["reload_runtime"]
    outcome = await harness.run_tool(tool, {})
    assert content_text(outcome.result.content) == "Queued /reload-runtime as a follow-up command."
    ((message, deliver_as),) = harness.host.delivered
    assert (content_text(message["content"]), deliver_as) == ("/reload-runtime", "follow_up")
