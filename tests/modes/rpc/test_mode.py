"""RPC mode (``--mode rpc``): commands in, responses and events out, hook UI as requests."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..helpers import (
    TIMEOUT,
    Line,
    RpcClient,
    assert_in_order,
    read_jsonl,
    types_of,
    write_hook,
    write_script,
)

UI_HOOK = """
    import json

    def register(pi):
        @pi.on("turn_start")
        async def ask(event, ctx):
            answers = {
                "has_ui": ctx.has_ui,
                "confirm": await ctx.ui.confirm("Proceed?", "with the plan"),
                "select": await ctx.ui.select("Pick one", ["a", "b"]),
                "input": await ctx.ui.input("Your name", "name here"),
                "editor": await ctx.ui.editor("Edit", "draft"),
            }
            with open(RECORD, "a") as f:
                f.write(json.dumps(answers) + "\\n")
"""

HANDOFF_HOOK = """
    import json

    def register(pi):
        @pi.register_command("handoff", description="continue in a fresh session")
        async def handoff(args, ctx):
            await ctx.wait_for_idle()
            before = ctx.session_manager.get_session_file()

            def seed(session):
                session.append_message(
                    {"role": "user", "content": [{"type": "text", "text": "handoff: " + args}]}
                )

            ok = await ctx.new_session(parent_session=before, setup=seed)
            after = ctx.host.session.get_session_file()
            with open(RECORD, "w") as f:
                json.dump({"ok": ok, "before": before, "after": after}, f)
"""


def _project(tmp_path: Path) -> Path:
    project = tmp_path / "proj"
    project.mkdir()
    (project / "hello.txt").write_text("hi\n")
    return project


async def test_prompt_streams_events_then_a_response(tmp_path: Path) -> None:
    project = _project(tmp_path)
    model = write_script(
        tmp_path / "script.json",
        [
            {"text": "Looking.", "tool_calls": [{"id": "c1", "name": "ls", "arguments": {}}]},
            {"text": "There is hello.txt."},
        ],
    )
    async with RpcClient("--rpc-events", "all", "--model", model, "--cwd", str(project)) as rpc:
        await rpc.send({"type": "prompt", "message": "what is here?", "id": "p1"})
        # pi's prompt: answered at once (before the run's events), the run streams after
        events = await rpc.read_until(lambda m: m["type"] == "agent_end")
        response = next(m for m in events if m["type"] == "response")
        assert (response["id"], response["command"], response["success"]) == ("p1", "prompt", True)
        assert "data" not in response
        assert types_of(events).index("response") < types_of(events).index("agent_start")
        assert_in_order(
            types_of(events),
            [
                "session_start",
                "input",
                "before_agent_start",
                "agent_start",
                "turn_start",
                "message_start",
                "message_end",
                "tool_execution_start",
                "tool_call",
                "tool_result",
                "tool_execution_end",
                "turn_end",
                "turn_start",
                "turn_end",
                "agent_end",
            ],
        )
        call = next(e for e in events if e["type"] == "tool_call")
        assert (call["toolName"], call["toolCallId"], call["input"]) == ("ls", "c1", {})
        start = next(e for e in events if e["type"] == "tool_execution_start")
        assert (start["toolName"], start["toolCallId"], start["args"]) == ("ls", "c1", {})
        ends = [e["message"] for e in events if e["type"] == "message_end"]
        assert [m["role"] for m in ends] == ["user", "assistant", "toolResult", "assistant"]
        assert ends[1]["content"][1] == {
            "type": "toolCall",
            "id": "c1",
            "name": "ls",
            "arguments": {},
        }
        assert ends[1]["stopReason"] == "toolUse"
        assert ends[2]["toolCallId"] == "c1" and ends[2]["isError"] is False
        while (state := await rpc.ok({"type": "get_state"}))["isStreaming"]:
            pass  # the run's last steps after agent_end

        assert state["model"]["provider"] == "scripted"
        assert state["model"]["id"] == model.removeprefix("scripted:")
        assert state["permissionMode"] == "default"
        assert state["turnIndex"] == 2
        assert state["messageCount"] == 4
        assert state["autoCompactionEnabled"] is True
        session_file = Path(state["sessionFile"])
        assert session_file.is_file()

        messages = (await rpc.ok({"type": "get_messages"}))["messages"]
        assert [m["role"] for m in messages] == ["user", "assistant", "toolResult", "assistant"]
        assert messages[-1]["content"][0]["text"] == "There is hello.txt."

        assert await rpc.ok({"type": "set_permission_mode", "mode": "plan"}) == {
            "permissionMode": "plan"
        }
        assert (await rpc.ok({"type": "get_state"}))["permissionMode"] == "plan"

        bash = await rpc.ok({"type": "bash", "command": "cat hello.txt; echo err >&2; exit 3"})
        assert "hi" in bash["output"] and "err" in bash["output"]
        assert (bash["exitCode"], bash["cancelled"]) == (3, False)

        assert await rpc.close_stdin() == 0

    assert types_of(rpc.seen)[-1] == "session_shutdown"
    entries = read_jsonl(session_file)  # every line valid JSON
    assert [e["message"]["role"] for e in entries if e["type"] == "message"] == [
        "user",
        "assistant",
        "tool",
        "assistant",
    ]


async def test_session_commands(tmp_path: Path) -> None:
    project = _project(tmp_path)
    big = "x" * 40_000  # ~10 000 tokens a reply, so a manual compaction has something to cut
    model = write_script(
        tmp_path / "script.json",
        [f"one {big}", f"two {big}", f"three {big}"],
    )
    async with RpcClient("--rpc-events", "all", "--model", model, "--cwd", str(project)) as rpc:
        await rpc.prompt("first")
        first = await rpc.ok({"type": "get_state"})
        await rpc.prompt("second")
        assert (await rpc.ok({"type": "get_state"}))["messageCount"] == 4
        file1 = first["sessionFile"]

        # navigate_tree: back to the end of the first exchange
        response, events = await rpc.command({"type": "navigate_tree", "targetId": first["leafId"]})
        assert response["data"] == {"cancelled": False}
        assert_in_order(types_of(events), ["session_before_tree", "session_tree"])
        state = await rpc.ok({"type": "get_state"})
        assert (state["leafId"], state["messageCount"]) == (first["leafId"], 2)

        # branch: to before turn 0 of the latest run (its user message, not the answer)
        response, events = await rpc.command({"type": "branch", "turnIndex": 0})
        assert response["data"] == {"cancelled": False}
        branch = next(e for e in events if e["type"] == "session_branch")
        assert branch["targetTurnIndex"] == 0
        messages = (await rpc.ok({"type": "get_messages"}))["messages"]
        assert [m["role"] for m in messages] == ["user", "assistant", "user"]

        # fork: the current path copied into a new file
        response, events = await rpc.command({"type": "fork"})
        file2 = response["data"]["sessionFile"]
        assert response["data"]["cancelled"] is False
        assert file2 != file1 and Path(file2).is_file()
        assert "session_fork" in types_of(events)
        forked = [e for e in read_jsonl(Path(file2)) if e["type"] == "message"]
        assert [e["message"]["role"] for e in forked] == ["user", "assistant", "user"]

        # new_session: a fresh, empty file
        response, events = await rpc.command({"type": "new_session"})
        assert response["data"] == {"cancelled": False}
        assert_in_order(types_of(events), ["session_before_switch", "session_switch"])
        start = next(e for e in events if e["type"] == "session_start")
        assert start["source"] == "clear"
        state = await rpc.ok({"type": "get_state"})
        file3 = state["sessionFile"]
        assert file3 not in (file1, file2) and state["messageCount"] == 0

        # switch_session: back to the first file (leaf = its last entry)
        response, events = await rpc.command({"type": "switch_session", "sessionPath": file1})
        assert response["data"] == {"cancelled": False}
        switch = next(e for e in events if e["type"] == "session_switch")
        assert (switch["previousSessionFile"], switch["sessionFile"]) == (file3, file1)
        state = await rpc.ok({"type": "get_state"})
        assert (state["sessionFile"], state["messageCount"]) == (file1, 4)

        # compact: a third exchange, then the oldest part becomes a summary
        await rpc.prompt("third")
        response, events = await rpc.command({"type": "compact", "customInstructions": "short"})
        assert response["success"] is True, response
        assert response["data"]["summary"] and response["data"]["tokensBefore"] > 10_000
        assert response["data"]["firstKeptEntryId"]
        assert_in_order(
            types_of(events), ["session_before_compact", "session_compact", "session_start"]
        )
        messages = (await rpc.ok({"type": "get_messages"}))["messages"]
        assert len(messages) < 6
        assert not any("one x" in json.dumps(m) for m in messages[1:])

        assert await rpc.close_stdin() == 0
    assert any(e["type"] == "compaction" for e in read_jsonl(Path(file1)))


async def test_hook_ui_calls_become_requests_the_host_answers(tmp_path: Path) -> None:
    project = _project(tmp_path)
    record = tmp_path / "answers.jsonl"
    hook = write_hook(tmp_path / "ui_hook.py", UI_HOOK.replace("RECORD", repr(str(record))))
    model = write_script(tmp_path / "script.json", ["Done."])
    async with RpcClient("--model", model, "--hook", str(hook), "--cwd", str(project)) as rpc:
        await rpc.send({"type": "prompt", "message": "go", "id": "p1"})
        answers = {
            "confirm": {"confirmed": True},
            "select": {"value": "b"},
            "input": {"value": "Ada"},
            "editor": {"cancelled": True},
        }
        asked = []
        for _ in answers:
            request = (await rpc.read_until(lambda m: m["type"] == "extension_ui_request"))[-1]
            asked.append(request)
            await rpc.send(
                {"type": "extension_ui_response", "id": request["id"], **answers[request["method"]]}
            )
        lines = await rpc.read_until(lambda m: m["type"] == "agent_end")
        response = next(m for m in rpc.seen if m["type"] == "response")
        assert (response["id"], response["success"]) == ("p1", True)
        assert not any(m["type"] == "response" for m in lines)

        assert [r["method"] for r in asked] == ["confirm", "select", "input", "editor"]
        assert len({r["id"] for r in asked}) == 4
        assert asked[0]["title"] == "Proceed?" and asked[0]["message"] == "with the plan"
        assert asked[1]["options"] == ["a", "b"]
        assert asked[2]["placeholder"] == "name here"
        assert asked[3]["prefill"] == "draft"
        assert json.loads(record.read_text()) == {
            "has_ui": True,
            "confirm": True,
            "select": "b",
            "input": "Ada",
            "editor": None,
        }

        # an answer nobody asked for is an error, not a crash
        stray, _ = await rpc.command({"type": "extension_ui_response", "value": "x"})
        assert stray["success"] is False
        assert await rpc.close_stdin() == 0


async def test_bad_lines_get_error_responses_and_the_process_stays_up(tmp_path: Path) -> None:
    project = _project(tmp_path)
    model = write_script(tmp_path / "script.json", ["ok"])
    async with RpcClient("--model", model, "--no-session", "--cwd", str(project)) as rpc:
        for raw in ("this is not json", "[1, 2]", '{"no": "type"}', '{"type": 7}'):
            await rpc.send(raw)
            response = (await rpc.read_until(lambda m: m["type"] == "response"))[-1]
            assert "id" not in response  # nothing to echo
            assert response["success"] is False
            assert response["error"]
        for bad in (
            {"type": "frobnicate"},
            {"type": "prompt", "message": 5},
            {"type": "prompt"},
            {"type": "prompt", "message": "x", "images": [{"type": "image", "data": 1}]},
            {"type": "prompt", "message": "x", "streamingBehavior": "later"},
            {"type": "steer"},
            {"type": "follow_up", "message": None},
            {"type": "branch", "turnIndex": "zero"},
            {"type": "branch", "turnIndex": 99},
            {"type": "switch_session", "sessionPath": str(tmp_path / "missing.jsonl")},
            {"type": "set_permission_mode", "mode": "yolo"},
            # not started in it nor with --allow-dangerously-skip-permissions
            {"type": "set_permission_mode", "mode": "bypassPermissions"},
            {"type": "navigate_tree", "targetId": 3},
            {"type": "command", "name": "nope"},
            {"type": "bash", "command": ["ls"]},
            {"type": "branch", "turnIndex": True},
            {"type": "fork", "entryId": 5},
            {"type": "fork", "entryId": "no-such-entry"},
            {"type": "compact", "customInstructions": {"a": 1}},
            {"type": "command", "name": "nope", "args": ["a"]},
            {"type": "set_auto_compaction", "enabled": "false"},
            {"type": "set_session_name", "name": "  "},
            {"type": "set_model", "provider": "scripted"},
        ):
            response, _ = await rpc.command(bad)
            assert response["success"] is False, (bad, response)
            assert response["command"] == bad["type"]
            assert isinstance(response["error"], str) and response["error"]
        state = await rpc.ok({"type": "get_state"})
        assert state["isStreaming"] is False and state["sessionFile"] is None
        await rpc.prompt("still alive?")
        assert (await rpc.ok({"type": "get_state"}))["messageCount"] == 2
        assert await rpc.close_stdin() == 0
        assert "Traceback" not in await rpc.stderr()


async def test_hook_command_waits_for_idle_and_starts_a_new_session(tmp_path: Path) -> None:
    project = _project(tmp_path)
    record = tmp_path / "handoff.json"
    hook = write_hook(tmp_path / "handoff.py", HANDOFF_HOOK.replace("RECORD", repr(str(record))))
    model = write_script(
        tmp_path / "script.json",
        [
            {"text": "slow answer", "delay_ms": 300},
            {"text": "fresh", "expect_user_contains": "bye"},
        ],
    )
    async with RpcClient(
        "--rpc-events", "all", "--model", model, "--hook", str(hook), "--cwd", str(project)
    ) as rpc:
        state = await rpc.ok({"type": "get_state"})
        commands = (await rpc.ok({"type": "get_commands"}))["commands"]
        assert [(c["name"], c["source"]) for c in commands] == [("handoff", "extension")]
        assert commands[0]["description"] == "continue in a fresh session"
        assert commands[0]["path"] == str(hook)
        old_file = state["sessionFile"]
        await rpc.send({"type": "prompt", "message": "start", "id": "p1"})
        await rpc.read_until(lambda m: m["type"] == "turn_start")
        # pi's way: a /command prompt runs at once, even while a run streams
        await rpc.send({"type": "prompt", "message": "/handoff bye", "id": "h1"})
        lines = await rpc.read_until(lambda m: m["type"] == "session_start")
        responses = [m for m in rpc.seen if m.get("id") in ("p1", "h1")]
        assert [r["id"] for r in responses] == ["p1", "h1"]
        assert all(r["success"] for r in responses)
        # the command waited for the running prompt to finish
        assert_in_order(types_of(lines), ["agent_end", "session_switch", "session_start"])

        # the hook writes its record after new_session returns, just after session_start
        deadline = asyncio.get_running_loop().time() + 20
        while not (record.exists() and record.read_text().endswith("}")) and (
            asyncio.get_running_loop().time() < deadline
        ):
            await asyncio.sleep(0.02)
        done = json.loads(record.read_text())
        assert done["ok"] is True and done["before"] == old_file
        state = await rpc.ok({"type": "get_state"})
        assert state["sessionFile"] == done["after"] != old_file
        header = read_jsonl(Path(state["sessionFile"]))[0]
        assert header["parent_session"] == old_file
        # the seeded message is in the new session and the model sees it
        await rpc.prompt("continue")
        assert (await rpc.ok({"type": "get_state"}))["messageCount"] == 3
        assert await rpc.close_stdin() == 0


async def test_eof_while_a_dialog_is_open_cancels_it_and_shuts_down(tmp_path: Path) -> None:
    project = _project(tmp_path)
    record = tmp_path / "answers.jsonl"
    hook = write_hook(tmp_path / "ui_hook.py", UI_HOOK.replace("RECORD", repr(str(record))))
    model = write_script(tmp_path / "script.json", ["Done."])
    async with RpcClient(
        "--rpc-events", "all", "--model", model, "--hook", str(hook), "--cwd", str(project)
    ) as rpc:
        await rpc.send({"type": "prompt", "message": "go", "id": "p1"})
        await rpc.read_until(lambda m: m["type"] == "extension_ui_request")
        assert await rpc.close_stdin() == 0  # the host went away mid-dialog
        assert "Traceback" not in await rpc.stderr()
    assert json.loads(record.read_text()) == {
        "has_ui": True,
        "confirm": False,
        "select": None,
        "input": None,
        "editor": None,
    }
    names = types_of(rpc.seen)
    assert_in_order(names, ["response", "agent_end", "session_shutdown"])
    assert names[-1] == "session_shutdown"


# -- a host can rely on it: abort, any line, strict answers ------------------------------

GATE_HOOK = """
    import json

    def register(pi):
        @pi.on("tool_call")
        async def gate(event, ctx):
            ok = await ctx.ui.confirm("Run " + event.tool_name + "?", "the model asks")
            with open(RECORD, "a") as f:
                f.write(json.dumps({"tool": event.tool_name, "confirmed": ok}) + "\\n")
            if not ok:
                return {"block": True, "reason": "not confirmed"}
"""

HANGING_HOOK = """
    import asyncio

    def register(pi):
        @pi.on("tool_call")
        async def hang(event, ctx):
            await asyncio.Event().wait()  # never set: this hook never answers
"""

STUBBORN_HOOK = """
    import asyncio

    def register(pi):
        @pi.on("tool_call")
        async def stubborn(event, ctx):
            while True:
                try:
                    await asyncio.Event().wait()
                except asyncio.CancelledError:
                    pass  # swallows every cancellation
"""


#: Hang guard of the tests that only pass once other branches are merged.
_PROTOCOL_GUARD = 10.0  # only a broken build waits this long


def _tool_then_done(tmp_path: Path, *more: Any) -> str:
    return write_script(
        tmp_path / "script.json",
        [
            {"text": "Listing.", "tool_calls": [{"id": "c1", "name": "ls", "arguments": {}}]},
            "Done.",
            *more,
        ],
    )


def _is_response(request_id: str) -> Callable[[Line], bool]:
    return lambda m: m["type"] == "response" and m.get("id") == request_id


async def _answer(rpc: RpcClient, request_id: str, fields: Line) -> tuple[Line, list[Line]]:
    """Send a dialog answer; the (error) response about it and the lines before it."""
    await rpc.send({"type": "extension_ui_response", **fields, "id": request_id})
    lines = await rpc.read_until(
        lambda m: m["type"] == "response" and m["command"] == "extension_ui_response"
    )
    return lines[-1], lines[:-1]


async def test_abort_closes_an_open_dialog_and_ends_the_turn(tmp_path: Path) -> None:
    project = _project(tmp_path)
    record = tmp_path / "gate.jsonl"
    hook = write_hook(tmp_path / "gate.py", GATE_HOOK.replace("RECORD", repr(str(record))))
    model = _tool_then_done(tmp_path, "Again.")
    async with RpcClient("--model", model, "--hook", str(hook), "--cwd", str(project)) as rpc:
        await rpc.send({"type": "prompt", "message": "go", "id": "p1"})
        request = (await rpc.read_until(lambda m: m["type"] == "extension_ui_request"))[-1]
        assert request["method"] == "confirm"
        await rpc.send({"type": "abort", "id": "a1"})
        lines = await rpc.read_until(_is_response("a1"))
        cancelled = [m for m in lines if m["type"] == "extension_ui_cancelled"]
        assert cancelled == [
            {"type": "extension_ui_cancelled", "id": request["id"], "reason": "abort"}
        ]
        prompts = [m for m in rpc.seen if m["type"] == "response" and m.get("id") == "p1"]
        assert [p["success"] for p in prompts] == [True]  # the run ended on the abort signal
        assert lines[-1]["data"]["dialogsClosed"] == 1
        ends = [m for m in lines if m["type"] == "tool_execution_end"]
        assert [e["isError"] for e in ends] == [True]  # the closed dialog is a no
        assert json.loads(record.read_text()) == {"tool": "ls", "confirmed": False}

        # the closed dialog is gone: a late answer is refused, not a crash or a yes
        late, _ = await _answer(rpc, request["id"], {"confirmed": True})
        assert late["success"] is False and "no open UI request" in late["error"]
        assert late["id"] == request["id"]
        state = await rpc.ok({"type": "get_state"})
        assert state["isStreaming"] is False
        await rpc.prompt("still there?")
        assert await rpc.close_stdin() == 0
        assert "Traceback" not in await rpc.stderr()


async def test_abort_ends_a_turn_whose_tool_call_hook_hangs(tmp_path: Path) -> None:
    project = _project(tmp_path)
    hook = write_hook(tmp_path / "hang.py", HANGING_HOOK)
    model = _tool_then_done(tmp_path)
    async with RpcClient("--model", model, "--hook", str(hook), "--cwd", str(project)) as rpc:
        await rpc.send({"type": "prompt", "message": "go", "id": "p1"})
        await rpc.read_until(lambda m: m["type"] == "tool_execution_start")
        await rpc.send({"type": "abort", "id": "a1"})
        lines = await rpc.read_until(_is_response("a1"))
        # accepted at once, then (like pi) a second response when the run fails
        prompts = [m for m in rpc.seen if m["type"] == "response" and m.get("id") == "p1"]
        assert [p["success"] for p in prompts] == [True, False]
        assert "aborted" in prompts[1]["error"]
        assert lines[-1]["data"] == {
            "dialogsClosed": 0,
            "commandsCancelled": 1,
            "commandsAbandoned": 0,
        }
        # the cancelled call got an error result, so the next model request is well formed
        end = next(m for m in lines if m["type"] == "tool_execution_end")
        assert (end["toolCallId"], end["isError"]) == ("c1", True)
        # pi's AgentToolResult, as for any other call's end
        assert end["result"]["content"][0]["text"] == end["resultText"]
        assert "aborted" in end["resultText"] and end["result"]["details"] is None
        messages = (await rpc.ok({"type": "get_messages"}))["messages"]
        assert [m["role"] for m in messages] == ["user", "assistant", "toolResult"]
        assert messages[-1]["toolCallId"] == "c1" and "aborted" in json.dumps(messages[-1])
        state = await rpc.ok({"type": "get_state"})
        assert state["isStreaming"] is False
        # the agent takes prompts again (the hook hangs on tool calls only)
        await rpc.prompt("answer without tools")
        assert await rpc.close_stdin() == 0
        assert "Traceback" not in await rpc.stderr()


async def test_abort_ends_a_turn_whose_hook_swallows_cancellation(tmp_path: Path) -> None:
    project = _project(tmp_path)
    hook = write_hook(tmp_path / "stubborn.py", STUBBORN_HOOK)
    model = _tool_then_done(tmp_path)
    async with RpcClient("--model", model, "--hook", str(hook), "--cwd", str(project)) as rpc:
        await rpc.send({"type": "prompt", "message": "go", "id": "p1"})
        await rpc.read_until(lambda m: m["type"] == "tool_execution_start")
        await rpc.send({"type": "abort", "id": "a1"})
        seen: set[str] = set()
        while seen != {"a1", "p1"}:  # both answered (p1 a second time), in whichever order
            line = await asyncio.wait_for(rpc.read(), _PROTOCOL_GUARD)
            if line["type"] == "response":
                seen.add(str(line.get("id")))
        state = await rpc.ok({"type": "get_state"})
        assert state["isStreaming"] is False


async def test_lines_of_any_length_and_depth_are_answered(tmp_path: Path) -> None:
    project = _project(tmp_path)
    model = write_script(tmp_path / "script.json", ["Read it all.", "Small one."])
    async with RpcClient("--model", model, "--no-session", "--cwd", str(project)) as rpc:
        big = "x" * (10 * 1024 * 1024)  # a 10 MB prompt: far over the old 64 KiB line limit
        await rpc.prompt(big)
        user = (await rpc.ok({"type": "get_messages"}))["messages"][0]
        assert len(user["content"][0]["text"]) == len(big)

        # over the 64 MiB cap: refused, skipped to its end, the next line is whole
        await rpc.send('{"type": "prompt", "message": "' + "y" * (65 * 1024 * 1024) + '"}')
        refused = (await rpc.read_until(lambda m: m["type"] == "response"))[-1]
        assert refused["success"] is False and "64 MiB limit" in refused["error"]

        for raw in (
            "[" * 1500 + "]" * 1500,
            '{"type": "get_state", "x": ' + "[" * 100_000 + "]" * 100_000 + "}",
            '{"type": "prompt", "message": "hi", "id": ' + "[" * 900 + "]" * 900 + "}",
            '{"type": "get_state", "id": true}',
            b"\xff\xfe not utf-8".decode("latin-1"),
        ):
            await rpc.send(raw)
            response = (await rpc.read_until(lambda m: m["type"] == "response"))[-1]
            assert response["success"] is False, response
            assert "id" not in response  # nothing echoed back
            assert response["error"]
        await rpc.prompt("small")
        assert await rpc.close_stdin() == 0
        assert "Traceback" not in await rpc.stderr()


async def test_malformed_ui_answers_are_errors_never_a_yes(tmp_path: Path) -> None:
    project = _project(tmp_path)
    record = tmp_path / "answers.jsonl"
    hook = write_hook(tmp_path / "ui_hook.py", UI_HOOK.replace("RECORD", repr(str(record))))
    model = write_script(tmp_path / "script.json", ["Done."])
    bad_answers: dict[str, list[Line]] = {
        "confirm": [
            {"confirmed": "false"},
            {"confirmed": "true"},
            {"confirmed": 1},
            {"confirmed": None},
            {"confirmed": [True]},
            {"value": True},
            {},
            {"cancelled": "yes", "confirmed": True},
            {"cancelled": 0, "confirmed": True},
        ],
        "select": [{"value": 3}, {"value": 1}, {"value": "c"}, {"value": ["a"]}, {}],
        "input": [{"value": 5}, {"value": None}, {"value": {"a": 1}}],
        "editor": [{"value": False}, {"cancelled": "true"}],
    }
    good_answers: dict[str, Line] = {
        "confirm": {"confirmed": False},
        "select": {"value": "a"},
        "input": {"value": "Ada"},
        "editor": {"value": "text"},
    }
    async with RpcClient("--model", model, "--hook", str(hook), "--cwd", str(project)) as rpc:
        await rpc.send({"type": "prompt", "message": "go", "id": "p1"})
        for _ in good_answers:
            request = (await rpc.read_until(lambda m: m["type"] == "extension_ui_request"))[-1]
            method = request["method"]
            for bad in bad_answers[method]:
                response, before = await _answer(rpc, request["id"], bad)
                assert response["success"] is False, (method, bad, response)
                assert response["id"] == request["id"]
                assert f"the {method} dialog {request['id']} is still open" in response["error"]
                assert not any(m["type"] == "extension_ui_request" for m in before)
            await rpc.send(
                {"type": "extension_ui_response", "id": request["id"], **good_answers[method]}
            )
        await rpc.read_until(lambda m: m["type"] == "agent_end")
        prompts = [m for m in rpc.seen if m["type"] == "response" and m.get("id") == "p1"]
        assert [p["success"] for p in prompts] == [True]
        unknown, _ = await _answer(rpc, "ui-999", {"confirmed": True})
        assert unknown["success"] is False and "ui-999" in unknown["error"]
        assert await rpc.close_stdin() == 0
    assert json.loads(record.read_text()) == {
        "has_ui": True,
        "confirm": False,
        "select": "a",
        "input": "Ada",
        "editor": "text",
    }


async def test_a_malformed_answer_never_approves_a_tool(tmp_path: Path) -> None:
    """The permission dialog of a write: an answer that is not one of its options (or not
    a string) must not write the file."""
    project = _project(tmp_path)
    target = project / "owned.txt"
    model = write_script(
        tmp_path / "script.json",
        [
            {
                "text": "Writing.",
                "tool_calls": [
                    {
                        "id": "w1",
                        "name": "write",
                        "arguments": {"path": "owned.txt", "content": "x"},
                    }
                ],
            },
            "Done.",
        ],
    )
    async with RpcClient("--model", model, "--cwd", str(project)) as rpc:
        await rpc.send({"type": "prompt", "message": "go", "id": "p1"})
        request = (await rpc.read_until(lambda m: m["type"] == "extension_ui_request"))[-1]
        assert request["method"] == "select" and request["options"][0] == "Yes"
        for bad in ({"confirmed": True}, {"value": True}, {"value": "yes"}, {"value": ["Yes"]}):
            response, _ = await _answer(rpc, request["id"], bad)
            assert response["success"] is False and "still open" in response["error"]
        assert not target.exists()
        await rpc.send({"type": "extension_ui_response", "id": request["id"], "cancelled": True})
        await rpc.read_until(lambda m: m["type"] == "agent_end")
        assert await rpc.close_stdin() == 0
    assert not target.exists()
    end = next(m for m in rpc.seen if m["type"] == "tool_execution_end")
    assert end["isError"] is True


# Needs the tools branch (read/write refuse non-regular files): until both are merged,
# the read blocks on the host's own stdin and the write forges a protocol line.


async def test_an_allowed_read_of_dev_stdin_cannot_steal_host_commands(tmp_path: Path) -> None:
    project = _project(tmp_path)
    model = write_script(
        tmp_path / "script.json",
        [
            {
                "text": "",
                "tool_calls": [{"id": "r1", "name": "read", "arguments": {"path": "/dev/stdin"}}],
            },
            "Done.",
        ],
    )
    async with RpcClient(
        "--model", model, "--permission-mode", "bypassPermissions", "--cwd", str(project)
    ) as rpc:
        await rpc.send({"type": "prompt", "message": "go", "id": "p1"})
        await rpc.read_until(lambda m: m["type"] == "tool_execution_start")
        await rpc.send({"type": "get_state", "id": "s1"})
        lines = await asyncio.wait_for(rpc.read_until(_is_response("s1")), _PROTOCOL_GUARD)
        assert lines[-1]["success"] is True
        await asyncio.wait_for(rpc.read_until(lambda m: m["type"] == "agent_end"), _PROTOCOL_GUARD)
        end = next(m for m in rpc.seen if m["type"] == "tool_execution_end")
        assert end["isError"] is True and "get_state" not in json.dumps(end)
        assert await rpc.close_stdin() == 0


async def test_an_allowed_write_to_dev_stdout_cannot_forge_protocol_lines(
    tmp_path: Path,
) -> None:
    project = _project(tmp_path)
    forged = json.dumps({"type": "response", "command": "prompt", "id": "p1", "success": True})
    model = write_script(
        tmp_path / "script.json",
        [
            {
                "text": "",
                "tool_calls": [
                    {
                        "id": "w1",
                        "name": "write",
                        "arguments": {"path": "/dev/stdout", "content": forged + "\n"},
                    }
                ],
            },
            "Done.",
        ],
    )
    async with RpcClient(
        "--model", model, "--permission-mode", "bypassPermissions", "--cwd", str(project)
    ) as rpc:
        await rpc.send({"type": "prompt", "message": "go", "id": "p1"})
        lines = await asyncio.wait_for(
            rpc.read_until(lambda m: m["type"] == "agent_end"), _PROTOCOL_GUARD
        )
        # the one p1 response is the real one, sent before the tool ran; no forged second
        assert types_of(lines).index("response") < types_of(lines).index("tool_execution_start")
        assert sum(1 for m in rpc.seen if m.get("id") == "p1") == 1
        end = next(m for m in rpc.seen if m["type"] == "tool_execution_end")
        assert end["isError"] is True
        assert await rpc.close_stdin() == 0
        assert sum(1 for m in rpc.seen if m.get("id") == "p1") == 1


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie still answers kill(0): count it as gone once it has exited
    with contextlib.suppress(OSError):
        if Path(f"/proc/{pid}/stat").read_text().split()[2] == "Z":
            return False
    return True


async def test_abort_ends_a_turn_whose_settings_hook_hangs_and_kills_it(tmp_path: Path) -> None:
    """A PreToolUse command that never exits (600 s default timeout): abort ends it now."""
    project = _project(tmp_path)
    pid_file = tmp_path / "hook.pid"
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text(
        json.dumps(
            {
                "hooks": {
                    "PreToolUse": [
                        {
                            "matcher": "",
                            "hooks": [
                                {
                                    "type": "command",
                                    "command": f"echo $$ > {pid_file}; exec sleep 600",
                                }
                            ],
                        }
                    ]
                }
            }
        )
    )
    model = _tool_then_done(tmp_path)
    async with RpcClient("--model", model, "--trust-project", "--cwd", str(project)) as rpc:
        await rpc.send({"type": "prompt", "message": "go", "id": "p1"})
        await rpc.read_until(lambda m: m["type"] == "tool_execution_start")
        deadline = asyncio.get_running_loop().time() + TIMEOUT
        while not pid_file.exists() or not pid_file.read_text().strip():
            assert asyncio.get_running_loop().time() < deadline, "the hook never started"
            await asyncio.sleep(0.02)
        pid = int(pid_file.read_text())
        await rpc.send({"type": "abort", "id": "a1"})
        lines = await rpc.read_until(_is_response("a1"))
        assert lines[-1]["success"] is True
        prompts = [m for m in rpc.seen if m["type"] == "response" and m.get("id") == "p1"]
        assert prompts[0]["success"] is True and len(prompts) <= 2
        while _pid_alive(pid):  # the hook's process group was killed
            assert asyncio.get_running_loop().time() < deadline, f"hook process {pid} survived"
            await asyncio.sleep(0.02)
        while (await rpc.ok({"type": "get_state"}))["isStreaming"]:
            pass  # the run's last steps after the abort answer
        assert await rpc.close_stdin() == 0


async def test_a_new_session_that_cannot_be_created_keeps_the_current_one(tmp_path: Path) -> None:
    project = _project(tmp_path)
    model = write_script(tmp_path / "script.json", ["one", "two"])
    async with RpcClient("--model", model, "--cwd", str(project)) as rpc:
        await rpc.prompt("first")
        old_file = Path((await rpc.ok({"type": "get_state"}))["sessionFile"])
        # the sessions folder becomes a file: no new session can be created there
        folder = old_file.parent
        moved = folder.with_name(folder.name + ".moved")
        folder.rename(moved)
        folder.write_text("not a folder")
        response, _ = await rpc.command({"type": "new_session"})
        assert response["success"] is False
        assert "cannot create session file" in response["error"]
        # the current session is still open and still written
        await rpc.prompt("second")
        assert await rpc.close_stdin() == 0
        assert "Traceback" not in await rpc.stderr()
    messages = [e for e in read_jsonl(moved / old_file.name) if e["type"] == "message"]
    assert len(messages) == 4


IMPATIENT_HOOK = """
    import asyncio, json

    def register(pi):
        @pi.on("turn_start")
        async def ask(event, ctx):
            try:
                answer = await asyncio.wait_for(ctx.ui.confirm("Quick?", "no time"), 0.1)
            except asyncio.TimeoutError:
                answer = "gave up"
            with open(RECORD, "w") as f:
                json.dump(answer, f)
"""


async def test_a_dialog_the_hook_stops_waiting_for_is_withdrawn(tmp_path: Path) -> None:
    project = _project(tmp_path)
    record = tmp_path / "answer.json"
    hook = write_hook(
        tmp_path / "impatient.py", IMPATIENT_HOOK.replace("RECORD", repr(str(record)))
    )
    model = write_script(tmp_path / "script.json", ["Done."])
    async with RpcClient("--model", model, "--hook", str(hook), "--cwd", str(project)) as rpc:
        await rpc.send({"type": "prompt", "message": "go", "id": "p1"})
        request = (await rpc.read_until(lambda m: m["type"] == "extension_ui_request"))[-1]
        lines = await rpc.read_until(lambda m: m["type"] == "agent_end")
        withdrawn = [m for m in lines if m["type"] == "extension_ui_cancelled"]
        assert withdrawn == [
            {"type": "extension_ui_cancelled", "id": request["id"], "reason": "withdrawn"}
        ]
        late, _ = await _answer(rpc, request["id"], {"confirmed": True})
        assert late["success"] is False and "no open UI request" in late["error"]
        assert await rpc.close_stdin() == 0
    assert json.loads(record.read_text()) == "gave up"


SHUTDOWN_HOOK = """\
import json


def register(pi):
    @pi.on("agent_end")
    def done(event, ctx):
        ctx.shutdown()

    @pi.on("session_shutdown")
    def bye(event, ctx):
        with open(RECORD, "w") as f:
            json.dump({"reason": event.reason}, f)
"""


async def test_ctx_shutdown_ends_the_process_after_the_run(tmp_path: Path) -> None:
    project = _project(tmp_path)
    record = tmp_path / "bye.json"
    hook = write_hook(tmp_path / "bye.py", SHUTDOWN_HOOK.replace("RECORD", repr(str(record))))
    model = write_script(tmp_path / "s.json", ["done"])
    async with RpcClient("--model", model, "--hook", str(hook), "--cwd", str(project)) as rpc:
        await rpc.send({"type": "prompt", "message": "go", "id": "p1"})
        # stdin stays open: the process ends because a hook asked for it
        code = await asyncio.wait_for(rpc.process.wait(), 20)
        assert code == 0
        assert json.loads(record.read_text()) == {"reason": "shutdown"}
        assert "Traceback" not in await rpc.stderr()


PROMPT_STYLE_HOOK = """
    import json

    def register(pi):
        @pi.on("turn_start")
        async def ask(event, ctx):
            answers = [
                await ctx.ui.editor("Plain", "draft"),
                await ctx.ui.editor("Doc", prompt_style=False),
                await ctx.ui.editor("Prompt", prompt_style=True),
            ]
            with open(RECORD, "a") as f:
                f.write(json.dumps(answers) + "\\n")
"""


async def test_the_editor_request_carries_prompt_style_when_a_hook_gives_it(
    tmp_path: Path,
) -> None:
    project = _project(tmp_path)
    record = tmp_path / "answers.jsonl"
    source = PROMPT_STYLE_HOOK.replace("RECORD", repr(str(record)))
    hook = write_hook(tmp_path / "style_hook.py", source)
    model = write_script(tmp_path / "script.json", ["Done."])
    async with RpcClient("--model", model, "--hook", str(hook), "--cwd", str(project)) as rpc:
        await rpc.send({"type": "prompt", "message": "go", "id": "p1"})
        asked = []
        for answer in ("one", "two", "three"):
            request = (await rpc.read_until(lambda m: m["type"] == "extension_ui_request"))[-1]
            asked.append(request)
            await rpc.send({"type": "extension_ui_response", "id": request["id"], "value": answer})
        await rpc.read_until(lambda m: m["type"] == "agent_end")
        assert await rpc.close_stdin() == 0
    assert [r["method"] for r in asked] == ["editor"] * 3
    assert "promptStyle" not in asked[0]  # the mode's own: pi's dialog, Enter submits
    assert [r.get("promptStyle") for r in asked[1:]] == [False, True]
    assert json.loads(record.read_text()) == ["one", "two", "three"]
