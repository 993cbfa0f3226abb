"""``ctx.store`` in the agent: keyed by the agent's session and its project folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from hookline.agent.setup import AgentOptions, SetupError, build_agent
from hookline.core.store import HookStore, process_backend

from .conftest import MakeAgent

COUNTER = """\
def register(pi):
    @pi.on("turn_start")
    def plain(event, ctx):
        ctx.store.session.incr("turns")

    @pi.on("turn_start")
    async def awaiting(event, ctx):
        await ctx.store.project.aincr("turns")
"""


async def test_hooks_keep_state_under_the_session_and_the_project(
    make_agent: MakeAgent, project: Path
) -> None:
    first = await make_agent(["one", "two"], hooks={"counter": COUNTER})
    await first.agent.prompt("a")
    await first.agent.prompt("b")
    second = await make_agent(["three"], hooks={"counter": COUNTER})
    await second.agent.prompt("c")
    ids = first.agent.session.get_session_id(), second.agent.session.get_session_id()
    assert ids[0] != ids[1]
    store = [HookStore(process_backend(), i, str(project)) for i in ids]
    assert [s.session.get("turns") for s in store] == [2, 1]
    assert store[0].project.get("turns") == 3  # both sessions count in the project's


async def test_an_unknown_store_setting_stops_the_start(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOOKLINE_STORE", "postgres://db/hooks")
    with pytest.raises(SetupError, match="HOOKLINE_STORE='postgres://db/hooks': expected memory"):
        await build_agent(AgentOptions(cwd=str(project), model="scripted"))
