"""complete_with_retry: backoff, callbacks, non-transient errors, abort while waiting."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from hookline.agent.provider import ModelRequest, ProviderError
from hookline.agent.providers import ScriptedProvider, complete_with_retry
from hookline.agent.providers.retry import retry_delay
from hookline.core.messages import user_message

OVERLOADED = {"error": {"message": "overloaded", "transient": True, "status": 529}}
BAD_KEY = {"error": {"message": "bad key", "transient": False, "status": 401}}


def request(signal: asyncio.Event | None = None) -> ModelRequest:
    return ModelRequest("s", [user_message("q")], signal=signal)


def no_jitter(delay: float) -> float:
    return 0.0


class Recorder:
    """Collects callback calls and sleeps; sync callbacks, to show both kinds work."""

    def __init__(self) -> None:
        self.events: list[tuple[Any, ...]] = []
        self.sleeps: list[float] = []

    def start(self, attempt: int, max_attempts: int, delay_ms: int, error: str) -> None:
        self.events.append(("start", attempt, max_attempts, delay_ms, error))

    def end(self, success: bool, attempt: int, final_error: str | None) -> None:
        self.events.append(("end", success, attempt, final_error))

    async def sleep(self, delay: float) -> None:
        self.sleeps.append(delay)

    async def run(self, provider: ScriptedProvider, **kw: Any) -> Any:
        return await complete_with_retry(
            provider,
            kw.pop("req", None) or request(),
            on_retry_start=self.start,
            on_retry_end=self.end,
            sleep=kw.pop("sleep", self.sleep),
            jitter=kw.pop("jitter", no_jitter),
            **kw,
        )


async def test_success_first_time_calls_no_callbacks() -> None:
    rec = Recorder()
    msg = await rec.run(ScriptedProvider.from_turns(["hi"]))
    assert msg["content"][0]["text"] == "hi"
    assert rec.events == [] and rec.sleeps == []


async def test_transient_errors_back_off_exponentially() -> None:
    rec = Recorder()
    provider = ScriptedProvider.from_turns([OVERLOADED, OVERLOADED, OVERLOADED, "ok"])
    msg = await rec.run(provider, max_attempts=4, base_delay=0.25)
    assert msg["content"][0]["text"] == "ok"
    assert rec.sleeps == [0.25, 0.5, 1.0]
    assert rec.events == [
        ("start", 2, 4, 250, "overloaded"),
        ("start", 3, 4, 500, "overloaded"),
        ("start", 4, 4, 1000, "overloaded"),
        ("end", True, 4, None),
    ]


async def test_gives_up_after_max_attempts() -> None:
    rec = Recorder()
    provider = ScriptedProvider.from_turns([OVERLOADED] * 3 + ["never"])
    with pytest.raises(ProviderError, match="overloaded"):
        await rec.run(provider)
    assert [e[0] for e in rec.events] == ["start", "start", "end"]
    assert rec.events[-1] == ("end", False, 3, "overloaded")
    assert provider.remaining == 1


async def test_delay_is_capped() -> None:
    rec = Recorder()
    provider = ScriptedProvider.from_turns([OVERLOADED] * 3 + ["ok"])
    await rec.run(provider, max_attempts=4, base_delay=10, max_delay=15)
    assert rec.sleeps == [10, 15, 15]


async def test_non_transient_error_is_raised_at_once() -> None:
    rec = Recorder()
    with pytest.raises(ProviderError, match="bad key"):
        await rec.run(ScriptedProvider.from_turns([BAD_KEY, "never"]))
    assert rec.events == [] and rec.sleeps == []


async def test_non_transient_error_during_a_retry_ends_the_sequence() -> None:
    rec = Recorder()
    with pytest.raises(ProviderError, match="bad key"):
        await rec.run(ScriptedProvider.from_turns([OVERLOADED, BAD_KEY]))
    assert rec.events[-1] == ("end", False, 2, "bad key")


async def test_max_attempts_one_means_no_retry() -> None:
    rec = Recorder()
    with pytest.raises(ProviderError):
        await rec.run(ScriptedProvider.from_turns([OVERLOADED, "ok"]), max_attempts=1)
    assert rec.events == []


async def test_abort_while_waiting_returns_aborted() -> None:
    rec = Recorder()
    signal = asyncio.Event()
    asyncio.get_running_loop().call_later(0.05, signal.set)
    provider = ScriptedProvider.from_turns([OVERLOADED, "never"])
    msg = await rec.run(provider, req=request(signal), base_delay=30, sleep=asyncio.sleep)
    assert msg["stop_reason"] == "aborted"
    assert rec.events[-1] == ("end", False, 1, "aborted")
    assert provider.remaining == 1


async def test_without_callbacks_uses_real_sleep() -> None:
    provider = ScriptedProvider.from_turns([OVERLOADED, "ok"])
    msg = await complete_with_retry(provider, request(), base_delay=0.01)
    assert msg["content"][0]["text"] == "ok"  # type: ignore[typeddict-item]


async def test_jitter_adds_up_to_a_quarter_of_the_backoff() -> None:
    """Many agents hitting one rate limit must not retry in step."""
    delays = {retry_delay(2, None, 1.0, 30.0) for _ in range(200)}
    assert all(2.0 <= d <= 2.5 for d in delays)
    assert len(delays) > 1  # random, not a fixed offset


async def test_retry_after_is_a_floor_and_the_cap_still_holds() -> None:
    rec = Recorder()
    late = {"error": {"message": "rate limited", "status": 429}}
    provider = ScriptedProvider.from_turns([late, "ok"])
    # The scripted provider has no headers; a ProviderError with retry_after comes from
    # the SDK providers (tested against the loopback servers); here the rule itself:
    assert retry_delay(1, 7.0, 0.25, 30.0, no_jitter) == 7.0
    assert retry_delay(1, 0.1, 0.25, 30.0, no_jitter) == 0.25
    assert retry_delay(1, 120.0, 0.25, 30.0, no_jitter) == 30.0
    msg = await rec.run(provider, base_delay=0.25)
    assert msg["content"][0]["text"] == "ok" and rec.sleeps == [0.25]


async def test_cancel_retry_ends_the_wait_and_the_error_stands() -> None:
    """RPC's ``abort_retry``: the wait ends at once, no retry is made, the run is not
    aborted (the error is raised for the caller to record)."""
    cancel = asyncio.Event()
    events: list[tuple[Any, ...]] = []

    def start(attempt: int, max_attempts: int, delay_ms: int, error: str) -> None:
        events.append(("start", attempt))
        cancel.set()  # the client heard of the wait and cancels it

    def end(success: bool, attempt: int, final_error: str | None) -> None:
        events.append(("end", success, attempt, final_error))

    provider = ScriptedProvider.from_turns([OVERLOADED, "never"])
    with pytest.raises(ProviderError, match="overloaded"):
        # a 30 s wait: only the cancel lets this finish within the test's timeout
        await complete_with_retry(
            provider, request(), base_delay=30, on_retry_start=start, on_retry_end=end,
            cancel_retry=cancel,
        )  # fmt: skip
    assert events == [("start", 2), ("end", False, 1, "Retry cancelled")]
    assert provider.remaining == 1


async def test_a_cancel_before_the_wait_does_not_stop_a_later_retry() -> None:
    """Like pi, ``abort_retry`` with no wait in progress has no effect on later ones."""
    rec = Recorder()
    cancel = asyncio.Event()
    cancel.set()
    msg = await rec.run(ScriptedProvider.from_turns([OVERLOADED, "ok"]), cancel_retry=cancel)
    assert msg["content"][0]["text"] == "ok"
    assert rec.events[-1] == ("end", True, 2, None)
