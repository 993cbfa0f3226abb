"""The same rule as a pi extension (TypeScript) and as a hookline hook (Python), compared.

Each case runs one prompt on both agents against the same scripted loopback
model and compares what ran, what the handler saw, and what the model
received next.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from .agents import FakeOpenAIServer, hookline_agent, pi_agent

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
    with FakeOpenAIServer() as fake:
        for reply in replies:
            fake.add(reply) if not isinstance(reply, str) else fake.add_text(reply)
        if agent == "pi":
            client = pi_agent(fake, home, work, extension=HERE / "extensions/rules.ts", env=env)
        else:
            hook = HERE / "extensions/rules.py"
            client = hookline_agent(fake, home, work, hook=hook, env=env)
        async with client as rpc:
            await rpc.run(prompt)
        requests = fake.requests
    records = [json.loads(x) for x in record.read_text().splitlines()]
    return Run(records, requests, work)


async def _both(case: str, tmp_path: Path, prompt: str, *replies: Any) -> tuple[Run, Run]:
    return (
        await _run("pi", case, tmp_path, prompt, list(replies)),
        await _run("hookline", case, tmp_path, prompt, list(replies)),
    )


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
    from fakes.llm_servers import FakeReply, FakeToolCall

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


@pytest.mark.parametrize("agent", ["pi", "hookline"])
async def test_session_start_runs_once_before_the_first_prompt(agent: str, tmp_path: Path) -> None:
    run = await _run(agent, "session_start", tmp_path, "hi", ["ok"])
    assert run.records == [{"event": "session_start"}]
