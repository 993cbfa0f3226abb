"""pi's run semantics, side by side: the real pi with ``extensions/semantics.ts`` and
hookline with ``extensions/semantics.py``, on one scripted loopback model.

Each case runs both agents and compares what the handlers saw, the model
requests and the RPC lines that matter to the case. pi governed by the Python
hook through the bridge is left out: there pi runs the turns, so these are
pi's semantics by construction.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .agents import FakeOpenAIServer, hookline_agent, pi_agent

HERE = Path(__file__).parent


@dataclass
class Run:
    """What one agent did: the handlers' records, the RPC lines and the model requests."""

    records: list[dict[str, Any]]
    lines: list[dict[str, Any]]
    requests: list[dict[str, Any]]

    def conversation(self, call: int) -> list[tuple[str, str]]:
        """The model call's messages as (role, text), the system prompt left out."""
        messages = self.requests[call]["messages"]
        return [(m["role"], _text(m.get("content"))) for m in messages if m["role"] != "system"]

    def kinds(self, *wanted: str) -> list[dict[str, Any]]:
        return [x for x in self.lines if x["type"] in wanted]


async def _run(agent: str, case: str, tmp_path: Path, prompts: list[str], *replies: Any) -> Run:
    home, work = tmp_path / agent / "home", tmp_path / agent / "work"
    home.mkdir(parents=True)
    work.mkdir()
    record = tmp_path / agent / "record.jsonl"
    record.touch()
    env = {"CASE": case, "RECORD": str(record)}
    with FakeOpenAIServer() as fake:
        for reply in replies:
            fake.add_text(reply) if isinstance(reply, str) else fake.add(reply)
        if agent == "pi":
            client = pi_agent(fake, home, work, extension=HERE / "extensions/semantics.ts", env=env)
        else:
            hook = HERE / "extensions/semantics.py"
            client = hookline_agent(fake, home, work, hook=hook, env=env)
        async with client as rpc:
            for prompt in prompts:
                await rpc.run(prompt)
            while (await rpc.ok("get_state"))["isStreaming"]:
                pass
            lines = list(rpc.lines)
        requests = fake.requests
    records = [json.loads(x) for x in record.read_text().splitlines()]
    return Run(records, lines, requests)


async def _both(case: str, tmp_path: Path, prompts: list[str], *replies: Any) -> tuple[Run, Run]:
    pi = await _run("pi", case, tmp_path, prompts, *replies)
    hookline = await _run("hookline", case, tmp_path, prompts, *replies)
    return pi, hookline


def _tool_call(command: str) -> Any:
    from tests.fakes.llm_servers import FakeReply, FakeToolCall

    return FakeReply(text="", tool_calls=[FakeToolCall("bash", {"command": command}, id="t1")])


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    return "".join(part.get("text", "") for part in content or [])


async def test_send_user_message_at_agent_end_is_refused(tmp_path: Path) -> None:
    """The run is still ending in ``agent_end``: the agent is not idle, and a user message
    with no ``deliver_as`` is refused (an ``extension_error``), not a second run."""
    pi, hl = await _both("send_at_agent_end", tmp_path, ["hi"], "ok", "again")
    assert pi.records == hl.records == [{"event": "agent_end", "idle": False}]
    assert len(pi.requests) == len(hl.requests) == 1
    assert len(pi.kinds("agent_start")) == len(hl.kinds("agent_start")) == 1
    (pi_error,) = pi.kinds("extension_error")
    (hl_error,) = hl.kinds("extension_error")
    assert pi_error["event"] == hl_error["event"] == "send_user_message"
    # the same sentence; the hint names each API's own option
    assert pi_error["error"] == (
        "Agent is already processing. "
        "Specify streamingBehavior ('steer' or 'followUp') to queue the message."
    )
    assert hl_error["error"] == (
        "Agent is already processing. "
        "Specify deliver_as ('steer' or 'follow_up') to queue the message."
    )
    assert pi_error["extensionPath"] == hl_error["extensionPath"] == "<runtime>"


async def test_a_follow_up_from_tool_result_waits_for_the_final_answer(tmp_path: Path) -> None:
    """``follow_up`` lands when the agent would stop: after "Done.", in the same run."""
    tool, done = _tool_call("echo hi"), "Done."
    pi, hl = await _both("follow_up", tmp_path, ["go"], tool, done, "ok")
    assert len(pi.requests) == len(hl.requests) == 3
    assert (
        pi.conversation(1)
        == hl.conversation(1)
        == [
            ("user", "go"),
            ("assistant", ""),
            ("tool", "hi\n"),
        ]
    )
    assert (
        pi.conversation(2)
        == hl.conversation(2)
        == [
            *pi.conversation(1),
            ("assistant", "Done."),
            ("user", "after the answer"),
        ]
    )
    assert len(pi.kinds("agent_end")) == len(hl.kinds("agent_end")) == 1


async def test_a_slow_turn_end_does_not_hold_the_next_model_call(tmp_path: Path) -> None:
    """The next model call (its ``context``) goes out while ``turn_end`` still runs; the
    handler finishes, its error is reported, and ``agent_end`` comes after it."""
    pi, hl = await _both("slow_turn_end", tmp_path, ["go"], _tool_call("echo hi"), "fine")
    assert (
        pi.records
        == hl.records
        == [
            {"event": "context"},
            {"event": "turn_end", "turnIndex": 0, "phase": "start"},
            {"event": "context"},
            {"event": "turn_end", "turnIndex": 0, "phase": "done"},
            {"event": "turn_end", "turnIndex": 1, "phase": "start"},
            {"event": "turn_end", "turnIndex": 1, "phase": "done"},
            {"event": "agent_end"},
        ]
    )
    for run in (pi, hl):
        (error,) = run.kinds("extension_error")
        assert error["event"] == "turn_end" and "slow rule is broken" in error["error"]


async def test_turn_index_restarts_with_each_prompt(tmp_path: Path) -> None:
    replies = (_tool_call("echo hi"), "a", "b")
    pi, hl = await _both("turn_index", tmp_path, ["one", "two"], *replies)
    indices = [{"event": "turn_start", "turnIndex": i} for i in (0, 1, 0)]
    assert pi.records == hl.records == indices


async def test_a_dropped_tool_result_reads_no_result_provided(tmp_path: Path) -> None:
    """A ``context`` hook that drops a tool result: the call is answered for the API with
    pi's synthetic result."""
    pi, hl = await _both("drop_result", tmp_path, ["go"], _tool_call("echo hi"), "fine")
    assert (
        pi.conversation(1)
        == hl.conversation(1)
        == [
            ("user", "go"),
            ("assistant", ""),
            ("tool", "No result provided"),
        ]
    )
    for run in (pi, hl):
        (tool,) = [m for m in run.requests[1]["messages"] if m["role"] == "tool"]
        assert tool["tool_call_id"] == "t1"
