"""pi's wire names for hookline payloads: only hookline's own names change."""

from __future__ import annotations

from hookline.modes.rpc_wire import PiWire, camel, wire_message, wire_payload


def test_camel_case_names() -> None:
    assert camel("tool_call_id") == "toolCallId"
    assert camel("type") == "type"
    assert camel("previous_session_file") == "previousSessionFile"


def test_a_tool_call_keeps_its_arguments_and_a_result_its_details() -> None:
    assistant = {
        "role": "assistant",
        "content": [
            {"type": "tool_call", "id": "c1", "name": "write", "arguments": {"file_path": "a"}}
        ],
        "stop_reason": "tool_use",
        "usage": {"input_tokens": 3, "output_tokens": 4},
        "timestamp": 1.5,
    }
    assert wire_message(assistant) == {
        "role": "assistant",
        "content": [
            {"type": "toolCall", "id": "c1", "name": "write", "arguments": {"file_path": "a"}}
        ],
        "stopReason": "toolUse",
        "usage": {"input": 3, "output": 4},
        "timestamp": 1500,
    }
    result = {
        "role": "tool",
        "tool_call_id": "c1",
        "tool_name": "write",
        "content": [{"type": "image", "data": "AA==", "mime_type": "image/png"}],
        "details": {"exit_code": 0, "full_output_path": None},
        "is_error": False,
    }
    assert wire_message(result) == {
        "role": "toolResult",
        "toolCallId": "c1",
        "toolName": "write",
        "content": [{"type": "image", "data": "AA==", "mimeType": "image/png"}],
        "details": {"exit_code": 0, "full_output_path": None},
        "isError": False,
    }


def test_event_payloads_rename_hookline_names_not_hook_data() -> None:
    start = {"type": "tool_execution_start", "tool_name": "bash", "tool_call_id": "c1",
             "input": {"command": "ls", "run_in_background": True}}  # fmt: skip
    assert wire_payload(start) == {
        "type": "tool_execution_start",
        "toolName": "bash",
        "toolCallId": "c1",
        "args": {"command": "ls", "run_in_background": True},
    }
    custom = {"type": "session_switch", "previous_session_file": "a", "data": {"my_key": 1}}
    assert wire_payload(custom) == {
        "type": "session_switch",
        "previousSessionFile": "a",
        "data": {"my_key": 1},
    }


def test_deltas_open_the_assistant_message_and_the_message_closes_it() -> None:
    wire = PiWire()
    lines = [
        *wire.lines({"type": "message", "message": {"role": "user", "content": []}}),
        *wire.lines({"type": "text_delta", "text": "Hel"}),
        *wire.lines({"type": "text_delta", "text": "lo"}),
        *wire.lines(
            {
                "type": "message",
                "message": {"role": "assistant", "content": [{"type": "text", "text": "Hello"}]},
            }
        ),
    ]
    kinds = [(x["type"], x["message"]["role"]) for x in lines]
    assert kinds == [
        ("message_start", "user"),
        ("message_end", "user"),
        ("message_start", "assistant"),
        ("message_update", "assistant"),
        ("message_update", "assistant"),
        ("message_end", "assistant"),
    ]
    assert lines[4]["assistantMessageEvent"] == {"type": "text_delta", "contentIndex": 0,
                                                 "delta": "lo"}  # fmt: skip
    assert lines[4]["message"]["content"] == [{"type": "text", "text": "Hello"}]


def test_turn_end_and_agent_end_carry_their_messages_as_pi_sends_them() -> None:
    wire = PiWire()
    user = {"role": "user", "content": [{"type": "text", "text": "hi"}]}
    call = {"type": "tool_call", "id": "c1", "name": "ls", "arguments": {}}
    assistant = {"role": "assistant", "content": [call], "stop_reason": "tool_use"}
    result = {"role": "tool", "tool_call_id": "c1", "tool_name": "ls", "content": [],
              "is_error": False}  # fmt: skip
    payloads = [
        {"type": "message", "message": user},
        {"type": "agent_start"},
        {"type": "turn_start", "turn_index": 0},
        {"type": "message", "message": assistant},
        {"type": "message", "message": result},
        {"type": "turn_end", "turn_index": 0, "tool_call_ids": ["c1"]},
        {"type": "agent_end", "message_count": 3},
    ]
    lines = [line for p in payloads for line in wire.lines(p)]
    turn_end = next(x for x in lines if x["type"] == "turn_end")
    assert turn_end["message"]["stopReason"] == "toolUse"
    assert [r["toolCallId"] for r in turn_end["toolResults"]] == ["c1"]
    assert turn_end["toolCallIds"] == ["c1"] and turn_end["turnIndex"] == 0
    agent_end = next(x for x in lines if x["type"] == "agent_end")
    assert [m["role"] for m in agent_end["messages"]] == ["user", "assistant", "toolResult"]
    # the next run starts empty
    again = list(wire.lines({"type": "agent_end", "message_count": 3}))
    assert again[0]["messages"] == []
