"""``idle_prompt``: once per answer, after the wait, only while the prompt waits untouched.

The notifier alone (a short real wait); ``test_hooks`` drives the app under tmux.
"""

from __future__ import annotations

import asyncio

import pytest

from hookline.modes.tui.idle import IDLE_SECONDS, IdleNotifier, idle_seconds


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def notifier(quiet: list[bool] | None = None) -> tuple[IdleNotifier, list[str], Clock]:
    sent: list[str] = []
    clock = Clock()

    async def notify() -> None:
        sent.append("idle_prompt")

    state = quiet if quiet is not None else [True]
    return IdleNotifier(0, lambda: state[0], notify, clock), sent, clock


async def _settled(idle: IdleNotifier) -> asyncio.Task[None]:
    """The armed wait, once it has run out (notified, or decided not to)."""
    timer = idle.timer
    assert timer is not None
    await asyncio.gather(timer, return_exceptions=True)
    return timer


async def test_an_answer_left_waiting_is_notified_once() -> None:
    idle, sent, _ = notifier()
    idle.answered()
    await _settled(idle)
    assert sent == ["idle_prompt"]
    assert idle.timer is None  # once per answer: nothing is armed again


async def test_nothing_before_the_first_answer() -> None:
    idle, sent, _ = notifier()
    assert idle.timer is None and sent == []


async def test_a_key_pressed_after_the_answer_means_the_user_is_here() -> None:
    idle, sent, clock = notifier()
    idle.answered()
    clock.now += 1
    idle.touched()
    await _settled(idle)
    assert sent == []
    clock.now += 1
    idle.answered()  # the next answer waits again
    await _settled(idle)
    assert sent == ["idle_prompt"]


async def test_a_dialog_or_running_work_is_not_an_idle_prompt() -> None:
    idle, sent, _ = notifier(quiet=[False])
    idle.answered()
    await _settled(idle)
    assert sent == []


async def test_cancel_stops_a_pending_notification() -> None:
    idle, sent, _ = notifier()
    idle.answered()
    timer = idle.timer
    idle.cancel()
    assert timer is not None and idle.timer is None
    await asyncio.gather(timer, return_exceptions=True)
    assert timer.cancelled() and sent == []


@pytest.mark.parametrize(
    ("value", "seconds"),
    [(None, IDLE_SECONDS), ("1500", 1.5), ("0", IDLE_SECONDS), ("soon", IDLE_SECONDS)],
)
def test_the_wait_is_claude_codes_minute_unless_set(value: str | None, seconds: float) -> None:
    environ = {} if value is None else {"HOOKLINE_IDLE_NOTIFY_MS": value}
    assert idle_seconds(environ) == seconds
