"""pi's thinking, queue-mode, retry, export and model commands, driven by the rpc.md client.

Each command is sent to ``hookline --mode rpc`` as a subprocess, and its
effect is checked where it shows: the request the next model call sends to a
loopback API server, the order messages land in, the retry events, the file
written, the model in use.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.fakes import FakeAnthropicServer, FakeOpenAIServer, FakeReply, FakeToolCall

from ..helpers import CLI, write_hook, write_script
from .pi_rpc_client import Line, PiRpcClient


@pytest.fixture
def openai_server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as server:
        yield server


@pytest.fixture
def anthropic_server() -> Iterator[FakeAnthropicServer]:
    with FakeAnthropicServer() as server:
        yield server


def _client(
    tmp_path: Path, model: str, *args: str, env: dict[str, str] | None = None, timeout: float = 30
) -> PiRpcClient:
    project = tmp_path / "proj"
    project.mkdir(exist_ok=True)
    argv = [*CLI, "--mode", "rpc", "--model", model, "--cwd", str(project), *args]
    return PiRpcClient(argv, timeout=timeout, env={**os.environ, **(env or {})})


async def _idle(pi: PiRpcClient) -> dict[str, Any]:
    """``get_state`` once the agent has stopped streaming (each answer is awaited)."""
    while (state := await pi.ok("get_state"))["isStreaming"]:
        pass
    return state


# -- thinking ---------------------------------------------------------------------


async def test_set_thinking_level_reaches_the_next_openai_request(
    tmp_path: Path, openai_server: FakeOpenAIServer
) -> None:
    openai_server.add_text("plain")
    openai_server.add_text("thought about it")
    url = ["--base-url", openai_server.base_url]
    async with _client(tmp_path, "openai:gpt-5", *url, "--no-session") as pi:
        assert (await pi.ok("get_state"))["thinkingLevel"] == "off"
        await pi.run("first")
        assert "reasoning_effort" not in openai_server.requests[0]
        assert await pi.ok("set_thinking_level", level="high") is None
        assert (await pi.ok("get_state"))["thinkingLevel"] == "high"
        await pi.run("second")
        assert openai_server.requests[1]["reasoning_effort"] == "high"
        bad = await pi.call("set_thinking_level", level="extreme")
        assert bad["success"] is False and "off, minimal, low, medium, high, xhigh" in bad["error"]
        assert (await pi.ok("get_state"))["thinkingLevel"] == "high"


async def test_set_thinking_level_sets_anthropics_thinking_budget(
    tmp_path: Path, anthropic_server: FakeAnthropicServer
) -> None:
    anthropic_server.add_text("ok")
    url = ["--base-url", anthropic_server.base_url]
    env = {"ANTHROPIC_API_KEY": "test-key"}
    async with _client(
        tmp_path, "anthropic:claude-sonnet-4-5", *url, "--no-session", env=env
    ) as pi:
        assert await pi.ok("set_thinking_level", level="medium") is None
        await pi.run("think")
    sent = anthropic_server.requests[0]
    assert sent["thinking"] == {"type": "enabled", "budget_tokens": 8192}
    assert sent["max_tokens"] > 8192  # room for the answer after the budget


async def test_cycle_thinking_level_goes_through_the_models_levels(
    tmp_path: Path, openai_server: FakeOpenAIServer
) -> None:
    url = ["--base-url", openai_server.base_url]
    async with _client(tmp_path, "openai:gpt-5", *url, "--no-session") as pi:
        seen = [(await pi.ok("cycle_thinking_level"))["level"] for _ in range(6)]
        assert seen == ["minimal", "low", "medium", "high", "off", "minimal"]
    async with _client(tmp_path, "openai:gpt-5.2", *url, "--no-session") as pi:
        assert await pi.ok("set_thinking_level", level="high") is None
        assert (await pi.ok("cycle_thinking_level"))["level"] == "xhigh"  # this model takes it
        assert (await pi.ok("cycle_thinking_level"))["level"] == "off"


async def test_a_model_that_does_not_reason_stays_off(
    tmp_path: Path, openai_server: FakeOpenAIServer
) -> None:
    openai_server.add_text("ok")
    url = ["--base-url", openai_server.base_url]
    async with _client(tmp_path, "openai:gpt-4.1", *url, "--no-session") as pi:
        assert await pi.ok("cycle_thinking_level") is None  # pi: null without reasoning
        assert await pi.ok("set_thinking_level", level="high") is None
        assert (await pi.ok("get_state"))["thinkingLevel"] == "off"  # clamped, as pi does
        await pi.run("hi")
    assert "reasoning_effort" not in openai_server.requests[0]


async def test_xhigh_is_clamped_to_high_where_the_model_lacks_it(
    tmp_path: Path, openai_server: FakeOpenAIServer
) -> None:
    url = ["--base-url", openai_server.base_url]
    async with _client(tmp_path, "openai:gpt-5", *url, "--no-session") as pi:
        assert await pi.ok("set_thinking_level", level="xhigh") is None
        assert (await pi.ok("get_state"))["thinkingLevel"] == "high"


# -- steering and follow-up modes ----------------------------------------------------

HOLD_HOOK = """
    import asyncio
    import os

    def register(pi):
        @pi.on("turn_start")
        async def hold(event, ctx):
            # The first turn waits until the test has queued its messages.
            if event.turn_index == 0:
                deadline = asyncio.get_running_loop().time() + 30
                while not os.path.exists(GO) and asyncio.get_running_loop().time() < deadline:
                    await asyncio.sleep(0.01)
"""


async def _queued_run(
    tmp_path: Path, command: str, mode_command: str, mode: str
) -> tuple[list[str], dict[str, Any]]:
    """A run held in its first turn while two ``command`` messages are queued; the texts
    of the messages in the order they landed, and the state seen while they waited."""
    go = tmp_path / "go"
    hook = write_hook(tmp_path / "hold.py", HOLD_HOOK.replace("GO", repr(str(go))))
    model = write_script(tmp_path / "script.json", ["first", "r1", "r2", "r3"])
    async with _client(tmp_path, model, "--hook", str(hook), "--no-session") as pi:
        assert (await pi.ok("get_state"))[_STATE_KEY[mode_command]] == "all"  # the default
        assert await pi.ok(mode_command, mode=mode) is None
        await pi.ok("prompt", message="start")
        await pi.wait_for(lambda x: x["type"] == "turn_start")
        assert await pi.ok(command, message="A") is None
        assert await pi.ok(command, message="B") is None
        waiting = await pi.ok("get_state")
        go.touch()
        await pi.wait_for(lambda x: x["type"] == "agent_end")
        state = await _idle(pi)
        messages = (await pi.ok("get_messages"))["messages"]
    assert state[_STATE_KEY[mode_command]] == mode
    return [m["content"][0]["text"] for m in messages], waiting


_STATE_KEY = {"set_steering_mode": "steeringMode", "set_follow_up_mode": "followUpMode"}


@pytest.mark.parametrize("command", ["steer", "follow_up"])
async def test_all_delivers_every_queued_message_at_once(tmp_path: Path, command: str) -> None:
    mode_command = "set_steering_mode" if command == "steer" else "set_follow_up_mode"
    texts, waiting = await _queued_run(tmp_path, command, mode_command, "all")
    assert waiting["pendingMessageCount"] == 2 and waiting["isStreaming"] is True
    assert texts == ["start", "first", "A", "B", "r1"]


@pytest.mark.parametrize("command", ["steer", "follow_up"])
async def test_one_at_a_time_delivers_one_per_stop(tmp_path: Path, command: str) -> None:
    mode_command = "set_steering_mode" if command == "steer" else "set_follow_up_mode"
    texts, _ = await _queued_run(tmp_path, command, mode_command, "one-at-a-time")
    assert texts == ["start", "first", "A", "r1", "B", "r2"]


async def test_queue_modes_refuse_other_values(tmp_path: Path) -> None:
    model = write_script(tmp_path / "script.json", ["unused"])
    async with _client(tmp_path, model, "--no-session") as pi:
        for command in ("set_steering_mode", "set_follow_up_mode"):
            for bad in ("one", "ALL", None, 1):
                answer = await pi.call(command, mode=bad)
                assert answer["success"] is False, (command, bad)
        state = await pi.ok("get_state")
        assert (state["steeringMode"], state["followUpMode"]) == ("all", "all")


# -- retry ------------------------------------------------------------------------


async def test_abort_retry_ends_a_long_retry_wait_at_once(
    tmp_path: Path, openai_server: FakeOpenAIServer
) -> None:
    # The server asks for a 60 s wait (capped at 30 s); the client gives up after 20 s, so
    # only a cancelled wait lets the test pass.
    openai_server.add_error(429, "slow down", headers={"retry-after": "60"})
    openai_server.add_text("never reached")
    url = ["--base-url", openai_server.base_url]
    async with _client(tmp_path, "openai:gpt-5", *url, "--no-session", timeout=20) as pi:
        assert await pi.ok("abort_retry") is None  # nothing waits: no effect
        start = len(pi.lines)
        await pi.ok("prompt", message="go")
        retry = await pi.wait_for(lambda x: x["type"] == "auto_retry_start", start)
        assert (
            retry["attempt"] == 2 and retry["delayMs"] >= 29_000 and "429" in retry["errorMessage"]
        )
        assert await pi.ok("abort_retry") is None
        end = await pi.wait_for(lambda x: x["type"] == "auto_retry_end", start)
        assert end == {
            "type": "auto_retry_end",
            "success": False,
            "attempt": 1,
            "finalError": "Retry cancelled",
        }
        await pi.wait_for(lambda x: x["type"] == "agent_end", start)
        last = (await pi.ok("get_messages"))["messages"][-1]
        assert last["role"] == "assistant" and last["stopReason"] == "error"
        state = await _idle(pi)
        assert state["autoRetryEnabled"] is True  # cancelling one wait does not switch it off
    assert len(openai_server.requests) == 1  # no retry was made


async def test_set_auto_retry_switches_the_retry_loop(
    tmp_path: Path, openai_server: FakeOpenAIServer
) -> None:
    openai_server.add_error(503, "down")
    openai_server.add_error(503, "down again")
    openai_server.add_text("back")
    url = ["--base-url", openai_server.base_url]
    async with _client(tmp_path, "openai:gpt-5", *url, "--no-session") as pi:
        assert await pi.ok("set_auto_retry", enabled=False) is None
        assert (await pi.ok("get_state"))["autoRetryEnabled"] is False
        lines = await pi.run("one")
        assert not [x for x in lines if x["type"].startswith("auto_retry")]
        assert len(openai_server.requests) == 1
        assert await pi.ok("set_auto_retry", enabled=True) is None
        lines = await pi.run("two")
        kinds = [x["type"] for x in lines if x["type"].startswith("auto_retry")]
        assert kinds == ["auto_retry_start", "auto_retry_end"]
        assert len(openai_server.requests) == 3
        bad = await pi.call("set_auto_retry", enabled="yes")
        assert bad["success"] is False and '"enabled" must be true or false' in bad["error"]


# -- export_html --------------------------------------------------------------------


async def test_export_html_writes_the_session_escaped(tmp_path: Path) -> None:
    model = write_script(
        tmp_path / "script.json",
        [
            {
                "thinking": "the <b>plan</b>",
                "text": "Reading.",
                "tool_calls": [{"id": "c1", "name": "ls", "arguments": {"path": "<img src=x>"}}],
            },
            "Here is <script>alert('answer')</script> & more",
        ],
    )
    out = tmp_path / "export.html"
    async with _client(tmp_path, model) as pi:
        await pi.run("please <script>alert('x')</script> run")
        state = await _idle(pi)
        data = await pi.ok("export_html", outputPath=str(out))
        assert data == {"path": str(out)}
        default = await pi.ok("export_html")
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in page  # the prompt
    assert "&lt;script&gt;alert(&#x27;answer&#x27;)&lt;/script&gt; &amp; more" in page
    assert "the &lt;b&gt;plan&lt;/b&gt;" in page  # thinking
    assert "&lt;img src=x&gt;" in page  # tool arguments
    assert "<script" not in page.lower() and "<img src=x" not in page
    assert "Tool result: ls" in page
    assert state["sessionId"] in page
    # without outputPath: next to the project, named after the session file
    stem = Path(state["sessionFile"]).stem
    assert default["path"] == str(tmp_path / "proj" / f"hookline-session-{stem}.html")
    again = Path(default["path"]).read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in again
    assert "<script" not in again.lower()


async def test_export_html_reports_a_bad_path(tmp_path: Path) -> None:
    model = write_script(tmp_path / "script.json", ["hi"])
    async with _client(tmp_path, model, "--no-session") as pi:
        await pi.run("hello")
        into_dir = await pi.call("export_html", outputPath=str(tmp_path))
        assert into_dir["success"] is False and "is a directory" in into_dir["error"]
        missing = await pi.call("export_html", outputPath=str(tmp_path / "no" / "such.html"))
        assert missing["success"] is False and "such.html" in missing["error"]
        # in memory: still exported, named after the session id
        data = await pi.ok("export_html")
        state = await pi.ok("get_state")
    assert Path(data["path"]).name == f"hookline-session-{state['sessionId']}.html"
    assert "hello" in Path(data["path"]).read_text(encoding="utf-8")


# -- models ---------------------------------------------------------------------------


async def test_available_models_are_the_configured_ones_in_pis_shape(tmp_path: Path) -> None:
    model = write_script(tmp_path / "script.json", ["hi"])
    env = {"ANTHROPIC_API_KEY": "test-key", "HOOKLINE_MODEL": "anthropic:claude-custom-1"}
    async with _client(tmp_path, model, "--no-session", env=env) as pi:
        models = (await pi.ok("get_available_models"))["models"]
        specs = [f"{m['provider']}:{m['id']}" for m in models]
        assert specs[0] == model  # the model in use first
        assert specs[1] == "anthropic:claude-custom-1"  # named in HOOKLINE_MODEL
        assert "anthropic:claude-sonnet-4-5" in specs  # a key is set and the SDK installed
        assert not [s for s in specs if s.startswith("openai:")]  # no OpenAI key
        assert any(s.endswith("default_script.yaml") for s in specs)  # the embedded model
        sonnet = next(m for m in models if m["id"] == "claude-sonnet-4-5")
        assert sonnet == {
            "id": "claude-sonnet-4-5",
            "name": "Claude Sonnet 4.5",
            "api": "anthropic-messages",
            "provider": "anthropic",
            "baseUrl": "https://api.anthropic.com",
            "reasoning": True,
            "input": ["text", "image"],
            "cost": {"input": 3, "output": 15, "cacheRead": 0.3, "cacheWrite": 3.75},
            "contextWindow": 200000,
            "maxTokens": 64000,
        }
        # cycle_model goes to the next one; set_model to any of them
        cycled = await pi.ok("cycle_model")
        assert f"{cycled['model']['provider']}:{cycled['model']['id']}" == specs[1]
        assert cycled["isScoped"] is False and cycled["thinkingLevel"] == "off"
        chosen = await pi.ok("set_model", provider="anthropic", modelId="claude-haiku-4-5")
        assert chosen["name"] == "Claude Haiku 4.5"
        assert (await pi.ok("get_state"))["model"]["id"] == "claude-haiku-4-5"


async def test_without_keys_only_the_models_named_here_are_offered(tmp_path: Path) -> None:
    model = write_script(tmp_path / "script.json", ["hi"])
    env = {"HOOKLINE_MODEL": "openai:gpt-5"}  # named, but there is no key to use it with
    async with _client(tmp_path, model, "--no-session", env=env) as pi:
        models = (await pi.ok("get_available_models"))["models"]
        specs = [f"{m['provider']}:{m['id']}" for m in models]
        assert specs[0] == model and len(specs) == 2  # and the embedded model
        assert all(m["provider"] == "scripted" for m in models)
        # a model with one choice cycles back and forth between the two scripted ones
        assert (await pi.ok("cycle_model"))["model"]["id"] == models[1]["id"]


async def test_with_one_model_cycle_model_answers_null(tmp_path: Path) -> None:
    default = (
        Path(__file__).resolve().parents[3] / "src" / "hookline" / "agent" / "default_script.yaml"
    )
    async with _client(tmp_path, f"scripted:{default}", "--no-session") as pi:
        assert len((await pi.ok("get_available_models"))["models"]) == 1
        assert await pi.ok("cycle_model") is None


# -- streaming: thinking and tool-call deltas ---------------------------------------------

UPDATES_HOOK = """
    import json

    def register(pi):
        @pi.on("message_update")
        def seen(event, ctx):
            with open(RECORD, "a") as f:
                line = [event.assistant_message_event["type"], event.delta_type, event.delta]
                f.write(json.dumps(line) + "\\n")
"""


def _updates(lines: list[Line]) -> list[dict[str, Any]]:
    return [x["assistantMessageEvent"] for x in lines if x["type"] == "message_update"]


def _check_stream(updates: list[dict[str, Any]], thinking: str, text: str) -> None:
    kinds = [u["type"] for u in updates]
    first = {k: kinds.index(k) for k in kinds}
    assert first["thinking_start"] < first["thinking_delta"] < first["thinking_end"]
    assert first["thinking_end"] < first["text_start"] < first["text_end"]
    assert first["text_end"] < first["toolcall_start"] < first["toolcall_delta"]
    assert kinds[-1] == "toolcall_end"
    deltas = "".join(u["delta"] for u in updates if u["type"] == "thinking_delta")
    assert deltas == thinking
    assert "".join(u["delta"] for u in updates if u["type"] == "text_delta") == text
    pieces = "".join(u["delta"] for u in updates if u["type"] == "toolcall_delta")
    assert json.loads(pieces) == {"path": "src"}
    end = updates[-1]
    assert end["toolCall"]["type"] == "toolCall" and end["toolCall"]["name"] == "ls"
    assert end["toolCall"]["arguments"] == {"path": "src"}
    assert [b["type"] for b in end["partial"]["content"]] == ["thinking", "text", "toolCall"]
    assert [u["contentIndex"] for u in updates if u["type"].endswith("_start")] == [0, 1, 2]


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
async def test_thinking_and_tool_call_deltas_stream_to_hooks_and_the_wire(
    tmp_path: Path,
    provider: str,
    openai_server: FakeOpenAIServer,
    anthropic_server: FakeAnthropicServer,
) -> None:
    server = openai_server if provider == "openai" else anthropic_server
    call = FakeToolCall("ls", {"path": "src"})
    server.add(FakeReply(thinking="Look around first.", text="Listing.", tool_calls=[call]))
    server.add_text("Done.")
    record = tmp_path / "updates.jsonl"
    hook = write_hook(tmp_path / "updates.py", UPDATES_HOOK.replace("RECORD", repr(str(record))))
    spec = "openai:gpt-5" if provider == "openai" else "anthropic:claude-sonnet-4-5"
    args = ["--base-url", server.base_url, "--hook", str(hook), "--no-session"]
    async with _client(tmp_path, spec, *args, env={"ANTHROPIC_API_KEY": "k"}) as pi:
        lines = await pi.run("look")
    first_message = lines[: next(i for i, x in enumerate(lines) if x["type"] == "turn_end")]
    _check_stream(_updates(first_message), "Look around first.", "Listing.")
    # hooks saw the same events, with the delta's kind
    seen = [json.loads(x) for x in record.read_text().splitlines()]
    wire = [u for u in _updates(lines)]
    assert [s[0] for s in seen] == [u["type"] for u in wire]
    assert {s[1] for s in seen} == {"thinking", "text", "toolcall"}
    assert "".join(s[2] for s in seen if s[1] == "thinking") == "Look around first."


async def test_the_scripted_model_streams_thinking_and_tool_calls_too(tmp_path: Path) -> None:
    model = write_script(
        tmp_path / "script.json",
        [
            {
                "thinking": "Look around first.",
                "text": "Listing.",
                "tool_calls": [{"name": "ls", "arguments": {"path": "src"}}],
            },
            "Done.",
        ],
    )
    (tmp_path / "proj" / "src").mkdir(parents=True)
    async with _client(tmp_path, model, "--no-session") as pi:
        lines = await pi.run("look")
    first_message = lines[: next(i for i, x in enumerate(lines) if x["type"] == "turn_end")]
    _check_stream(_updates(first_message), "Look around first.", "Listing.")
