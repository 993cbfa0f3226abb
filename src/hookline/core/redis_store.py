"""``RedisBackend``: ``ctx.store`` on a Redis server, shared by every process that names it.

Loaded only when ``HOOKLINE_STORE`` is a ``redis://`` or ``rediss://`` URL, and
redis-py (the ``serve`` extra) only then. Plain calls use a blocking client,
``a``-calls an asyncio client of the running loop's own (an asyncio connection
belongs to one loop: the agent's, or the thread ``hookline serve`` runs hooks
on), from a pool of ``MAX_CONNECTIONS``. Every call is bounded by ``timeout``
seconds to connect and to answer, and retried once on a broken connection (a
restarted server), so a server that is down is a ``StoreError`` within about
twice ``timeout``, never a hang.
"""

from __future__ import annotations

import weakref
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

from hookline.core.store import StoreError, shown_url

if TYPE_CHECKING:
    import asyncio

T = TypeVar("T")

#: Seconds to connect, and to wait for each answer.
DEFAULT_TIMEOUT = 2.0
#: Connections an event loop opens at most; more calls at once wait (up to the timeout).
MAX_CONNECTIONS = 64


class RedisBackend:
    """The store's keys on the Redis server at ``url`` (URL query options such as
    ``socket_timeout`` override ``timeout``)."""

    def __init__(self, url: str, timeout: float = DEFAULT_TIMEOUT) -> None:
        import redis

        self.url = url
        self._options: dict[str, Any] = {
            "socket_timeout": timeout,
            "socket_connect_timeout": timeout,
            "decode_responses": True,
        }
        self._errors: tuple[type[Exception], ...] = (redis.RedisError,)
        # Typed ``Any``: redis-py's answers are ``str`` here (``decode_responses``), which
        # its annotations cannot say.
        self._sync: Any = redis.Redis.from_url(url, retry=_retry_once(), **self._options)
        self._async: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Any]
        self._async = weakref.WeakKeyDictionary()

    # -- plain -------------------------------------------------------------------------

    def get(self, key: str) -> str | None:
        value: str | None = self._call(key, lambda: self._sync.get(key))
        return value

    def set(self, key: str, value: str, ttl: float | None) -> None:
        self._call(key, lambda: self._sync.set(key, value, px=_ms(ttl)))

    def incr(self, key: str, amount: int, ttl: float | None) -> int:
        def run() -> Any:
            if ttl is None:
                return self._sync.incrby(key, amount)
            with self._sync.pipeline(transaction=True) as pipe:
                pipe.set(key, 0, nx=True, px=_ms(ttl))
                pipe.incrby(key, amount)
                return pipe.execute()[-1]

        return int(self._call(key, run))

    def delete(self, key: str) -> bool:
        return bool(self._call(key, lambda: self._sync.delete(key)))

    def ttl(self, key: str) -> float | None:
        """Seconds ``key`` has left as Redis counts them (None: no expiry or no key)."""
        left = self._call(key, lambda: self._sync.pttl(key))
        return None if left < 0 else left / 1000

    def close(self) -> None:
        """Close the blocking client's connections (the asyncio ones go with their loop)."""
        self._sync.close()

    async def aclose(self) -> None:
        """Close the running loop's asyncio connections (before that loop closes)."""
        import asyncio

        client = self._async.pop(asyncio.get_running_loop(), None)
        if client is not None:
            await client.aclose(close_connection_pool=True)

    # -- awaitable ---------------------------------------------------------------------

    async def aget(self, key: str) -> str | None:
        client = self._client()
        value: str | None = await self._acall(key, lambda: client.get(key))
        return value

    async def aset(self, key: str, value: str, ttl: float | None) -> None:
        client = self._client()
        await self._acall(key, lambda: client.set(key, value, px=_ms(ttl)))

    async def aincr(self, key: str, amount: int, ttl: float | None) -> int:
        client = self._client()

        async def run() -> Any:
            if ttl is None:
                return await client.incrby(key, amount)
            async with client.pipeline(transaction=True) as pipe:
                pipe.set(key, 0, nx=True, px=_ms(ttl))
                pipe.incrby(key, amount)
                return (await pipe.execute())[-1]

        return int(await self._acall(key, run))

    async def adelete(self, key: str) -> bool:
        client = self._client()
        return bool(await self._acall(key, lambda: client.delete(key)))

    # -- helpers -----------------------------------------------------------------------

    def _client(self) -> Any:
        """The running loop's asyncio client (made on its first call there)."""
        import asyncio

        import redis.asyncio

        loop = asyncio.get_running_loop()
        client = self._async.get(loop)
        if client is None:
            pool = redis.asyncio.BlockingConnectionPool.from_url(
                self.url,
                max_connections=MAX_CONNECTIONS,
                timeout=self._options["socket_timeout"],
                retry=_retry_once(asyncio=True),
                **self._options,
            )
            client = redis.asyncio.Redis(connection_pool=pool)
            self._async[loop] = client
        return client

    def _call(self, key: str, run: Callable[[], T]) -> T:
        try:
            return run()
        except self._errors as exc:
            raise self._failure(key, exc) from exc

    async def _acall(self, key: str, run: Callable[[], Awaitable[T]]) -> T:
        try:
            return await run()
        except self._errors as exc:
            raise self._failure(key, exc) from exc

    def _failure(self, key: str, exc: Exception) -> StoreError:
        import redis

        if isinstance(exc, redis.ResponseError):
            said = str(exc)
            if "not an integer" in said:
                return StoreError(f"{key.rsplit(':', 1)[-1]!r} does not hold an integer")
            return StoreError(f"the store refused: {said}")
        where = shown_url(self.url)
        return StoreError(f"the store at {where} did not answer ({type(exc).__name__}: {exc})")


def _retry_once(*, asyncio: bool = False) -> Any:
    """One retry at once: a pooled connection the server closed (a restart) is redialled."""
    from redis.backoff import NoBackoff

    if asyncio:
        from redis.asyncio.retry import Retry as AsyncRetry

        return AsyncRetry(NoBackoff(), 1)
    from redis.retry import Retry

    return Retry(NoBackoff(), 1)


def _ms(ttl: float | None) -> int | None:
    return None if ttl is None else max(1, round(ttl * 1000))
