"""prepare_history: the history repair both API providers rely on."""

from __future__ import annotations

from hookline.agent.providers._common import MISSING_RESULT_TEXT, prepare_history
from hookline.core.messages import AssistantMessage, Message, ToolResultMessage, user_message


def call(call_id: str) -> AssistantMessage:
    return {
        "role": "assistant",
        "content": [{"type": "tool_call", "id": call_id, "name": "bash", "arguments": {}}],
    }


def result(call_id: str) -> ToolResultMessage:
    return {
        "role": "tool",
        "tool_call_id": call_id,
        "tool_name": "bash",
        "content": [{"type": "text", "text": "out"}],
        "is_error": False,
    }


def test_complete_history_is_unchanged() -> None:
    history: list[Message] = [user_message("a"), call("c1"), result("c1"), user_message("b")]
    assert prepare_history(history) == history


def test_error_messages_are_dropped() -> None:
    failed: AssistantMessage = {
        "role": "assistant",
        "content": [{"type": "text", "text": "[model error: overloaded]"}],
        "stop_reason": "error",
    }
    assert prepare_history([user_message("a"), failed]) == [user_message("a")]


def test_unanswered_calls_get_a_synthetic_error_result() -> None:
    history: list[Message] = [user_message("a"), call("c1"), user_message("b"), call("c2")]
    out = prepare_history(history)
    synthetic = [m for m in out if m["role"] == "tool"]
    assert [m["tool_call_id"] for m in synthetic] == ["c1", "c2"]
    assert all(m["is_error"] for m in synthetic)
    assert synthetic[0]["content"][0] == {"type": "text", "text": MISSING_RESULT_TEXT}
    assert MISSING_RESULT_TEXT == "No result provided"  # pi's words
    assert [m["role"] for m in out] == ["user", "assistant", "tool", "user", "assistant", "tool"]


def test_orphan_and_duplicate_results_are_dropped() -> None:
    history: list[Message] = [
        user_message("a"),
        result("x"),
        call("c1"),
        result("c1"),
        result("c1"),
    ]
    assert prepare_history(history) == [user_message("a"), call("c1"), result("c1")]
