"""The order of events in a real run matches pi's hook lifecycle (events and their flow).

pi's order inside a turn: ``turn_start``; the model is called with the
``context`` the hooks shaped; for each tool call ``tool_execution_start``,
then the wrapped tool's ``tool_call`` → (tool runs) → ``tool_result``, then
``tool_execution_end``; ``turn_end``. A run repeats turns while the model
calls tools; ``stop`` (hookline's Claude addition) comes before ``agent_end``.
"""

from __future__ import annotations

from pathlib import Path

from hookline import (
    ToolExecutionEndEvent,
    ToolExecutionStartEvent,
    ToolExecutionUpdateEvent,
)
from hookline.core.messages import content_text

from .conftest import MakeAgent
from .helpers import covers


def tool_turn(updates: int) -> list[str]:
    """A turn calling one tool; ``updates``: its ``toolcall_start``, argument pieces and end."""
    return [
        "turn_start",
        "context",
        "before_provider_request",
        "after_provider_response",
        "message_start",
        *["message_update"] * updates,
        *TOOL_TURN_END,
    ]


TOOL_TURN_END = [
    "message_end",
    "tool_execution_start",
    "tool_call",
    "tool_result",
    "tool_execution_end",
    "turn_end",
]


async def test_two_tool_turns_then_an_answer_emit_the_documented_order(
    make_agent: MakeAgent, project: Path
) -> None:
    (project / "notes.txt").write_text("hello\n")
    h = await make_agent(
        [
            {"tool_calls": [{"name": "ls", "arguments": {}}]},
            {"tool_calls": [{"name": "read", "arguments": {"path": "notes.txt"}}]},
            {"text": "notes.txt says hello", "expect_tool_result_contains": "hello"},
        ]
    )
    await h.agent.prompt("what do the notes say?")
    await h.agent.shutdown()

    assert h.types() == [
        "session_start",
        "resources_discover",  # after session_start, as in pi
        "input",
        "before_agent_start",
        "agent_start",
        *tool_turn(3),  # ls {}: start, one piece of JSON, end
        *tool_turn(4),  # read {"path": "notes.txt"}: start, two pieces, end
        "turn_start",
        "context",
        "before_provider_request",
        "after_provider_response",
        "message_start",
        "message_update",  # text_start
        "message_update",  # "notes.txt says hello": one streamed delta
        "message_update",  # text_end
        "message_end",
        "turn_end",
        "stop",
        "agent_end",
        "session_shutdown",
    ]
    assert h.errors == []
    assert h.provider.remaining == 0


async def test_a_second_prompt_repeats_the_run_events_but_not_session_start(
    make_agent: MakeAgent,
) -> None:
    h = await make_agent(["one", "two"])
    await h.agent.prompt("first")
    await h.agent.prompt("second")
    run = [
        "input",
        "before_agent_start",
        "agent_start",
        "turn_start",
        "context",
        "before_provider_request",
        "after_provider_response",
        "message_start",
        *["message_update"] * 3,  # text_start, the one delta, text_end
        "message_end",
        "turn_end",
    ]
    assert h.types() == [
        "session_start",
        "resources_discover",
        *run,
        "stop",
        "agent_end",
        *run,
        "stop",
        "agent_end",
    ]


@covers("tool_execution_update")
async def test_tool_execution_updates_stream_between_start_and_end_in_order(
    make_agent: MakeAgent,
) -> None:
    command = "for i in 1 2 3; do echo line$i; sleep 0.05; done"
    h = await make_agent(
        [
            {"tool_calls": [{"name": "bash", "arguments": {"command": command}, "id": "b1"}]},
            {"text": "done", "expect_tool_result_contains": "line3"},
        ]
    )
    await h.agent.prompt("count")

    events = [
        e
        for e in h.recorded()
        if isinstance(e, ToolExecutionStartEvent | ToolExecutionUpdateEvent | ToolExecutionEndEvent)
    ]
    assert isinstance(events[0], ToolExecutionStartEvent)
    assert isinstance(events[-1], ToolExecutionEndEvent)
    updates = events[1:-1]
    assert updates and all(isinstance(u, ToolExecutionUpdateEvent) for u in updates)
    partials: list[str] = []
    for update in updates:
        assert isinstance(update, ToolExecutionUpdateEvent)
        assert update.tool_name == "bash"
        assert update.tool_call_id == "b1"
        assert update.input == update.args == {"command": command}
        assert isinstance(update.partial_result, dict)
        partials.append(content_text(update.partial_result["content"]))
    # Each update carries only the output that is new since the one before, in order.
    assert partials[0].startswith("line1")
    assert "".join(partials) == "line1\nline2\nline3\n"
    # The updates are delivered before the tool's result reaches tool_execution_end.
    types = h.types()
    assert types.index("tool_execution_end") > max(
        i for i, t in enumerate(types) if t == "tool_execution_update"
    )
    assert h.errors == []


SLOW_UPDATE_HOOK = """\
import asyncio

SEEN = []


def register(pi):
    @pi.on("tool_execution_update")
    async def update(event, ctx):
        await asyncio.sleep(0.02)  # a handler that suspends (say, it posts to a socket)
        SEEN.append(("update", event.partial_result["content"][0]["text"]))

    @pi.on("tool_execution_end")
    def end(event, ctx):
        SEEN.append(("end", event.result_text))
"""


async def test_updates_reach_a_suspending_handler_in_order_and_before_the_end(
    make_agent: MakeAgent,
) -> None:
    command = "for i in 1 2 3; do echo line$i; sleep 0.01; done"
    h = await make_agent(
        [{"tool_calls": [{"name": "bash", "arguments": {"command": command}}]}, "done"],
        hooks={"slow": SLOW_UPDATE_HOOK},
        record=False,
    )
    await h.agent.prompt("count")

    seen = h.hook("slow").SEEN
    assert seen[-1] == ("end", "line1\nline2\nline3\n")
    partials = [text for kind, text in seen[:-1]]
    assert all(kind == "update" for kind, _ in seen[:-1])
    assert "".join(partials) == "line1\nline2\nline3\n"  # new output each time, in order
    assert h.errors == []
