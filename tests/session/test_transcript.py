"""``serialize_conversation``: a conversation as labelled text, as pi writes it for a summary."""

from __future__ import annotations

from hookline.core.messages import Message
from hookline.session import serialize_conversation
from hookline.session.transcript import TOOL_RESULT_MAX_CHARS


def test_each_role_is_a_labelled_paragraph() -> None:
    messages: list[Message] = [
        {"role": "user", "content": [{"type": "text", "text": "list the files"}]},
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "ls will do"},
                {"type": "text", "text": "Looking."},
                {"type": "tool_call", "id": "c1", "name": "ls", "arguments": {"path": "."}},
            ],
        },
        {
            "role": "tool",
            "tool_call_id": "c1",
            "tool_name": "ls",
            "content": [{"type": "text", "text": "a.py"}],
            "is_error": False,
        },
        {"role": "custom", "custom_type": "note", "content": "from a hook", "display": True},
    ]
    assert serialize_conversation(messages) == (
        "[User]: list the files\n\n"
        "[Assistant thinking]: ls will do\n\n"
        "[Assistant]: Looking.\n\n"
        '[Assistant tool calls]: ls(path=".")\n\n'
        "[Tool result]: a.py\n\n"
        "[User]: from a hook"
    )


def test_a_long_tool_result_is_cut() -> None:
    text = "x" * (TOOL_RESULT_MAX_CHARS + 5)
    result: Message = {
        "role": "tool",
        "tool_call_id": "c",
        "tool_name": "read",
        "content": [{"type": "text", "text": text}],
        "is_error": False,
    }
    out = serialize_conversation([result])
    assert out.endswith("\n\n[... 5 more characters truncated]")
    assert out.count("x") == TOOL_RESULT_MAX_CHARS
