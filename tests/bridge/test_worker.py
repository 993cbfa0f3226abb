"""``AnswerWorker``: events queued on the hooks' thread run one at a time, in order; each
caller is answered within the deadline from its event's arrival (Claude Code runs the tool
when its own timeout passes first), and a stuck handler's thread is left for a new one."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path

from hookline.bridge.engine import load_bridge
from hookline.bridge.mapping import ClaudeAnswer
from hookline.bridge.metrics import claude_outcome
from hookline.bridge.worker import AnswerWorker

from .server import pre


def _worker(tmp_path: Path, seconds: float, warned: list[str]) -> AnswerWorker:
    hook = tmp_path / "empty.py"
    hook.write_text("def register(pi):\n    pass\n", encoding="utf-8")
    bridge = load_bridge([str(hook)], cwd=str(tmp_path), discover=False)
    return AnswerWorker(bridge, seconds, warned.append)


def test_events_behind_a_stuck_one_run_in_turn_or_are_denied_in_time(tmp_path: Path) -> None:
    warned: list[str] = []
    worker = _worker(tmp_path, 0.5, warned)
    release = threading.Event()
    ran: list[int] = []
    active = 0
    most = 0

    async def stuck() -> str:
        release.wait()  # blocks the hooks' thread, as a plain handler in a loop would
        return "late"

    def step(n: int) -> Callable[[], Awaitable[str]]:
        async def work() -> str:
            nonlocal active, most
            active += 1
            most = max(most, active)
            for _ in range(3):  # suspends: the next event must still wait its turn
                await asyncio.sleep(0)
            ran.append(n)
            active -= 1
            return f"answer {n}"

        return work

    async def drive() -> list[str]:
        first = asyncio.create_task(worker.run(stuck, lambda why: f"denied: {why}", "stuck"))
        await asyncio.sleep(0)  # queued first
        rest = [worker.run(step(n), lambda why: "late", f"e{n}") for n in (1, 2, 3)]
        answers = await asyncio.gather(first, *rest)
        release.set()  # the abandoned handler returns: what it says is dropped
        answers.append(await worker.run(step(4), lambda why: "late", "e4"))
        await worker.close()
        return answers

    answers = asyncio.run(drive())

    assert answers[0] == "denied: the hooks gave no answer within 0.5 s"
    # Queued behind the stuck one, each either ran on the new thread (in order, one at a
    # time) or was denied when its own deadline came first; none ran after its denial.
    for n, said in enumerate(answers[1:4], start=1):
        assert said in (f"answer {n}", "late"), said
        assert (said == f"answer {n}") == (n in ran)
    assert answers[4] == "answer 4" and ran == sorted(ran) and ran[-1] == 4 and most == 1
    assert worker.abandoned == 1
    assert len(warned) == 1 and "stuck" in warned[0] and "abandoned" in warned[0]


def test_a_handler_raising_system_exit_is_an_error_not_an_exit(tmp_path: Path) -> None:
    worker = _worker(tmp_path, 5.0, [])

    async def leaves() -> str:
        raise SystemExit(3)

    async def drive() -> str:
        try:
            return await worker.run(leaves, lambda why: "late", "exit")
        except RuntimeError as exc:
            return str(exc)
        finally:
            await worker.close()

    assert "SystemExit" in asyncio.run(drive())


def test_an_event_queued_on_a_loop_stuck_between_events_is_answered(tmp_path: Path) -> None:
    warned: list[str] = []
    worker = _worker(tmp_path, 0.5, warned)
    release = threading.Event()
    blocking = threading.Event()

    def blocker() -> None:
        blocking.set()
        release.wait()

    async def leaves_a_blocker() -> str:
        # Runs once this event is answered: the hooks' loop is then stuck with no event.
        asyncio.get_running_loop().call_soon(blocker)
        return "first"

    async def answers() -> str:
        return "second"

    async def drive() -> list[str]:
        said = [await worker.run(leaves_a_blocker, lambda why: "late", "first")]
        await asyncio.to_thread(blocking.wait)
        said.append(await worker.run(answers, lambda why: f"denied: {why}", "second"))
        release.set()
        said.append(await worker.run(answers, lambda why: "late", "third"))
        await worker.close()
        return said

    said = asyncio.run(drive())

    assert said == ["first", "denied: the hooks gave no answer within 0.5 s", "second"]
    assert worker.abandoned == 1 and "second" in warned[0]


def test_a_handler_cancelling_its_task_fails_its_event_only(tmp_path: Path) -> None:
    worker = _worker(tmp_path, 5.0, [])

    async def cancels() -> str:
        task = asyncio.current_task()
        assert task is not None
        task.cancel()
        await asyncio.sleep(0)
        return "not reached"

    async def answers() -> str:
        return "answered"

    async def drive() -> list[str]:
        async def one(work: Callable[[], Awaitable[str]]) -> str:
            try:
                return await worker.run(work, lambda why: "late", "e")
            except RuntimeError as exc:
                return str(exc)

        said = await asyncio.gather(one(cancels), one(answers), one(answers))
        await worker.close()
        return list(said)

    assert asyncio.run(drive()) == ["the hooks' task was cancelled", "answered", "answered"]


STUCK = """
import os, time

def register(pi):
    @pi.on("tool_call")
    def stuck(event, ctx):
        with open(STARTED, "a") as started:
            started.write("x")
        while not os.path.exists(RELEASE):
            time.sleep(0.01)
        return {"block": True, "reason": "released"}
"""


async def test_events_queued_behind_a_stuck_handler_are_denied_within_their_deadline(
    tmp_path: Path,
) -> None:
    started, release = tmp_path / "started", tmp_path / "release"
    hook = tmp_path / "stuck.py"
    source = STUCK.replace("STARTED", repr(str(started))).replace("RELEASE", repr(str(release)))
    hook.write_text(source)
    bridge = load_bridge([str(hook)], cwd=str(tmp_path), discover=False)
    warned: list[str] = []
    worker = AnswerWorker(bridge, 0.5, warned.append)
    try:
        answers: list[ClaudeAnswer] = await asyncio.gather(
            *(worker.answer(pre(f"rm {n}", cwd=str(tmp_path))) for n in range(4))
        )
    finally:
        release.touch()  # the abandoned threads return
    assert [claude_outcome(answer) for answer in answers] == ["deny"] * 4
    # Each queued event's deadline ran while it waited: at most the first (and one that
    # got the turn as its deadline came) reached the handler, not each in turn.
    assert len(started.read_text()) <= 2, started.read_text()
