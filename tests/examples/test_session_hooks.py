"""handoff through the pytest plugin (its end-to-end run with a real agent is in
tests/agent/test_examples.py)."""

from __future__ import annotations

from typing import Any

import pytest

from .harness import Example


class _Session:
    def __init__(self) -> None:
        self.messages: list[Any] = []

    def append_message(self, message: Any) -> None:
        self.messages.append(message)

    def get_session_file(self) -> str:
        return "/sessions/current.jsonl"


async def test_handoff_opens_a_child_session_seeded_with_a_message(example: Example) -> None:
    harness = example("omp_handoff")
    harness.host.session_manager = _Session()
    assert await harness.command("handoff") == []
    [(parent, setup)] = harness.host.new_sessions
    assert parent == "/sessions/current.jsonl"
    child = _Session()
    setup(child)
    [message] = child.messages
    assert message["role"] == "user"
    assert message["content"] == [{"type": "text", "text": "Continue from prior session summary."}]


async def test_an_unknown_command_is_an_error(example: Example) -> None:
    with pytest.raises(LookupError, match="/nope"):
        await example("omp_handoff").command("nope")
