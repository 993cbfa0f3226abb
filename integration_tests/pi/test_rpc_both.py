"""One RPC client, written from pi's rpc.md, drives the real pi and hookline the same way."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from .agents import FakeOpenAIServer, hookline_agent, pi_agent

HERE = Path(__file__).parent
AGENTS = ["pi", "hookline"]


def _client(agent: str, fake: FakeOpenAIServer, tmp_path: Path, case: str, **kw: Any) -> Any:
    home, work = tmp_path / "home", tmp_path / "work"
    home.mkdir(exist_ok=True)
    work.mkdir(exist_ok=True)
    env = {"CASE": case, "RECORD": str(tmp_path / "record.jsonl")}
    if agent == "pi":
        return pi_agent(fake, home, work, extension=HERE / "extensions/rules.ts", env=env, **kw)
    return hookline_agent(fake, home, work, hook=HERE / "extensions/rules.py", env=env, **kw)


def _tool_call(command: str) -> Any:
    from tests.fakes.llm_servers import FakeReply, FakeToolCall

    return FakeReply(text="Looking.", tool_calls=[FakeToolCall("bash", {"command": command})])


def _subsequence(seen: list[str], wanted: list[str]) -> bool:
    rest = iter(seen)
    return all(any(w == s for s in rest) for w in wanted)


@pytest.mark.parametrize("agent", AGENTS)
async def test_a_session_streams_and_answers_pi_commands(agent: str, tmp_path: Path) -> None:
    with FakeOpenAIServer() as fake:
        fake.add(_tool_call("echo hi"))
        fake.add_text("All done.")
        async with _client(agent, fake, tmp_path, "none") as rpc:
            lines = await rpc.run("what is here?")
            seen = [
                x["type"] + (":" + x["message"]["role"] if x["type"].startswith("message") else "")
                for x in lines
                if x["type"] != "message_update"
            ]
            # pi opens the run, then adds the user message; hookline adds it, then opens the run
            user = ["message_start:user", "message_end:user"]
            opening = ["agent_start", "turn_start"]
            head = opening + user if agent == "pi" else user + opening
            wanted = [
                "response",
                *head,
                "message_start:assistant",
                "message_end:assistant",
                "tool_execution_start",
                "tool_execution_end",
                "message_start:toolResult",
                "message_end:toolResult",
                "turn_end",
                "turn_start",
                "message_end:assistant",
                "turn_end",
                "agent_end",
            ]
            assert _subsequence(seen, wanted), json.dumps(seen)
            deltas = [
                x["assistantMessageEvent"]["delta"]
                for x in lines
                if x["type"] == "message_update"
                and x["assistantMessageEvent"]["type"] == "text_delta"
            ]
            assert "".join(deltas).startswith("Looking.")
            turn_end = next(x for x in lines if x["type"] == "turn_end")
            assert turn_end["message"]["role"] == "assistant"
            assert [r["role"] for r in turn_end["toolResults"]] == ["toolResult"]
            agent_end = next(x for x in lines if x["type"] == "agent_end")
            roles = [m["role"] for m in agent_end["messages"]]
            assert roles == ["user", "assistant", "toolResult", "assistant"]
            start = next(x for x in lines if x["type"] == "tool_execution_start")
            assert (start["toolName"], start["args"]) == ("bash", {"command": "echo hi"})
            end = next(x for x in lines if x["type"] == "tool_execution_end")
            assert end["toolCallId"] == start["toolCallId"] and end["isError"] is False

            while (state := await rpc.ok("get_state"))["isStreaming"]:
                pass
            assert state["model"]["id"].endswith("fake-model")
            assert state["messageCount"] == 4 and isinstance(state["sessionId"], str)
            assert state["autoCompactionEnabled"] is True
            messages = (await rpc.ok("get_messages"))["messages"]
            assert [m["role"] for m in messages] == ["user", "assistant", "toolResult", "assistant"]
            assert messages[1]["content"][-1]["type"] == "toolCall"
            assert messages[1]["stopReason"] == "toolUse"
            assert await rpc.ok("get_last_assistant_text") == {"text": "All done."}
            forks = (await rpc.ok("get_fork_messages"))["messages"]
            assert [f["text"] for f in forks] == ["what is here?"]
            assert await rpc.ok("set_session_name", name="work") is None
            assert (await rpc.ok("get_state"))["sessionName"] == "work"
            bash = await rpc.ok("bash", command="echo from-user; exit 3")
            assert "from-user" in bash["output"] and bash["exitCode"] == 3
            assert bash["cancelled"] is False
            # pi answers an unknown command without its id (hookline echoes it): match by name
            start = len(rpc.lines)
            await rpc.send({"type": "no_such_command", "id": "x1"})
            bad = await rpc.wait_for(
                lambda x: x["type"] == "response" and x["command"] == "no_such_command", start
            )
            assert bad["success"] is False and "no_such_command" in bad["error"]


@pytest.mark.parametrize("agent", AGENTS)
@pytest.mark.parametrize("confirmed", [True, False])
async def test_a_dialog_is_answered_by_the_client(
    agent: str, confirmed: bool, tmp_path: Path
) -> None:
    asked: list[dict[str, Any]] = []

    def answer(request: dict[str, Any]) -> dict[str, Any]:
        asked.append(request)
        return {"confirmed": confirmed}

    with FakeOpenAIServer() as fake:
        fake.add(_tool_call("echo allowed > made.txt"))
        fake.add_text("ok")
        async with _client(agent, fake, tmp_path, "dialog", answer=answer) as rpc:
            lines = await rpc.run("go")
        tool_text = json.dumps([m for m in fake.requests[1]["messages"] if m["role"] == "tool"])
    (request,) = asked
    assert (request["method"], request["title"], request["message"]) == (
        "confirm",
        "Run bash?",
        "echo allowed > made.txt",
    )
    assert request["timeout"] == 20000
    status = next(x for x in lines if x.get("method") == "setStatus")
    assert (status["statusKey"], status["statusText"]) == ("guard", "checking")
    records = [json.loads(x) for x in (tmp_path / "record.jsonl").read_text().splitlines()]
    assert records == [{"event": "dialog", "ok": confirmed}]
    assert (tmp_path / "work" / "made.txt").exists() is confirmed
    assert ("not confirmed" in tool_text) is not confirmed


@pytest.mark.parametrize("agent", AGENTS)
async def test_a_failing_handler_is_an_extension_error_event(agent: str, tmp_path: Path) -> None:
    with FakeOpenAIServer() as fake:
        fake.add_text("fine")
        async with _client(agent, fake, tmp_path, "error") as rpc:
            await rpc.run("go")
            error = await rpc.wait_for(lambda x: x["type"] == "extension_error")
            assert error["event"] == "turn_end"
            assert "rule is broken" in error["error"]
            assert error["extensionPath"].endswith(("rules.ts", "rules.py"))
            assert await rpc.ok("get_last_assistant_text") == {"text": "fine"}


def _blocks(updates: list[dict[str, Any]]) -> list[list[str]]:
    """Each content block's event types in order, runs of deltas folded into one. Only the
    order within a block is compared: pi's OpenAI provider ends every block at the end of
    the stream, hookline ends each when the next begins (as Anthropic's stream does)."""
    blocks: dict[int, list[str]] = {}
    for u in updates:
        kinds = blocks.setdefault(u["contentIndex"], [])
        if not (kinds and u["type"].endswith("_delta") and kinds[-1] == u["type"]):
            kinds.append(u["type"])
    return [blocks[i] for i in sorted(blocks)]


@pytest.mark.parametrize("agent", AGENTS)
async def test_thinking_and_tool_call_deltas_stream_in_the_same_shape(
    agent: str, tmp_path: Path
) -> None:
    from tests.fakes.llm_servers import FakeReply, FakeToolCall

    with FakeOpenAIServer() as fake:
        call = FakeToolCall("bash", {"command": "echo hi"})
        fake.add(FakeReply(thinking="Look first.", text="Looking.", tool_calls=[call]))
        fake.add_text("Done.")
        async with _client(agent, fake, tmp_path, "none") as rpc:
            lines = await rpc.run("what is here?")
    first = lines[: next(i for i, x in enumerate(lines) if x["type"] == "turn_end")]
    updates = [x["assistantMessageEvent"] for x in first if x["type"] == "message_update"]
    assert _blocks(updates) == [
        ["thinking_start", "thinking_delta", "thinking_end"],
        ["text_start", "text_delta", "text_end"],
        ["toolcall_start", "toolcall_delta", "toolcall_end"],
    ]
    thinking = "".join(u["delta"] for u in updates if u["type"] == "thinking_delta")
    assert thinking == "Look first."
    end = next(u for u in updates if u["type"] == "toolcall_end")
    assert (end["toolCall"]["type"], end["toolCall"]["name"]) == ("toolCall", "bash")
    assert end["toolCall"]["arguments"] == {"command": "echo hi"}
    assert [u["contentIndex"] for u in updates if u["type"].endswith("_start")] == [0, 1, 2]
    assert [b["type"] for b in end["partial"]["content"]] == ["thinking", "text", "toolCall"]


@pytest.mark.parametrize("agent", AGENTS)
async def test_queue_modes_retry_and_models_answer_alike(agent: str, tmp_path: Path) -> None:
    with FakeOpenAIServer() as fake:
        async with _client(agent, fake, tmp_path, "none") as rpc:
            state = await rpc.ok("get_state")
            for key in ("thinkingLevel", "steeringMode", "followUpMode", "pendingMessageCount"):
                assert key in state, key
            assert await rpc.ok("set_steering_mode", mode="one-at-a-time") is None
            assert await rpc.ok("set_follow_up_mode", mode="all") is None
            state = await rpc.ok("get_state")
            assert (state["steeringMode"], state["followUpMode"]) == ("one-at-a-time", "all")
            assert await rpc.ok("set_auto_retry", enabled=False) is None
            assert await rpc.ok("abort_retry") is None  # nothing waits: no effect
            models = (await rpc.ok("get_available_models"))["models"]
            mine = next(m for m in models if m["id"] == "fake-model")
            for key in ("id", "name", "api", "provider", "baseUrl", "reasoning", "input",
                        "contextWindow", "maxTokens", "cost"):  # fmt: skip
                assert key in mine, key
            assert mine["api"] == "openai-completions" and mine["baseUrl"] == fake.base_url
            level = await rpc.ok("set_thinking_level", level="off")
            assert level is None and (await rpc.ok("get_state"))["thinkingLevel"] == "off"
