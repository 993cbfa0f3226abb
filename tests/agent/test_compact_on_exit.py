"""A compaction a hook asks for at the end of a run is written before the agent exits."""

from __future__ import annotations

from .conftest import MakeAgent

COMPACT_AT_END = """
def register(pi):
    @pi.on("agent_end")
    def compact(event, ctx):
        ctx.compact(custom_instructions="keep it short")
"""


async def test_shutdown_waits_for_a_compaction_a_hook_asked_for(make_agent: MakeAgent) -> None:
    long_line = "x" * 200
    big = {
        "tool_calls": [
            {"name": "bash", "arguments": {"command": f"yes {long_line} | head -n 1500"}}
        ]
    }
    h = await make_agent([big, big, "done"], hooks={"compact": COMPACT_AT_END})
    await h.agent.prompt("go")
    assert not any(e["type"] == "compaction" for e in h.entries())  # not yet: it waits for idle
    await h.agent.shutdown()
    assert any(e["type"] == "compaction" for e in h.entries())
    assert "session_compact" in h.types()
