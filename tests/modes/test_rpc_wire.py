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
