"""pi's wire names for hookline payloads: only hookline's own names change."""

from __future__ import annotations

from typing import Any

from hookline.modes.rpc.events import PiWire, camel, wire_message, wire_payload


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


def _block(event: dict[str, Any]) -> dict[str, Any]:
    return {"type": "assistant_message_event", "event": event}


def test_block_events_open_the_assistant_message_and_the_message_closes_it() -> None:
    wire = PiWire()
    call = {"type": "tool_call", "id": "c1", "name": "ls", "arguments": {"path": "."}}
    events = [
        {"type": "thinking_start", "content_index": 0},
        {"type": "thinking_delta", "content_index": 0, "delta": "hm"},
        {"type": "thinking_end", "content_index": 0, "content": "hm"},
        {"type": "text_start", "content_index": 1},
        {"type": "text_delta", "content_index": 1, "delta": "Hel"},
        {"type": "text_delta", "content_index": 1, "delta": "lo"},
        {"type": "text_end", "content_index": 1, "content": "Hello"},
        {"type": "toolcall_start", "content_index": 2, "id": "c1", "name": "ls"},
        {"type": "toolcall_delta", "content_index": 2, "delta": '{"path": "."}'},
        {"type": "toolcall_end", "content_index": 2, "tool_call": call},
    ]
    final = {
        "role": "assistant",
        "content": [
            {"type": "thinking", "thinking": "hm"},
            {"type": "text", "text": "Hello"},
            call,
        ],
    }
    lines = [
        *wire.lines({"type": "message", "message": {"role": "user", "content": []}}),
        *(line for e in events for line in wire.lines(_block(e))),
        # the plain text deltas and the hook events' echoes are not pi's lines
        *wire.lines({"type": "text_delta", "text": "Hel"}),
        *wire.lines({"type": "message_update", "delta": "Hel", "delta_type": "text"}),
        *wire.lines({"type": "message_end"}),
        *wire.lines({"type": "message", "message": final}),
    ]
    kinds = [(x["type"], x["message"]["role"]) for x in lines]
    assert kinds == [
        ("message_start", "user"),
        ("message_end", "user"),
        ("message_start", "assistant"),
        *[("message_update", "assistant")] * len(events),
        ("message_end", "assistant"),
    ]
    assert lines[2]["message"]["content"] == []
    updates = [x["assistantMessageEvent"] for x in lines if x["type"] == "message_update"]
    assert [u["type"] for u in updates] == [e["type"] for e in events]
    assert updates[5] == {
        "type": "text_delta",
        "contentIndex": 1,
        "delta": "lo",
        "partial": lines[8]["message"],
    }
    assert lines[8]["message"]["content"] == [
        {"type": "thinking", "thinking": "hm"},
        {"type": "text", "text": "Hello"},
    ]
    # a tool call's end carries it in pi's shape; the partial has it too
    assert updates[-1]["toolCall"] == {
        "type": "toolCall", "id": "c1", "name": "ls", "arguments": {"path": "."}
    }  # fmt: skip
    assert updates[-1]["partial"]["content"][2]["type"] == "toolCall"
    assert updates[7]["partial"]["content"][2] == {
        "type": "toolCall", "id": "c1", "name": "ls", "arguments": {}
    }  # fmt: skip


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


def test_automatic_compaction_lines_take_pi_names() -> None:
    wire = PiWire()
    (start,) = wire.lines({"type": "auto_compaction_start", "reason": "threshold"})
    assert start == {"type": "compaction_start", "reason": "threshold"}
    (end,) = wire.lines({"type": "auto_compaction_end", "aborted": False, "result": None})
    assert (end["type"], end["reason"], end["willRetry"]) == ("compaction_end", "threshold", False)
