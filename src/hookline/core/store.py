"""``ctx.store``: small key-value state a hook keeps per session and per project.

A hook that counts a session's bash calls, or remembers an approval, must give
the same answer whichever process takes the next event (``hookline serve
--workers``, several machines, a restart). The state therefore lives in a
backend chosen by the environment variable ``HOOKLINE_STORE``, not in the
hook's module: unset or ``memory`` keeps it in this process (a dict with
expiry); ``redis://…`` or ``rediss://…`` keeps it on a Redis server
(``hookline.core.redis_store``, which imports redis-py on use only);
``unshared`` refuses every call: what ``hookline serve --workers N`` gives its
workers when no store was chosen, since a count split between processes would
let a budget through several times over.

Every key lives under ``hookline:{scope}:{id}:{key}``; ``scope`` is ``session``
or ``project``, ``id`` the session's id or the project's folder. The id and
the key are percent-escaped (no ``:``, ``*`` or control character reaches the
backend as such), so one session can neither read nor overwrite another's keys.
Values are JSON.

Each operation has a plain form (``get``, ``set``, ``incr``, ``delete``) for a
``def`` handler, which waits for the backend in the handler's thread, and an
``a``-prefixed awaitable form (``aget``, ``aset``, ``aincr``, ``adelete``) for
an ``async def`` handler, which leaves the event loop free while Redis answers
(the pair Django's cache API has). A backend that does not answer within its
timeout raises ``StoreError``: a hook failure, which blocks a tool call.
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, Protocol
from urllib.parse import quote, urlsplit

#: The environment variable naming the backend (``hookline serve --store`` sets it).
STORE_ENV = "HOOKLINE_STORE"
#: Longest key a hook may use, in characters.
MAX_KEY = 256
#: Longest value, in bytes of its JSON.
MAX_VALUE = 1 << 20
#: Longest expiry, in seconds (ten years).
MAX_TTL = 10 * 365 * 24 * 3600
#: ``incr`` counts in 64 bits, as Redis does.
INT64 = (-(2**63), 2**63 - 1)
#: Longer escaped ids are stored by their SHA-256 (a project folder can be long).
MAX_ID = 200

Scope = Literal["session", "project"]

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_INTEGER = re.compile(r"-?[0-9]+")


class StoreError(Exception):
    """The store could not do what a hook asked: the backend is down or slow, or the key
    holds what the operation cannot take (``incr`` on a text)."""


class StoreConfigError(ValueError):
    """``HOOKLINE_STORE`` names no backend hookline knows; raised at start-up."""


class StoreBackend(Protocol):
    """Strings under full keys, with expiry in seconds; ``StoreScope`` does the rest.

    ``incr`` adds ``amount`` to the integer under ``key`` (0 when absent) and, when
    it creates the key, gives it ``ttl``; an existing key keeps its expiry.
    """

    def get(self, key: str) -> str | None: ...
    def set(self, key: str, value: str, ttl: float | None) -> None: ...
    def incr(self, key: str, amount: int, ttl: float | None) -> int: ...
    def delete(self, key: str) -> bool: ...
    async def aget(self, key: str) -> str | None: ...
    async def aset(self, key: str, value: str, ttl: float | None) -> None: ...
    async def aincr(self, key: str, amount: int, ttl: float | None) -> int: ...
    async def adelete(self, key: str) -> bool: ...


class MemoryBackend:
    """The default backend: a dict in this process, each entry with its deadline.

    ``clock`` is injectable so tests move time instead of sleeping. Expired entries
    are dropped when read, and swept every ``_SWEEP`` writes so the dict stays
    bounded by what is live. A lock makes it safe for the agent's loop and the
    threads ``hookline serve`` runs hooks on.
    """

    _SWEEP = 1024

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._data: dict[str, tuple[str, float | None]] = {}
        self._lock = threading.Lock()
        self._writes = 0

    def get(self, key: str) -> str | None:
        with self._lock:
            return self._live(key)

    def set(self, key: str, value: str, ttl: float | None) -> None:
        with self._lock:
            self._write(key, value, self._deadline(ttl))

    def incr(self, key: str, amount: int, ttl: float | None) -> int:
        with self._lock:
            held = self._live(key)
            if held is None:
                total, deadline = amount, self._deadline(ttl)
            elif _INTEGER.fullmatch(held):
                total, deadline = int(held) + amount, self._data[key][1]
            else:
                raise StoreError(f"{_shown(key)} does not hold an integer")
            if not INT64[0] <= total <= INT64[1]:
                raise StoreError(f"{_shown(key)} would overflow 64 bits")
            self._write(key, str(total), deadline)
            return total

    def delete(self, key: str) -> bool:
        with self._lock:
            found = self._live(key) is not None
            self._data.pop(key, None)
            return found

    async def aget(self, key: str) -> str | None:
        return self.get(key)

    async def aset(self, key: str, value: str, ttl: float | None) -> None:
        self.set(key, value, ttl)

    async def aincr(self, key: str, amount: int, ttl: float | None) -> int:
        return self.incr(key, amount, ttl)

    async def adelete(self, key: str) -> bool:
        return self.delete(key)

    def ttl(self, key: str) -> float | None:
        """Seconds ``key`` has left (None: no expiry or no key); for tests, as Redis' TTL."""
        with self._lock:
            if self._live(key) is None:
                return None
            deadline = self._data[key][1]
            return None if deadline is None else deadline - self._clock()

    def _deadline(self, ttl: float | None) -> float | None:
        return None if ttl is None else self._clock() + ttl

    def _live(self, key: str) -> str | None:
        entry = self._data.get(key)
        if entry is None:
            return None
        value, deadline = entry
        if deadline is not None and deadline <= self._clock():
            del self._data[key]
            return None
        return value

    def _write(self, key: str, value: str, deadline: float | None) -> None:
        self._data[key] = (value, deadline)
        self._writes += 1
        if self._writes % self._SWEEP == 0:
            now = self._clock()
            for gone in [k for k, (_, d) in self._data.items() if d is not None and d <= now]:
                del self._data[gone]


#: The setting of a process that must not keep state of its own (one of several workers).
UNSHARED = "unshared"


class UnsharedBackend:
    """A store that refuses: each of several workers keeping its own would split a count
    between them (a budget of 3 lets 3 × N through), so a hook that uses it fails and its
    tool call is blocked, saying how to share the state."""

    _WHY = (
        "ctx.store is not shared between this service's workers: start `hookline serve` "
        "with --store redis://HOST:6379/0 (or --store memory for a store per worker)"
    )

    def get(self, key: str) -> str | None:
        raise StoreError(self._WHY)

    def set(self, key: str, value: str, ttl: float | None) -> None:
        raise StoreError(self._WHY)

    def incr(self, key: str, amount: int, ttl: float | None) -> int:
        raise StoreError(self._WHY)

    def delete(self, key: str) -> bool:
        raise StoreError(self._WHY)

    async def aget(self, key: str) -> str | None:
        raise StoreError(self._WHY)

    async def aset(self, key: str, value: str, ttl: float | None) -> None:
        raise StoreError(self._WHY)

    async def aincr(self, key: str, amount: int, ttl: float | None) -> int:
        raise StoreError(self._WHY)

    async def adelete(self, key: str) -> bool:
        raise StoreError(self._WHY)


@dataclass(frozen=True, slots=True)
class StoreScope:
    """One namespace (a session's, or a project's) of a backend: JSON values under keys
    that cannot leave it."""

    backend: StoreBackend
    prefix: str

    def get(self, key: str, default: Any = None) -> Any:
        """The value under ``key``, or ``default`` when there is none (or it expired)."""
        return _loaded(self.backend.get(self._key(key)), default)

    def set(self, key: str, value: Any, *, ttl: float | None = None) -> None:
        """Keep ``value`` (JSON-serialisable) under ``key``; ``ttl`` seconds, or for good."""
        self.backend.set(self._key(key), _dumped(value), _checked_ttl(ttl))

    def incr(self, key: str, amount: int = 1, *, ttl: float | None = None) -> int:
        """Add ``amount`` to the integer under ``key`` (0 when absent) and return the sum, in
        one step: two processes counting at once lose no count. ``ttl`` applies when this
        call creates the key (a window that starts with its first count)."""
        return self.backend.incr(self._key(key), _checked_amount(amount), _checked_ttl(ttl))

    def delete(self, key: str) -> bool:
        """Remove ``key``; True when it was there."""
        return self.backend.delete(self._key(key))

    async def aget(self, key: str, default: Any = None) -> Any:
        """``get`` for an ``async def`` handler: the loop runs while the backend answers."""
        return _loaded(await self.backend.aget(self._key(key)), default)

    async def aset(self, key: str, value: Any, *, ttl: float | None = None) -> None:
        """``set`` for an ``async def`` handler."""
        await self.backend.aset(self._key(key), _dumped(value), _checked_ttl(ttl))

    async def aincr(self, key: str, amount: int = 1, *, ttl: float | None = None) -> int:
        """``incr`` for an ``async def`` handler."""
        full = self._key(key)
        return await self.backend.aincr(full, _checked_amount(amount), _checked_ttl(ttl))

    async def adelete(self, key: str) -> bool:
        """``delete`` for an ``async def`` handler."""
        return await self.backend.adelete(self._key(key))

    def _key(self, key: str) -> str:
        return f"{self.prefix}:{_escaped_key(key)}"


class HookStore:
    """``ctx.store``: the session's scope and the project's, over one backend.

    ``session`` raises ``StoreError`` where the context has no session id (an
    input without ``session_id``): state kept under an empty id would be shared
    by every such caller.
    """

    __slots__ = ("_backend", "_project", "_session")

    def __init__(self, backend: StoreBackend, session_id: str, project: str) -> None:
        self._backend = backend
        self._session = session_id
        self._project = project

    @property
    def session(self) -> StoreScope:
        """Keys of this session only (the agent's session, or Claude Code's ``session_id``)."""
        if not self._session:
            raise StoreError("ctx.store.session: this event has no session id")
        return self._scope("session", self._session)

    @property
    def project(self) -> StoreScope:
        """Keys shared by every session in this project (its folder)."""
        if not self._project:
            raise StoreError("ctx.store.project: this event has no project folder")
        return self._scope("project", self._project)

    def _scope(self, scope: Scope, ident: str) -> StoreScope:
        """The namespace ``hookline:{scope}:{ident}``, ``ident`` escaped (private: a hook
        reaches its own session's and project's only)."""
        return StoreScope(self._backend, f"hookline:{scope}:{_escaped_id(ident)}")


# -- the backend this process uses --------------------------------------------------------

_backends: dict[str, StoreBackend] = {}
_backends_lock = threading.Lock()


def process_backend(environ: Mapping[str, str] = os.environ) -> StoreBackend:
    """The backend ``HOOKLINE_STORE`` names, one per value for the process (its memory,
    or its connection pool). Raises ``StoreConfigError`` for a value it cannot take."""
    setting = environ.get(STORE_ENV, "").strip() or "memory"
    with _backends_lock:
        found = _backends.get(setting)
        if found is None:
            found = _backends[setting] = open_backend(setting)
        return found


def open_backend(setting: str) -> StoreBackend:
    """A new backend for a ``HOOKLINE_STORE`` value."""
    kind = check_setting(setting)
    if kind == "memory":
        return MemoryBackend()
    if kind == "unshared":
        return UnsharedBackend()
    try:
        from hookline.core.redis_store import RedisBackend  # imports redis-py: only now

        return RedisBackend(setting)
    except ImportError:
        from hookline._extras import install_hint

        raise StoreConfigError(
            f"{STORE_ENV}={shown_url(setting)!r} needs redis-py: {install_hint('serve')}"
        ) from None
    except ValueError as exc:  # an option redis-py cannot take (``?socket_timeout=x``)
        raise StoreConfigError(f"{STORE_ENV}={shown_url(setting)!r}: {exc}") from None


def check_setting(setting: str) -> Literal["memory", "redis", "unshared"]:
    """Which backend ``setting`` names, or ``StoreConfigError`` saying what it may be."""
    if setting in ("", "memory"):
        return "memory"
    if setting == UNSHARED:
        return "unshared"
    try:
        parts = urlsplit(setting)
        named = parts.scheme in ("redis", "rediss") and bool(parts.hostname)
        _ = parts.port  # a port that is no number raises here
        _ = int(parts.path.strip("/") or 0)  # so does a database that is no number
    except ValueError:
        named = False
    if named:
        return "redis"
    raise StoreConfigError(
        f"{STORE_ENV}={shown_url(setting)!r}: expected memory, redis://HOST[:PORT][/DB], "
        f"rediss://HOST[:PORT][/DB] or {UNSHARED}"
    )


def shown_url(url: str) -> str:
    """``url`` without its password, for messages (a URL that cannot be read: as a scheme)."""
    try:
        parts = urlsplit(url)
        password = parts.password
    except ValueError:
        return url.split("//", 1)[0] + "//…" if "//" in url else url
    if password is None:
        return url
    netloc = parts.netloc.replace(f":{password}@", ":***@", 1)
    return parts._replace(netloc=netloc).geturl()


# -- keys and values ----------------------------------------------------------------------


def _escaped_key(key: str) -> str:
    """``key`` as it goes under its scope: refused when it is not text, empty, too long
    or holds a control character; ``:``, ``*``, ``%`` and the like percent-escaped."""
    if not isinstance(key, str):
        raise TypeError(f"a store key is a str, not {type(key).__name__}")
    if not key or len(key) > MAX_KEY:
        raise ValueError(f"a store key has 1 to {MAX_KEY} characters, not {len(key)}")
    if _CONTROL.search(key):
        raise ValueError(f"a store key holds no control characters: {key[:40]!r}")
    return quote(key, safe="")


def _escaped_id(ident: str) -> str:
    """A session id or project folder as one segment of a key; a long one by its digest
    (``#`` is escaped in every other id, so a digest is no id's escape)."""
    escaped = quote(ident, safe="")
    if len(escaped) <= MAX_ID:
        return escaped
    import hashlib  # OpenSSL's: loaded for a long id only

    return "#" + hashlib.sha256(ident.encode("utf-8", "surrogatepass")).hexdigest()


def _dumped(value: Any) -> str:
    try:
        text = json.dumps(value, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise TypeError(f"a store value must be JSON-serialisable: {exc}") from exc
    if len(text.encode()) > MAX_VALUE:
        raise ValueError(f"a store value is at most {MAX_VALUE} bytes of JSON")
    return text


def _loaded(text: str | None, default: Any) -> Any:
    if text is None:
        return default
    try:
        return json.loads(text)
    except ValueError as exc:  # written by something else than ctx.store
        raise StoreError(f"the stored value is not JSON: {exc}") from exc


def _checked_ttl(ttl: float | None) -> float | None:
    if ttl is None:
        return None
    if isinstance(ttl, bool) or not isinstance(ttl, int | float):
        raise TypeError(f"ttl is a number of seconds, not {type(ttl).__name__}")
    if not 0.001 <= ttl <= MAX_TTL:  # NaN included
        raise ValueError(f"ttl is from 0.001 to {MAX_TTL} seconds, not {ttl!r}")
    return float(ttl)


def _checked_amount(amount: int) -> int:
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise TypeError(f"incr adds an int, not {type(amount).__name__}")
    if not INT64[0] <= amount <= INT64[1]:
        raise ValueError("incr adds a 64-bit integer")
    return amount


def _shown(key: str) -> str:
    """A full key as said in an error: its scope's own key, unescaped."""
    return repr(key.rsplit(":", 1)[-1])
