"""The same rule as a pi extension (TypeScript) and as a hookline hook (Python), compared.

Each case runs one prompt on both agents against the same scripted loopback
model and compares what ran, what the handler saw, and what the model
received next.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from .agents import (
    BRIDGE,
    FakeOpenAIServer,
    bridged_pi_agent,
    hookline_agent,
    http_service,
    pi_agent,
)

HERE = Path(__file__).parent


@dataclass
class Run:
    """What one agent did: the handler's records and the model requests."""

    records: list[dict[str, Any]]
    requests: list[dict[str, Any]]
    workdir: Path


async def _run(agent: str, case: str, tmp_path: Path, prompt: str, replies: list[Any]) -> Run:
    base = tmp_path / agent
    home, work = base / "home", base / "work"
    home.mkdir(parents=True)
    work.mkdir()
    (work / "victim.txt").write_text("keep me\n")
    record = base / "record.jsonl"
    record.touch()
    env = {"CASE": case, "RECORD": str(record)}
    with contextlib.ExitStack() as stack:
        fake = stack.enter_context(FakeOpenAIServer())
        for reply in replies:
            fake.add(reply) if not isinstance(reply, str) else fake.add_text(reply)
        if agent == "pi":
            client = pi_agent(fake, home, work, extension=HERE / "extensions/rules.ts", env=env)
        elif agent == "pi+hookline":  # the Python hook governs pi through the bridge
            client = bridged_pi_agent(fake, home, work, hook=HERE / "extensions/rules.py", env=env)
        elif agent == "pi+service":  # the same, through a shared `hookline serve --http`
            url = stack.enter_context(http_service(HERE / "extensions/rules.py", work, env))
            service = {**env, "HOOKLINE_SERVE_URL": url}
            client = pi_agent(fake, home, work, extension=BRIDGE, env=service)
        else:
            hook = HERE / "extensions/rules.py"
            client = hookline_agent(fake, home, work, hook=hook, env=env)
        async with client as rpc:
            await rpc.run(prompt)
        # each agent has its own folders: the model saw them under one name
        requests = json.loads(json.dumps(fake.requests).replace(str(base), "<BASE>"))
    records = [json.loads(x) for x in record.read_text().splitlines()]
    return Run(records, requests, work)


async def _both(case: str, tmp_path: Path, prompt: str, *replies: Any) -> tuple[Run, Run]:
    """pi with the TS rule and hookline with the Python rule; then pi governed by the Python
    rule through ``integrations/pi/hookline.ts``, which must match pi with the TS rule."""
    pi = await _run("pi", case, tmp_path, prompt, list(replies))
    hookline = await _run("hookline", case, tmp_path, prompt, list(replies))
    for how in ("pi+hookline", "pi+service"):
        bridged = await _run(how, case, tmp_path, prompt, list(replies))
        assert bridged.records == pi.records, how
        assert [r["messages"] for r in bridged.requests] == [r["messages"] for r in pi.requests]
        assert (bridged.workdir / "victim.txt").exists() == (pi.workdir / "victim.txt").exists()
    return pi, hookline


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    return "".join(part.get("text", "") for part in content or [])


def _tool_message(request: dict[str, Any]) -> str:
    tools = [m for m in request["messages"] if m["role"] == "tool"]
    assert tools, request["messages"]
    return _text(tools[-1]["content"])


def _last_user(request: dict[str, Any]) -> str:
    return _text([m for m in request["messages"] if m["role"] == "user"][-1]["content"])


def _system(request: dict[str, Any]) -> str:
    systems = [m for m in request["messages"] if m["role"] in ("system", "developer")]
    return _text(systems[0]["content"]) if systems else ""


def _tool_call(command: str) -> Any:
    from tests.fakes.llm_servers import FakeReply, FakeToolCall

    return FakeReply(text="", tool_calls=[FakeToolCall("bash", {"command": command}, id="t1")])


async def test_tool_call_block(tmp_path: Path) -> None:
    pi, hl = await _both("tool_call", tmp_path, "clean up", _tool_call("rm victim.txt"), "ok")
    # what ran and what it saw
    assert (
        pi.records
        == hl.records
        == [{"event": "tool_call", "toolName": "bash", "input": {"command": "rm victim.txt"}}]
    )
    # the command never ran
    assert (pi.workdir / "victim.txt").exists() and (hl.workdir / "victim.txt").exists()
    # the model is told why, in each agent's words
    seen = (_tool_message(pi.requests[1]), _tool_message(hl.requests[1]))
    assert all("no rm here" in text for text in seen), seen


async def test_tool_result_rewrite(tmp_path: Path) -> None:
    pi, hl = await _both("tool_result", tmp_path, "show", _tool_call("echo secret-42"), "ok")
    assert pi.records == hl.records
    assert pi.records[0]["toolName"] == "bash" and "secret-42" in pi.records[0]["text"]
    assert _tool_message(pi.requests[1]) == _tool_message(hl.requests[1]) == "REDACTED"


async def test_input_transform(tmp_path: Path) -> None:
    pi, hl = await _both("input", tmp_path, "?quick hello", "ok")
    assert pi.records == hl.records == [{"event": "input", "text": "?quick hello", "source": "rpc"}]
    assert _last_user(pi.requests[0]) == _last_user(hl.requests[0]) == "Respond briefly: hello"


async def test_before_agent_start_system_prompt(tmp_path: Path) -> None:
    pi, hl = await _both("before_agent_start", tmp_path, "bonjour", "ok")
    assert pi.records == hl.records == [{"event": "before_agent_start", "prompt": "bonjour"}]
    for run in (pi, hl):
        assert _system(run.requests[0]).endswith("RULE-42: answer in French.")


@pytest.mark.parametrize("agent", ["pi", "hookline", "pi+hookline"])
async def test_session_start_runs_once_before_the_first_prompt(agent: str, tmp_path: Path) -> None:
    run = await _run(agent, "session_start", tmp_path, "hi", ["ok"])
    assert run.records == [{"event": "session_start"}]


async def test_the_bridge_fails_closed_when_hookline_is_gone(tmp_path: Path) -> None:
    """A server that cannot start or dies: pi's tool calls are blocked, not let through."""
    home, work = tmp_path / "home", tmp_path / "work"
    home.mkdir()
    work.mkdir()
    (work / "victim.txt").write_text("keep me\n")
    with FakeOpenAIServer() as fake:
        fake.add(_tool_call("rm victim.txt"))
        fake.add_text("ok")
        hook = HERE / "extensions/rules.py"
        client = bridged_pi_agent(fake, home, work, hook=hook, command=["false"])
        async with client as rpc:
            await rpc.run("clean up")
        told = _tool_message(fake.requests[1])
    assert (work / "victim.txt").exists()
    assert "hookline" in told, told
