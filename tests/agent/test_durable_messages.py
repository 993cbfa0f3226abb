"""A ``message`` event acknowledges an entry: it goes out only once the entry is on disk.

Appends write at once and a background thread fsyncs them; the agent awaits
``session.flushed()`` before publishing, so a JSON/RPC host never hears of an
entry that a power cut could still take away.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .conftest import MakeAgent

_SEND = """\
def register(pi):
    def on_end(event, ctx):
        pi.send_message({"custom_type": "note", "content": "after the run", "display": True})
    pi.on("agent_end", on_end)
"""


async def test_message_events_wait_for_the_fsync(make_agent: MakeAgent) -> None:
    h = await make_agent(
        [{"tool_calls": [{"name": "ls", "arguments": {}}]}, "done"], hooks={"send": _SEND}
    )
    session = h.agent.session
    committer = session._committer  # white box: what is on disk so far
    assert committer is not None
    seen: list[tuple[str, bool, bool]] = []

    def listener(payload: dict[str, Any]) -> None:
        if payload.get("type") != "message":
            return
        file = session.get_session_file()
        assert file is not None
        last = session.get_entries()[-1]["id"]
        seen.append((last, committer.durable == committer._written, last in Path(file).read_text()))

    h.agent.subscribe(listener)
    await h.agent.prompt("list the files")
    await h.agent.wait_for_idle()  # the hook's send_message is acknowledged by a task
    # user, assistant (tool call), tool result, assistant, then the hook's message
    assert len(seen) == 5, seen
    assert all(durable and in_file for _, durable, in_file in seen), seen
