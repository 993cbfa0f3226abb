"""``turn_end`` handlers the run does not wait for, as in pi (``agent.lagging``)."""

from __future__ import annotations

from .conftest import MakeAgent

SLOW_TURN_END = """\
import asyncio

SEEN = []


def register(pi):
    @pi.on("turn_end")
    async def slow(event, ctx):
        SEEN.append(("turn_end", event.turn_index, "start"))
        await asyncio.sleep(0.3)
        SEEN.append(("turn_end", event.turn_index, "done"))
        if event.turn_index == 0:
            raise RuntimeError("slow rule is broken")

    @pi.on("turn_start")
    def turn_start(event, ctx):
        SEEN.append(("turn_start", event.turn_index))

    @pi.on("context")
    def context(event, ctx):
        SEEN.append(("context",))

    @pi.on("tool_call")
    def tool_call(event, ctx):
        SEEN.append(("tool_call",))

    @pi.on("agent_end")
    def agent_end(event, ctx):
        SEEN.append(("agent_end",))
"""

LS = {"tool_calls": [{"name": "ls", "arguments": {}}]}


async def test_the_next_model_call_goes_out_while_turn_end_runs(make_agent: MakeAgent) -> None:
    h = await make_agent([LS, "done"], hooks={"slow": SLOW_TURN_END})
    await h.agent.prompt("look")
    assert h.hook("slow").SEEN == [
        ("turn_start", 0),
        ("context",),
        ("tool_call",),
        ("turn_end", 0, "start"),
        ("context",),  # the next call did not wait
        ("turn_end", 0, "done"),
        ("turn_start", 1),  # queued behind it, as pi's event queue keeps them
        ("turn_end", 1, "start"),
        ("turn_end", 1, "done"),
        ("agent_end",),  # the run ends after every handler
    ]
    (error,) = h.errors
    assert (error.event, "slow rule is broken" in error.error) == ("turn_end", True)
    assert h.agent.lagging.pending is False


async def test_a_tool_call_waits_for_the_lagging_handlers(make_agent: MakeAgent) -> None:
    h = await make_agent([LS, LS, "done"], hooks={"slow": SLOW_TURN_END})
    await h.agent.prompt("look twice")
    seen = h.hook("slow").SEEN
    second_call = [i for i, s in enumerate(seen) if s == ("tool_call",)][1]
    assert seen.index(("turn_end", 0, "done")) < second_call
    assert seen.index(("turn_start", 1)) < second_call
