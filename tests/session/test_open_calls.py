"""``answer_open_tool_calls``: a run cut short mid-tool leaves no call without a result."""

from __future__ import annotations

from hookline.core.messages import user_message
from hookline.session import SessionManager

from .helpers import assistant, tool_result


def test_only_the_unanswered_calls_of_the_last_assistant_get_results(
    session: SessionManager,
) -> None:
    session.append_message(user_message("go"))
    session.append_message(assistant("two tools", ("c1", "ls", {}), ("c2", "read", {"path": "a"})))
    session.append_message(tool_result("c1", "ls", "a b"))
    added = session.append_custom_entry("note", {"x": 1})  # not a message: skipped over
    new = session.answer_open_tool_calls("aborted")
    assert len(new) == 1 and added not in new
    result = session.build_context_messages()[-1]
    assert result["role"] == "tool"
    assert (result["tool_call_id"], result["tool_name"], result["is_error"]) == ("c2", "read", True)
    assert result["content"] == [{"type": "text", "text": "aborted"}]
    assert session.answer_open_tool_calls("aborted") == []  # idempotent


def test_nothing_to_answer_after_a_user_message_or_on_an_empty_session(
    session: SessionManager,
) -> None:
    assert session.answer_open_tool_calls("aborted") == []
    session.append_message(assistant("old", ("c1", "ls", {})))
    session.append_message(user_message("a later prompt"))  # an older turn is not reopened
    assert session.answer_open_tool_calls("aborted") == []
    assert len(session.get_entries()) == 2
