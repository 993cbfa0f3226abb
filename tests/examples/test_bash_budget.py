"""``bash_budget.py``: a per-session count in ``ctx.store``, and an approval remembered there."""

from __future__ import annotations

from pathlib import Path

import pytest

from hookline.authoring import HookHarness
from hookline.core.host import EmptySession

from .harness import Example


class Session(EmptySession):
    """The session a test says the harness is in."""

    __slots__ = ("_cwd", "_id")

    def __init__(self, session_id: str, cwd: str) -> None:
        self._id, self._cwd = session_id, cwd

    def get_session_id(self) -> str:
        return self._id

    def get_cwd(self) -> str:
        return self._cwd


@pytest.fixture(autouse=True)
def small_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOOKLINE_BASH_BUDGET", "2")


def _in(harness: HookHarness, session: str, tmp_path: Path) -> HookHarness:
    harness.host.session_manager = Session(f"{tmp_path.name}-{session}", str(tmp_path))
    return harness


async def test_each_session_has_its_budget(example: Example, tmp_path: Path) -> None:
    one = _in(example("bash_budget"), "one", tmp_path)
    for _ in range(2):
        (await one.tool_call("bash", {"command": "ls"})).assert_allowed()
    (await one.tool_call("read", {"path": "x"})).assert_allowed()  # only bash counts
    third = await one.tool_call("bash", {"command": "ls"})
    third.assert_blocked("bash command 3 this hour; the budget is 2")
    other = _in(example("bash_budget"), "other", tmp_path)  # another process, another session
    (await other.tool_call("bash", {"command": "ls"})).assert_allowed()


async def test_a_lifted_budget_is_remembered(example: Example, tmp_path: Path) -> None:
    asked = _in(example("bash_budget", answers={"confirm": True}), "s", tmp_path)
    for _ in range(3):
        (await asked.tool_call("bash", {"command": "ls"})).assert_allowed()
    later = _in(example("bash_budget"), "s", tmp_path)  # no one to ask: the approval holds
    (await later.tool_call("bash", {"command": "ls"})).assert_allowed()
