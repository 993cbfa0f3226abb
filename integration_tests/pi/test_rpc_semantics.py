"""pi's run semantics, side by side: the same extension as TypeScript for pi and as a Python
hook for hookline, driven by one RPC client (or one ``-p`` command line), records compared."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from .agents import MODEL, PI_CLI, FakeOpenAIServer, hookline_agent, pi_agent

HERE = Path(__file__).parent
AGENTS = ["pi", "hookline"]
#: The line kinds pi's docs/rpc.md lists: responses, its events and the UI requests.
PI_LINE_KINDS = frozenset(
    {
        "response",
        "agent_start",
        "agent_end",
        "turn_start",
        "turn_end",
        "message_start",
        "message_update",
        "message_end",
        "tool_execution_start",
        "tool_execution_update",
        "tool_execution_end",
        "queue_update",
        "compaction_start",
        "compaction_end",
        "auto_retry_start",
        "auto_retry_end",
        "extension_error",
        "extension_ui_request",
    }
)


def _dirs(tmp_path: Path) -> tuple[Path, Path, Path]:
    home, work, record = tmp_path / "home", tmp_path / "work", tmp_path / "record.jsonl"
    home.mkdir(exist_ok=True)
    work.mkdir(exist_ok=True)
    return home, work, record


def _client(agent: str, fake: FakeOpenAIServer, tmp_path: Path, case: str, **kw: Any) -> Any:
    home, work, record = _dirs(tmp_path)
    env = {"CASE": case, "RECORD": str(record)}
    if agent == "pi":
        return pi_agent(
            fake, home, work, extension=HERE / "extensions/rpc_semantics.ts", env=env, **kw
        )
    return hookline_agent(
        fake, home, work, hook=HERE / "extensions/rpc_semantics.py", env=env, **kw
    )


def _records(tmp_path: Path) -> list[dict[str, Any]]:
    path = tmp_path / "record.jsonl"
    return [json.loads(x) for x in path.read_text().splitlines()] if path.exists() else []


async def _quit(rpc: Any) -> None:
    """Close stdin, as a host that is done does, and wait for the agent to exit."""
    proc = rpc._proc
    proc.stdin.close()
    await asyncio.wait_for(proc.wait(), 30)


async def _settled(rpc: Any) -> None:
    while (await rpc.ok("get_state"))["isStreaming"]:
        await asyncio.sleep(0.05)


@pytest.mark.parametrize("agent", AGENTS)
async def test_new_session_runs_the_extension_again(agent: str, tmp_path: Path) -> None:
    """new_session shuts the instance down (``new``) and starts a fresh one (``new``)."""
    with FakeOpenAIServer() as fake:
        async with _client(agent, fake, tmp_path, "none") as rpc:
            assert await rpc.ok("new_session") == {"cancelled": False}
            await _quit(rpc)
    fresh = [{"instance": 2, "event": "session_start", "reason": "new"}]
    if agent == "pi":
        # Kept difference: pi 0.73.1's RPC mode binds the new instance twice after
        # new_session (the runtime's rebind, then its own), so session_start runs twice;
        # hookline starts the new session once.
        fresh *= 2
    assert _records(tmp_path) == [
        {"instance": 1, "event": "factory"},
        {"instance": 1, "event": "session_start", "reason": "startup"},
        {"instance": 1, "event": "session_shutdown", "reason": "new"},
        {"instance": 2, "event": "factory"},
        *fresh,
        {"instance": 2, "event": "session_shutdown", "reason": "quit"},
    ]


@pytest.mark.parametrize("agent", AGENTS)
@pytest.mark.parametrize("case", ["none", "cancel_compact"])
async def test_compact_on_a_short_session_asks_the_extension(
    agent: str, case: str, tmp_path: Path
) -> None:
    with FakeOpenAIServer() as fake:
        fake.add_text("hello")
        fake.add_text("summary")
        async with _client(agent, fake, tmp_path, case) as rpc:
            await rpc.run("hi")
            await _settled(rpc)
            answer = await rpc.call("compact")
    asked = [r for r in _records(tmp_path) if r["event"] == "session_before_compact"]
    assert asked == [{"instance": 1, "event": "session_before_compact"}]
    if case == "cancel_compact":
        assert answer["success"] is False and "cancelled" in answer["error"].lower(), answer
    elif agent == "pi":
        # Kept difference: with every message kept, pi has the model summarise nothing
        # and writes that compaction; hookline writes none and says nothing was compacted.
        assert answer["success"] is True, answer
    else:
        assert answer["success"] is False and "nothing" in answer["error"], answer


@pytest.mark.parametrize("agent", AGENTS)
@pytest.mark.parametrize("which", ["first", "second"])
async def test_fork_tells_handlers_the_user_message(agent: str, which: str, tmp_path: Path) -> None:
    """``fork`` names the chosen user message to ``session_before_fork``; the new session
    holds what came before it (nothing, for the first message)."""
    with FakeOpenAIServer() as fake:
        fake.add_text("one")
        fake.add_text("two")
        async with _client(agent, fake, tmp_path, "none") as rpc:
            await rpc.run("first")
            await _settled(rpc)
            await rpc.run("second")
            await _settled(rpc)
            messages = (await rpc.ok("get_fork_messages"))["messages"]
            chosen = messages[0 if which == "first" else 1]
            answer = await rpc.ok("fork", entryId=chosen["entryId"])
            kept = (await rpc.ok("get_messages"))["messages"]
    assert answer["cancelled"] is False and answer["text"] == which, answer
    asked = [r for r in _records(tmp_path) if r["event"] == "session_before_fork"]
    assert asked == [{"instance": 1, "event": "session_before_fork", "entryId": chosen["entryId"]}]
    roles = [m["role"] for m in kept]
    assert roles == ([] if which == "first" else ["user", "assistant"]), roles


@pytest.mark.parametrize("agent", AGENTS)
async def test_model_select_carries_the_model_object(agent: str, tmp_path: Path) -> None:
    with FakeOpenAIServer() as fake:
        client = _client(agent, fake, tmp_path, "none")
        models = tmp_path / "home/.pi/agent/models.json"
        if agent == "pi":  # a second model on the loopback provider
            catalog = json.loads(models.read_text())
            catalog["providers"]["loop"]["models"].append({"id": "other-model"})
            models.write_text(json.dumps(catalog))
        async with client as rpc:
            provider = (await rpc.ok("get_state"))["model"]["provider"]
            await rpc.ok("set_model", provider=provider, modelId="other-model")
    (selected,) = [r for r in _records(tmp_path) if r["event"] == "model_select"]
    assert selected == {
        "instance": 1,
        "event": "model_select",
        "provider": provider,
        "id": "other-model",
        "source": "set",
    }


@pytest.mark.parametrize("agent", AGENTS)
async def test_the_stream_holds_only_pi_line_kinds(agent: str, tmp_path: Path) -> None:
    from tests.fakes.llm_servers import FakeReply, FakeToolCall

    with FakeOpenAIServer() as fake:
        call = FakeToolCall("bash", {"command": "echo hi"})
        fake.add(FakeReply(text="Looking.", tool_calls=[call]))
        fake.add_text("Done.")
        async with _client(agent, fake, tmp_path, "error") as rpc:
            await rpc.run("look")
            await _settled(rpc)
            lines = list(rpc.lines)
    kinds = {x["type"] for x in lines}
    assert kinds <= PI_LINE_KINDS, sorted(kinds - PI_LINE_KINDS)
    # one failing handler per turn: one line names its error
    mentions = [x["type"] for x in lines if "rule is broken" in json.dumps(x)]
    assert mentions == ["extension_error", "extension_error"], mentions


async def test_hookline_sends_its_own_kinds_when_asked(tmp_path: Path) -> None:
    """hookline's extra lines (hook events) stay available: ``--rpc-events all``."""
    with FakeOpenAIServer() as fake:
        fake.add_text("Done.")
        client = _client("hookline", fake, tmp_path, "none")
        client.argv += ["--rpc-events", "all"]
        async with client as rpc:
            await rpc.run("look")
            kinds = {x["type"] for x in rpc.lines}
    assert {"session_start", "input", "before_agent_start", "context"} <= kinds, sorted(kinds)


def _print_argv(agent: str, fake: FakeOpenAIServer, tmp_path: Path, prompt: str) -> list[str]:
    home, work, _ = _dirs(tmp_path)
    if agent == "pi":
        agent_dir = home / ".pi" / "agent"
        agent_dir.mkdir(parents=True, exist_ok=True)
        provider = {
            "baseUrl": fake.base_url,
            "api": "openai-completions",
            "apiKey": "loopback",
            "models": [{"id": MODEL}],
        }
        (agent_dir / "models.json").write_text(json.dumps({"providers": {"loop": provider}}))
        argv = ["node", str(PI_CLI), "--no-session", "--provider", "loop", "--model", MODEL]
        return [*argv, "-e", str(HERE / "extensions/rpc_semantics.ts"), "-p", prompt]
    argv = [sys.executable, "-m", "hookline.cli", "--no-session", "--model", f"openai:{MODEL}"]
    argv += ["--base-url", fake.base_url, "--cwd", str(work)]
    return [*argv, "--hook", str(HERE / "extensions/rpc_semantics.py"), "-p", prompt]


@pytest.mark.parametrize("agent", AGENTS)
async def test_print_mode_runs_an_extension_command(agent: str, tmp_path: Path) -> None:
    with FakeOpenAIServer() as fake:
        fake.add_text("should not be asked")
        argv = _print_argv(agent, fake, tmp_path, "/hello world")
        home, work, record = _dirs(tmp_path)
        env = {
            **os.environ,
            "HOME": str(home),
            "HOOKLINE_HOME": str(home / ".hookline"),
            "PI_OFFLINE": "1",
            "OPENAI_API_KEY": "loopback",
            "CASE": "none",
            "RECORD": str(record),
        }
        proc = await asyncio.create_subprocess_exec(
            *argv, cwd=work, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
        )
        out, err = await asyncio.wait_for(proc.communicate(), 60)
        requests = list(fake.requests)
    assert proc.returncode == 0, err.decode()
    commands = [r for r in _records(tmp_path) if r["event"] == "command"]
    assert commands == [{"instance": 1, "event": "command", "name": "hello", "args": "world"}]
    assert requests == []  # the command is not a prompt: the model is not called
    assert out.decode() == ""  # nothing on stdout: a notification is not the answer
