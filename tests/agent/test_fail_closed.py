"""Hook failures inside the real agent: ``tool_call`` fails closed, the rest fail open."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hookline import ToolResultEvent
from hookline.core.messages import content_text

from .conftest import MakeAgent
from .helpers import texts

RAISES = """\
def register(pi):
    @pi.on("tool_call")
    async def broken(event, ctx):
        raise RuntimeError("policy service unreachable")
"""

INVALID = """\
def register(pi):
    @pi.on("tool_call")
    def typo(event, ctx):
        return {"blok": True}
"""


def write_then_answer(expect: str) -> list[dict[str, object]]:
    return [
        {
            "tool_calls": [
                {"name": "write", "arguments": {"path": "out.txt", "content": "x"}, "id": "w1"}
            ]
        },
        {"text": "The write was blocked.", "expect_tool_result_contains": expect},
    ]


@pytest.mark.parametrize(
    ("source", "reason"),
    [
        (RAISES, "RuntimeError: policy service unreachable"),
        (INVALID, "unknown result key 'blok' for tool_call — did you mean 'block'?"),
    ],
    ids=["raises", "invalid-result"],
)
async def test_a_failing_tool_call_hook_blocks_the_tool_and_the_agent_goes_on(
    make_agent: MakeAgent, project: Path, source: str, reason: str
) -> None:
    h = await make_agent(write_then_answer(reason), hooks={"policy": source})
    added = await h.agent.prompt("write out.txt")

    assert not (project / "out.txt").exists()
    result = added[2]
    assert result["role"] == "tool" and result["is_error"] is True
    text = content_text(result["content"])
    assert text.startswith(f"tool_call hook {h.hook_files['policy']} failed (")
    assert text.endswith("; the call is blocked")
    assert reason in text
    assert texts(added)[-1] == "The write was blocked."
    assert h.provider.remaining == 0
    assert h.events(ToolResultEvent) == []  # the tool never ran
    assert [(e.hook_path, e.event) for e in h.errors] == [
        (str(h.hook_files["policy"]), "tool_call")
    ]
    assert h.types()[-2:] == ["stop", "agent_end"]


LATER_HOOK = """\
CALLED = []


def register(pi):
    @pi.on("tool_call")
    def later(event, ctx):
        CALLED.append(event.tool_name)
"""


async def test_handlers_after_a_failing_one_are_not_asked(make_agent: MakeAgent) -> None:
    h = await make_agent(
        write_then_answer("policy service unreachable"),
        hooks={"policy": RAISES, "later": LATER_HOOK},
    )
    await h.agent.prompt("write out.txt")
    assert h.hook("later").CALLED == []


NOTIFICATION_FAILURES = """\
def register(pi):
    @pi.on("turn_start")
    def broken_turn(event, ctx):
        raise ValueError("turn hook bug")

    @pi.on("tool_result")
    def broken_result(event, ctx):
        raise KeyError("result hook bug")
"""


async def test_other_hooks_that_raise_are_reported_and_a_redaction_failure_withholds(
    make_agent: MakeAgent, project: Path
) -> None:
    (project / "a.txt").write_text("alpha")
    h = await make_agent(
        [
            {"tool_calls": [{"name": "read", "arguments": {"path": "a.txt"}}]},
            {"text": "it was withheld", "expect_tool_result_contains": "output was withheld"},
        ],
        hooks={"buggy": NOTIFICATION_FAILURES},
    )
    added = await h.agent.prompt("read it")

    # a failing tool_result hook fails closed: the output it may have redacted is withheld
    assert added[2]["is_error"] is True
    assert content_text(added[2]["content"]) == (
        f"tool_result hook {h.hook_files['buggy']} failed (KeyError: 'result hook bug'); "
        "the tool's output was withheld"
    )
    assert texts(added)[-1] == "it was withheld"
    assert [(e.event, e.error) for e in h.errors] == [
        ("turn_start", "ValueError: turn hook bug"),
        ("tool_result", "KeyError: 'result hook bug'; the tool's output was withheld"),
        ("turn_start", "ValueError: turn hook bug"),
    ]


RAISING_TOOL = """
import asyncio
import sys

from hookline import Tool


class Odd(BaseException):
    pass


RAISE = {raise_it!r}


def register(pi):
    async def execute(call_id, params, signal, on_update):
        exec(RAISE)

    pi.register_tool(Tool("explode", "raises", {{"type": "object"}}, execute))
"""


@pytest.mark.parametrize(
    "raise_it",
    [
        "sys.exit(7)",
        "raise KeyboardInterrupt",
        "raise asyncio.CancelledError",
        "raise GeneratorExit",
        "raise Odd('odd')",
    ],
)
async def test_a_hook_tool_that_raises_anything_is_an_error_result_not_an_exit(
    make_agent: MakeAgent, raise_it: str
) -> None:
    h = await make_agent(
        [{"tool_calls": [{"name": "explode", "arguments": {}}]}, "still here"],
        hooks={"exploding": RAISING_TOOL.format(raise_it=raise_it)},
    )
    added = await h.agent.prompt("go")
    results = [m for m in added if m["role"] == "tool"]
    assert results and results[0]["is_error"]
    assert added[-1]["role"] == "assistant"
    assert "still here" in str(added[-1]["content"])


SECRET_TOOL = """
from hookline import Tool, ToolError


def register(pi):
    async def execute(call_id, params, signal, on_update):
        raise ToolError("token sk-live-123 rejected", details={"token": "sk-live-123"})

    pi.register_tool(Tool("deploy", "deploys", {"type": "object"}, execute))

    @pi.on("tool_result")
    def redact(event, ctx):
        if event.is_error:
            return {"content": [{"type": "text", "text": "deploy failed (redacted)"}]}
"""


async def test_a_redacted_failure_keeps_nothing_of_the_original(make_agent: MakeAgent) -> None:
    h = await make_agent(
        [{"tool_calls": [{"name": "deploy", "arguments": {}}]}, "ok"],
        hooks={"secret": SECRET_TOOL},
    )
    added = await h.agent.prompt("deploy")
    (result,) = [m for m in added if m["role"] == "tool"]
    assert content_text(result["content"]) == "deploy failed (redacted)"
    assert result.get("details") is None
    assert "sk-live" not in json.dumps(h.entries())


async def test_abort_ends_the_run_without_a_nudge(make_agent: MakeAgent) -> None:
    """An aborted (empty) reply is not a too-short response: no ttsr, no extra turn."""
    import asyncio

    from hookline import EmptyReplyNudgeEvent

    h = await make_agent([{"text": "slow", "delay_ms": 5000}, "should not run"])
    run = asyncio.ensure_future(h.agent.prompt("go"))
    await asyncio.sleep(0.2)
    h.agent.abort()
    added = await asyncio.wait_for(run, 5)
    assert h.events(EmptyReplyNudgeEvent) == []
    assert [m["role"] for m in added] == ["user", "assistant"]
    assert added[-1].get("stop_reason") == "aborted"
