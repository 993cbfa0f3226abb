"""``ctx.store``: the same test bodies against the in-process backend and a real Redis.

Time is moved, never waited for: the memory backend's clock is injected, and on
Redis each key's own TTL is shortened by what "passed" (``Backend.passes``).
"""

from __future__ import annotations

import asyncio
import math
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from hookline.core.store import (
    MAX_KEY,
    MAX_VALUE,
    HookStore,
    MemoryBackend,
    StoreBackend,
    StoreConfigError,
    StoreError,
    check_setting,
    open_backend,
    process_backend,
)
from tests.redis_server import RedisServer


@dataclass
class Backend:
    """A backend under test and how to make ``seconds`` pass for its keys."""

    store: Any  # MemoryBackend | RedisBackend: both have ``ttl(key)``
    now: list[float]

    def passes(self, seconds: float) -> None:
        if isinstance(self.store, MemoryBackend):
            self.now[0] += seconds
            return
        client = self.store._sync
        for key in client.scan_iter("hookline:*"):
            left = client.pttl(key)
            if left > 0:
                rest = left - round(seconds * 1000)
                client.delete(key) if rest <= 0 else client.pexpire(key, rest)

    async def aclose(self) -> None:
        """Close this loop's connections, if the backend has any."""
        if not isinstance(self.store, MemoryBackend):
            await self.store.aclose()

    def hooks(self, session: str = "s1", project: str = "/srv/project") -> HookStore:
        return HookStore(self.store, session, project)


@pytest.fixture(params=["memory", "redis"])
def backend(request: pytest.FixtureRequest) -> Iterator[Backend]:
    now = [1000.0]
    if request.param == "memory":
        yield Backend(MemoryBackend(clock=lambda: now[0]), now)
        return
    from hookline.core.redis_store import RedisBackend

    server: RedisServer = request.getfixturevalue("redis_server")
    redis = RedisBackend(server.url)
    try:
        yield Backend(redis, now)
    finally:
        redis.close()


# -- values -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value", [{"a": [1, 2.5, None, True]}, ["x"], "text é ✓", 0, -7, 1.25, None, False, ""]
)
def test_values_come_back_as_they_were_set(backend: Backend, value: Any) -> None:
    scope = backend.hooks().session
    scope.set("k", value)
    assert scope.get("k", "missing") == value


def test_a_missing_key_is_the_default(backend: Backend) -> None:
    scope = backend.hooks().session
    assert scope.get("nothing") is None
    assert scope.get("nothing", 3) == 3
    assert scope.delete("nothing") is False


@pytest.mark.parametrize("value", [object(), {1, 2}, math.nan, math.inf, b"bytes"])
def test_values_that_are_not_json_are_refused(backend: Backend, value: Any) -> None:
    with pytest.raises(TypeError, match="JSON"):
        backend.hooks().session.set("k", value)
    assert backend.hooks().session.get("k") is None


def test_a_huge_value_is_refused(backend: Backend) -> None:
    with pytest.raises(ValueError, match="at most"):
        backend.hooks().session.set("k", "x" * MAX_VALUE)


def test_delete_removes_a_key(backend: Backend) -> None:
    scope = backend.hooks().session
    scope.set("k", 1)
    assert scope.delete("k") is True
    assert scope.get("k") is None


# -- counting ----------------------------------------------------------------------------


def test_incr_counts_from_zero_and_takes_amounts(backend: Backend) -> None:
    scope = backend.hooks().session
    assert scope.incr("n") == 1
    assert scope.incr("n", 5) == 6
    assert scope.incr("n", -10) == -4
    assert scope.get("n") == -4
    scope.set("m", 41)
    assert scope.incr("m") == 42


def test_incr_on_what_is_no_integer_is_a_store_error(backend: Backend) -> None:
    scope = backend.hooks().session
    scope.set("t", "ten")
    with pytest.raises(StoreError, match="integer"):
        scope.incr("t")
    scope.set("f", 1.5)
    with pytest.raises(StoreError, match="integer"):
        scope.incr("f")
    assert scope.get("t") == "ten"


def test_incr_refuses_to_overflow_64_bits(backend: Backend) -> None:
    scope = backend.hooks().session
    scope.set("big", 2**63 - 1)
    with pytest.raises(StoreError):
        scope.incr("big")
    with pytest.raises(ValueError, match="64-bit"):
        scope.incr("other", 2**63)
    with pytest.raises(TypeError):
        scope.incr("other", True)
    with pytest.raises(TypeError):
        scope.incr("other", 1.5)  # type: ignore[arg-type]


def test_threads_counting_at_once_lose_no_count(backend: Backend) -> None:
    scope = backend.hooks().session

    def count() -> None:
        for _ in range(200):
            scope.incr("n")

    threads = [threading.Thread(target=count) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert scope.get("n") == 800


# -- expiry ------------------------------------------------------------------------------


def test_a_value_set_with_ttl_expires_then(backend: Backend) -> None:
    scope = backend.hooks().session
    scope.set("k", "v", ttl=10)
    assert 0 < backend.store.ttl("hookline:session:s1:k") <= 10
    backend.passes(9)
    assert scope.get("k") == "v"
    backend.passes(2)
    assert scope.get("k") is None


def test_setting_without_ttl_keeps_for_good(backend: Backend) -> None:
    scope = backend.hooks().session
    scope.set("k", "old", ttl=5)
    scope.set("k", "new")
    backend.passes(3600)
    assert scope.get("k") == "new"
    assert backend.store.ttl("hookline:session:s1:k") is None


def test_incr_ttl_is_a_window_from_the_first_count(backend: Backend) -> None:
    scope = backend.hooks().session
    assert scope.incr("n", ttl=10) == 1
    backend.passes(6)
    assert scope.incr("n", ttl=10) == 2  # the window is not pushed on
    backend.passes(5)
    assert scope.get("n") is None
    assert scope.incr("n", ttl=10) == 1


@pytest.mark.parametrize("ttl", [0, -1, 0.0001, math.nan, math.inf, 10**12])
def test_ttls_out_of_range_are_refused(backend: Backend, ttl: float) -> None:
    with pytest.raises(ValueError, match="ttl"):
        backend.hooks().session.set("k", 1, ttl=ttl)
    with pytest.raises(ValueError, match="ttl"):
        backend.hooks().session.incr("k", ttl=ttl)


@pytest.mark.parametrize("ttl", [True, "5", [5]])
def test_ttls_that_are_not_numbers_are_refused(backend: Backend, ttl: Any) -> None:
    with pytest.raises(TypeError, match="ttl"):
        backend.hooks().session.set("k", 1, ttl=ttl)


# -- isolation ---------------------------------------------------------------------------


def test_sessions_and_projects_do_not_see_each_other(backend: Backend) -> None:
    one, other = backend.hooks("s1", "/a"), backend.hooks("s2", "/a")
    elsewhere = backend.hooks("s1", "/b")
    one.session.set("k", "s1's")
    one.project.set("k", "a's")
    assert other.session.get("k") is None
    assert other.project.get("k") == "a's"  # same project, another session
    assert elsewhere.project.get("k") is None
    assert elsewhere.session.get("k") == "s1's"  # a session id is one session
    assert one.session.incr("n") == 1 and other.session.incr("n") == 1


@pytest.mark.parametrize(
    ("session", "key", "other_session", "other_key"),
    [
        ("a:b", "c", "a", "b:c"),  # the separator in an id or a key
        ("a", "b:c", "a:b", "c"),
        ("*", "k", "s1", "k"),  # a pattern is a plain id
        ("s1", "*", "s1", "k"),
        ("s1%3Ak", "x", "s1:k", "x"),  # an escape in an id is not the escaped text's
        ("s1\r\nSET x y", "k", "s1", "k"),  # the wire protocol's line break
        ("project:s1", "k", "s1", "k"),
    ],
)
def test_no_id_or_key_reaches_another_namespace(
    backend: Backend, session: str, key: str, other_session: str, other_key: str
) -> None:
    backend.hooks(other_session).session.set(other_key, "theirs")
    backend.hooks(other_session).project.set(other_key, "project's")
    mine = backend.hooks(session).session
    assert mine.get(key) is None
    mine.set(key, "mine")
    assert backend.hooks(other_session).session.get(other_key) == "theirs"
    assert backend.hooks(other_session).project.get(other_key) == "project's"


def test_keys_are_namespaced_and_escaped(backend: Backend) -> None:
    backend.hooks("a:b\n", "/srv/x").session.set("k*:%", 1)
    backend.hooks("a:b\n", "/srv/x").project.set("k", 2)
    assert backend.store.get("hookline:session:a%3Ab%0A:k%2A%3A%25") == "1"
    assert backend.store.get("hookline:project:%2Fsrv%2Fx:k") == "2"


def test_huge_ids_are_digested_and_stay_apart(backend: Backend) -> None:
    long_one, long_two = "x" * 10_000 + "1", "x" * 10_000 + "2"
    backend.hooks(long_one).session.set("k", 1)
    assert backend.hooks(long_two).session.get("k") is None
    assert backend.hooks(long_one).session.get("k") == 1


@pytest.mark.parametrize(
    ("key", "error"),
    [
        ("", ValueError),
        ("x" * (MAX_KEY + 1), ValueError),
        ("line\nbreak", ValueError),
        ("nul\x00", ValueError),
        ("esc\x1b[2J", ValueError),
        (7, TypeError),
        (None, TypeError),
    ],
)
def test_bad_keys_are_refused_in_every_operation(backend: Backend, key: Any, error: type) -> None:
    scope = backend.hooks().session
    for call in (
        lambda: scope.get(key),
        lambda: scope.set(key, 1),
        lambda: scope.incr(key),
        lambda: scope.delete(key),
    ):
        with pytest.raises(error):
            call()


def test_a_context_without_a_session_id_has_no_session_scope(backend: Backend) -> None:
    hooks = HookStore(backend.store, "", "/srv/project")
    with pytest.raises(StoreError, match="no session id"):
        hooks.session.get("k")
    hooks.project.set("k", 1)
    with pytest.raises(StoreError, match="no project"):
        HookStore(backend.store, "s1", "").project.get("k")


# -- the awaitable forms -------------------------------------------------------------------


async def test_the_awaitable_forms_do_the_same(backend: Backend) -> None:
    scope = backend.hooks().session
    await scope.aset("k", {"v": 1}, ttl=10)
    assert await scope.aget("k") == {"v": 1}
    assert scope.get("k") == {"v": 1}  # the same keys as the plain forms
    assert await scope.aincr("n") == 1
    assert await scope.aincr("n", 2, ttl=5) == 3
    assert scope.incr("n") == 4
    assert await scope.adelete("k") is True
    assert await scope.aget("k", "gone") == "gone"
    with pytest.raises(ValueError):
        await scope.aget("bad\nkey")
    await scope.aset("t", "text")
    with pytest.raises(StoreError, match="integer"):
        await scope.aincr("t")
    await backend.aclose()


async def test_awaitable_counts_from_many_tasks_add_up(backend: Backend) -> None:
    scope = backend.hooks().session
    await asyncio.gather(*(scope.aincr("n") for _ in range(300)))
    assert await scope.aget("n") == 300
    await backend.aclose()


def test_each_event_loop_gets_its_own_connection(backend: Backend) -> None:
    scope = backend.hooks().session

    async def count() -> None:
        await scope.aincr("n")
        await backend.aclose()

    for _ in range(3):  # the serve worker's loop is replaced after a stuck handler
        asyncio.run(count())
    assert scope.get("n") == 3


# -- which backend -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("setting", "kind"),
    [("", "memory"), ("memory", "memory"), ("redis://h", "redis"), ("rediss://h:1/2", "redis")],
)
def test_the_setting_names_the_backend(setting: str, kind: str) -> None:
    assert check_setting(setting) == kind


@pytest.mark.parametrize(
    "setting",
    [
        "redis",
        "redis://",
        "http://h:6379",
        "Memory",
        "memcached://h",
        "/tmp/x",
        "redis://h:port",
        "redis://h/db",
        "redis://[::1",
        "redis://h/0?socket_timeout=soon",
    ],
)
def test_an_unknown_setting_is_a_config_error(setting: str) -> None:
    with pytest.raises(StoreConfigError, match="HOOKLINE_STORE"):
        open_backend(setting)


def test_the_error_hides_a_password() -> None:
    with pytest.raises(StoreConfigError) as caught:
        check_setting("redi://user:hunter2@h:1")
    assert "hunter2" not in str(caught.value)


def test_one_backend_per_setting_for_the_process() -> None:
    first = process_backend({})
    assert isinstance(first, MemoryBackend)
    assert process_backend({"HOOKLINE_STORE": "memory "}) is process_backend({})
    redis: StoreBackend = process_backend({"HOOKLINE_STORE": "redis://127.0.0.1:1"})
    assert type(redis).__name__ == "RedisBackend"
    assert process_backend({"HOOKLINE_STORE": "redis://127.0.0.1:1"}) is redis
