"""A denial names the hook that made it: the file of a blocking ``tool_call`` hook (a
failing one too) or of a denying ``permission_request`` hook; a hook cannot name another."""

from __future__ import annotations

from pathlib import Path

import pytest

from hookline import AgentEndEvent
from hookline.core.results import InvalidResultError, ToolCallResult, coerce_result

from .conftest import MakeAgent
from .test_pipeline import bash_then_answer

ALLOWS = """\
def register(pi):
    @pi.on("tool_call")
    def fine(event, ctx):
        return None
"""

BLOCKS = """\
from hookline import ToolCallResult

SHARED = ToolCallResult(block=True, reason="not today")
SHARED._hook_path = "/somewhere/else.py"  # a hook naming another: replaced by the runner


def register(pi):
    @pi.on("tool_call")
    def no(event, ctx):
        return SHARED
"""

RAISES = """\
def register(pi):
    @pi.on("tool_call")
    def broken(event, ctx):
        raise RuntimeError("boom")
"""

DENIES_REQUESTS = """\
def register(pi):
    @pi.on("permission_request")
    def deny(event, ctx):
        return {"decision": "deny", "reason": "not on my watch"}
"""


async def test_the_blocking_hook_is_named_not_the_ones_before_it(
    make_agent: MakeAgent, project: Path
) -> None:
    h = await make_agent(
        bash_then_answer("touch made.txt", "not today"), hooks={"fine": ALLOWS, "no": BLOCKS}
    )
    await h.agent.prompt("make a file")
    (denial,) = h.agent.denials
    assert (denial.source, denial.hook) == ("hook", str(h.hook_files["no"]))
    (end,) = h.events(AgentEndEvent)[-1:]
    assert end.denials[0]["hook"] == str(h.hook_files["no"])
    # the hook's own result object is left alone: it is returned again next time
    assert h.hook("no").SHARED.hook_path == "/somewhere/else.py"


async def test_a_failing_hook_that_blocks_is_named(make_agent: MakeAgent, project: Path) -> None:
    h = await make_agent(bash_then_answer("touch made.txt", "boom"), hooks={"broken": RAISES})
    await h.agent.prompt("make a file")
    (denial,) = h.agent.denials
    assert denial.hook == str(h.hook_files["broken"])


async def test_a_denying_permission_request_hook_is_named(
    make_agent: MakeAgent, project: Path
) -> None:
    h = await make_agent(
        bash_then_answer("touch made.txt", "not on my watch"),
        hooks={"deny": DENIES_REQUESTS},
        permission_mode="default",
    )
    await h.agent.prompt("make a file")
    (denial,) = h.agent.denials
    assert (denial.source, denial.hook) == ("permission_request", str(h.hook_files["deny"]))


async def test_a_rule_denial_names_no_hook(make_agent: MakeAgent, project: Path) -> None:
    h = await make_agent(
        bash_then_answer("touch made.txt", "denied by rule"),
        hooks={"fine": ALLOWS},
        claude_settings={"permissions": {"deny": ["Bash(touch:*)"]}},
        permission_mode="default",
    )
    await h.agent.prompt("make a file")
    (denial,) = h.agent.denials
    assert (denial.source, denial.hook) == ("rule", None)
    assert "hook" not in denial.to_dict()


@pytest.mark.parametrize("key", ["_hook_path", "hook_path", "hookPath"])
def test_a_handler_cannot_name_the_hook_itself(key: str) -> None:
    with pytest.raises(InvalidResultError):
        coerce_result("tool_call", {"block": True, key: "/somewhere/else.py"})
    assert ToolCallResult(block=True).hook_path is None
