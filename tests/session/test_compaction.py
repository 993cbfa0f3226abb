"""Compaction helpers: token estimate, threshold, cut point, extractive summary."""

from __future__ import annotations

from hookline.core.messages import Message, content_text, user_message
from hookline.session import (
    COMPACTION_SUMMARY_TYPE,
    SessionManager,
    default_summary,
    estimate_tokens,
    prepare_compaction,
    should_compact,
)

from .helpers import assistant, tool_result


def test_estimate_tokens_is_chars_over_four() -> None:
    assert estimate_tokens([]) == 0
    assert estimate_tokens([user_message("x" * 8)]) == 2
    assert estimate_tokens([user_message("x" * 9)]) == 3  # rounded up
    call = assistant("", ("c", "bash", {"command": "ls"}))
    assert estimate_tokens([call]) == -(-(len("bash") + len('{"command": "ls"}')) // 4)
    image: Message = {
        "role": "user",
        "content": [{"type": "image", "data": "AAAA" * 10_000, "mime_type": "image/png"}],
    }
    assert estimate_tokens([image]) == 1200  # flat, not the base64 length
    custom: Message = {"role": "custom", "custom_type": "x", "content": "abcd", "display": True}
    assert estimate_tokens([custom]) == 1


def test_should_compact() -> None:
    assert should_compact(80, 100)
    assert not should_compact(79, 100)
    assert should_compact(50, 100, threshold=0.5)
    assert not should_compact(10**9, 0)


def _conversation(s: SessionManager, turns: int) -> list[str]:
    """Each turn: user (400 chars), assistant with a tool call, tool result, reply."""
    ids = []
    for i in range(turns):
        ids.append(s.append_message(user_message(f"request {i}\n" + "u" * 400)))
        s.append_message(assistant("", (f"c{i}", "read", {"path": f"f{i}.py"})))
        s.append_message(tool_result(f"c{i}", "read", "t" * 400))
        s.append_message(assistant(f"done {i}"))
    return ids


def test_prepare_compaction_keeps_recent_and_summarises_the_rest(
    session: SessionManager,
) -> None:
    users = _conversation(session, 6)
    context = session.build_context_messages()
    prep = prepare_compaction(session, keep_recent_tokens=150)
    assert prep.tokens_before == estimate_tokens(context)
    assert prep.messages_to_summarize
    kept = session.get_entry(prep.first_kept_entry_id or "")
    assert kept is not None and kept["type"] == "message"
    assert kept["message"]["role"] != "tool"  # never split a call from its result
    n = len(prep.messages_to_summarize)
    assert prep.messages_to_summarize == context[:n]
    assert prep.tokens_kept == estimate_tokens(context[n:]) >= 150
    assert prep.first_kept_entry_id in users or kept["message"]["role"] == "assistant"


def test_cut_never_lands_on_a_tool_result(session: SessionManager) -> None:
    session.append_message(user_message("go"))
    session.append_message(assistant("", ("c1", "bash", {"command": "x"})))
    session.append_message(tool_result("c1", "bash", "r" * 4000))  # 1000 tokens alone
    prep = prepare_compaction(session, keep_recent_tokens=500)
    kept = session.get_entry(prep.first_kept_entry_id or "")
    assert kept is not None and kept["type"] == "message"
    assert kept["message"]["role"] == "assistant"
    assert [m["role"] for m in prep.messages_to_summarize] == ["user"]


def test_nothing_to_compact_when_everything_fits(session: SessionManager) -> None:
    _conversation(session, 2)
    prep = prepare_compaction(session, keep_recent_tokens=100_000)
    assert prep.messages_to_summarize == [] and prep.first_kept_entry_id is None
    empty = prepare_compaction(SessionManager.in_memory("."))
    assert empty.messages_to_summarize == [] and empty.tokens_before == 0


def test_compacting_twice_carries_the_earlier_summary(session: SessionManager) -> None:
    _conversation(session, 6)
    prep = prepare_compaction(session, keep_recent_tokens=150)
    summary = default_summary(prep.messages_to_summarize)
    session.append_compaction(
        summary, first_kept_entry_id=prep.first_kept_entry_id, tokens_before=prep.tokens_before
    )
    after = session.build_context_messages()
    assert estimate_tokens(after) < prep.tokens_before
    _conversation(session, 4)
    second = prepare_compaction(session, keep_recent_tokens=150)
    first = second.messages_to_summarize[0]
    assert first["role"] == "custom" and first["custom_type"] == COMPACTION_SUMMARY_TYPE
    assert "request 0" in default_summary(second.messages_to_summarize)


def test_only_a_previous_summary_is_not_worth_compacting(session: SessionManager) -> None:
    u = session.append_message(user_message("q" * 100))
    session.append_compaction("s", first_kept_entry_id=u, tokens_before=1)
    prep = prepare_compaction(session, keep_recent_tokens=10)
    assert prep.messages_to_summarize == []


def test_default_summary_is_deterministic_and_extractive(session: SessionManager) -> None:
    _conversation(session, 3)
    messages = session.build_context_messages()
    text = default_summary(messages)
    assert text == default_summary(messages)
    assert "request 0" in text and "request 2" in text
    assert "uuuu" not in text  # first lines only
    assert "read ×3" in text
    assert "f0.py" in text and "f2.py" in text
    assert "Last assistant reply: done 2" in text
    assert content_text(messages[0]["content"]) not in text


def test_default_summary_of_many_requests_is_bounded() -> None:
    messages: list[Message] = [user_message(f"ask {i} " + "z" * 500) for i in range(500)]
    text = default_summary(messages)
    assert "ask 499" in text and "450 earlier requests omitted" in text
    assert len(text) < 15_000
