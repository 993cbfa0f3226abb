"""The combination rules pi changed, seen end to end through a real agent."""

from __future__ import annotations

from pathlib import Path

from hookline.core.messages import content_text

from .conftest import MakeAgent
from .helpers import texts

TWO_STARTERS = {
    "a": """\
def register(pi):
    @pi.on("before_agent_start")
    def a(event, ctx):
        return {"message": {"custom_type": "a", "content": "from a"},
                "system_prompt": event.system_prompt + "\\nRule A."}
""",
    "b": """\
def register(pi):
    @pi.on("before_agent_start")
    def b(event, ctx):
        return {"message": {"custom_type": "b", "content": "from b"},
                "system_prompt": event.system_prompt + "\\nRule B."}
""",
}


async def test_before_agent_start_messages_and_system_prompt_reach_the_model(
    make_agent: MakeAgent,
) -> None:
    h = await make_agent(["one", "two"], hooks=TWO_STARTERS, system_prompt="Base.")
    await h.agent.prompt("hi")
    assert texts(h.seen_by_model(0)) == ["hi", "from a", "from b"]
    assert h.provider.requests[0].system_prompt == "Base.\nRule A.\nRule B."
    await h.agent.prompt("again")  # reset every run, never cumulative
    assert h.provider.requests[1].system_prompt == "Base.\nRule A.\nRule B."


async def test_input_handled_action_skips_the_model(make_agent: MakeAgent) -> None:
    hook = """\
def register(pi):
    @pi.on("input")
    def ping(event, ctx):
        if event.text == "ping":
            return {"action": "handled"}
        return {"action": "transform", "text": event.text.upper()}
"""
    h = await make_agent(["answer"], hooks={"ping": hook})
    assert await h.agent.prompt("ping") == []
    assert h.provider.requests == []
    await h.agent.prompt("shout")
    assert texts(h.seen_by_model(0)) == ["SHOUT"]


async def test_user_bash_result_replaces_running_the_command(
    make_agent: MakeAgent, project: Path
) -> None:
    hook = """\
def register(pi):
    @pi.on("user_bash")
    def remote(event, ctx):
        return {"result": {"output": "ran on the build box: " + event.command, "exitCode": 0}}
"""
    h = await make_agent([], hooks={"remote": hook})
    result = await h.agent.run_user_bash("touch here.txt")
    assert content_text(result.content) == "ran on the build box: touch here.txt"
    assert result.details == {"exit_code": 0, "from_hook": True}
    assert not (project / "here.txt").exists()
