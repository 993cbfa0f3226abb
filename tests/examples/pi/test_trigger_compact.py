"""pi's trigger-compact example (``examples/pi/trigger_compact.py``) in a real agent: a turn
past 100,000 tokens compacts, ``/trigger-compact`` compacts with its instructions, and the
notices say how it went."""

from __future__ import annotations

from hookline.core.events import SessionBeforeCompactEvent
from tests.agent.conftest import MakeAgent

from ..harness import PI_EXAMPLES
from .notices import NoticeUI

HOOK = [str(PI_EXAMPLES / "trigger_compact.py")]


async def test_a_turn_past_the_threshold_compacts(make_agent: MakeAgent) -> None:
    ui = NoticeUI()
    h = await make_agent(["one", "two"], hook_paths=HOOK, ui=ui)
    h.agent.context_window = 1_000_000  # the agent's own auto-compaction stays out of it
    await h.agent.prompt("first")
    assert ui.notifications == []  # a small context: nothing happens
    await h.agent.prompt("word " * 90_000)  # about 112,500 tokens
    await ui.notice("Compaction completed")
    assert [m for _, m in ui.notifications] == ["Compaction started", "Compaction completed"]
    compactions = [e for e in h.entries() if e["type"] == "compaction"]
    assert len(compactions) == 1
    assert h.events(SessionBeforeCompactEvent)[0].custom_instructions is None


async def test_the_command_compacts_with_its_instructions(make_agent: MakeAgent) -> None:
    ui = NoticeUI()
    h = await make_agent(["one", "two"], hook_paths=HOOK, ui=ui)
    h.agent.context_window = 1_000_000
    await h.agent.prompt("first")
    await h.agent.prompt("word " * 20_000)  # the newest 20,000 tokens are kept: "first" is not
    await h.runner.run_command("trigger-compact", " keep the API ")
    await ui.notice("Compaction completed")
    assert h.events(SessionBeforeCompactEvent)[0].custom_instructions == "keep the API"
    assert [e["type"] for e in h.entries()][-1] == "compaction"


async def test_a_compaction_that_writes_nothing_is_reported_as_failed(
    make_agent: MakeAgent,
) -> None:
    ui = NoticeUI()
    h = await make_agent([], hook_paths=HOOK, ui=ui)
    await h.runner.run_command("trigger-compact")  # an empty session: nothing to compact
    kind, message = await ui.notice("Compaction failed")
    assert kind == "error" and "nothing was compacted" in message
    assert not any(e["type"] == "compaction" for e in h.entries()[1:])
