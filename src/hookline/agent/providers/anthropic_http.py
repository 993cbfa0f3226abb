"""The Messages API spoken over ``httpx2``: one streamed POST, its events, its errors.

The ``anthropic`` SDK took about a second to import (its pydantic models), all of
it on the path to the first request; a streamed call needs only a POST and the
server-sent events of the answer, which ``httpx2`` (a dependency) reads in a
fraction of that. What the SDK did that the provider relied on is kept: the
same headers and base URL, its timeouts, its proxies and certificates from the
environment, and its errors, mapped here to the ``ProviderError`` messages the
provider always gave. Retrying stays in ``complete_with_retry`` (the SDK's own
retries were off), which reads ``transient`` and ``retry_after`` from them.
"""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any

from hookline._version import __version__
from hookline.agent.provider import ProviderError
from hookline.agent.providers._common import is_transient_status, retry_after_seconds
from hookline.agent.providers.sdk_import import SdkImport

if TYPE_CHECKING:
    import httpx2

API_KEY_ENV = "ANTHROPIC_API_KEY"
#: A bearer token instead of an API key (a gateway's), sent as ``Authorization``.
AUTH_TOKEN_ENV = "ANTHROPIC_AUTH_TOKEN"
BASE_URL_ENV = "ANTHROPIC_BASE_URL"
DEFAULT_BASE_URL = "https://api.anthropic.com"
#: The Messages API version the request and event shapes here follow.
API_VERSION = "2023-06-01"
#: The SDK's: ten minutes for a whole answer, five seconds to connect.
TIMEOUT = 600.0
CONNECT_TIMEOUT = 5.0
#: In-stream ``event: error`` arrives on an HTTP 200; these give it the status it stands for.
_ERROR_TYPE_STATUS = {"overloaded_error": 529, "api_error": 500, "rate_limit_error": 429}
_TIMED_OUT = (
    "Request timed out or interrupted. This could be due to a network timeout, dropped "
    "connection, or request cancellation. See "
    "https://docs.anthropic.com/en/api/errors#long-requests for more details."
)


@dataclass(frozen=True, slots=True)
class Credentials:
    """An API key (``x-api-key``) or a bearer token (``Authorization``): the key wins, as in
    the SDK."""

    api_key: str | None = None
    auth_token: str | None = None

    @classmethod
    def find(cls, api_key: str | None, model: str) -> Credentials:
        """``api_key``, else ``ANTHROPIC_API_KEY``, else ``ANTHROPIC_AUTH_TOKEN``; neither is a
        ``ProviderError`` that names the variable to set."""
        key = api_key or os.environ.get(API_KEY_ENV)
        if key:
            return cls(api_key=key)
        token = os.environ.get(AUTH_TOKEN_ENV)
        if token:
            return cls(auth_token=token)
        raise ProviderError(
            f"anthropic:{model} needs an API key: set the {API_KEY_ENV} environment variable "
            f"(or {AUTH_TOKEN_ENV} for a bearer token)",
            transient=False,
        )

    def headers(self) -> dict[str, str]:
        if self.api_key:
            return {"x-api-key": self.api_key}
        return {"authorization": f"Bearer {self.auth_token}"}


def messages_url(base_url: str | None) -> str:
    """``POST`` target: ``base_url`` (else ``ANTHROPIC_BASE_URL``, else the API's) joined with
    ``/v1/messages``, a path in the base URL kept, as the SDK joins them."""
    base = base_url or os.environ.get(BASE_URL_ENV) or DEFAULT_BASE_URL
    return base.rstrip("/") + "/v1/messages"


class MessagesApi:
    """``POST /v1/messages`` with ``stream: true``, on one pooled ``httpx2`` client.

    ``http`` is ``httpx2`` being imported (in a thread while the terminal app starts);
    the client is built at the first request, with the SDK's timeouts, and
    proxies and certificates from the environment as the SDK's were. ``headers`` are
    sent over the ones here (a gateway's ``authorization``, say).
    """

    def __init__(
        self,
        url: str,
        credentials: Credentials,
        http: SdkImport,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        self.url = url
        self._headers = {
            **credentials.headers(),
            "anthropic-version": API_VERSION,
            "content-type": "application/json",
            "accept": "text/event-stream",
            "user-agent": f"hookline/{__version__}",
            **{k.lower(): v for k, v in (headers or {}).items()},
        }
        self._http = http
        self._client: httpx2.AsyncClient | None = None

    def _pool(self, http: ModuleType) -> httpx2.AsyncClient:
        """The client (``http`` is the ``httpx2`` module), built at the first request; the
        CA bundle is loaded only when a connection may need it (``may_use_tls``)."""
        if self._client is None:
            timeout = http.Timeout(TIMEOUT, connect=CONNECT_TIMEOUT)
            self._client = http.AsyncClient(timeout=timeout, verify=may_use_tls(self.url))
        return self._client

    async def aclose(self) -> None:
        """Close the pooled connections."""
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    @asynccontextmanager
    async def stream(self, body: Mapping[str, Any]) -> AsyncIterator[EventStream]:
        """The answer's ``EventStream`` once its status is in; an HTTP error, an in-stream
        ``error`` event or a broken connection (also while the events are read) is raised
        as the ``ProviderError`` it stands for."""
        httpx2 = await self._http.loaded()
        client = self._pool(httpx2)
        content = json.dumps(body).encode()
        try:
            async with client.stream("POST", self.url, content=content, headers=self._headers) as r:
                if not r.is_success:
                    await r.aread()
                    raise status_error(r.status_code, r.text, r.headers)
                yield EventStream(r)
        except httpx2.TimeoutException as exc:
            raise connection_error(_TIMED_OUT) from exc
        except httpx2.SSEError as exc:  # a 200 that is not an event stream: no retry mends it
            raise ProviderError(f"anthropic error: {exc}") from exc
        except httpx2.RequestError as exc:  # the connection, its transport or its decoding
            raise connection_error("Connection error.", str(exc)) from exc


def may_use_tls(url: str) -> bool:
    """Whether a client that posts only to ``url`` (redirects are not followed) may open a
    TLS connection: for an https URL, or through a proxy from the environment, which
    httpx2 would route it through. A plain http:// URL without one (a local gateway)
    never does: its client skips loading the CA bundle, the costliest step of the first
    request after the imports."""
    from urllib.request import getproxies

    if not url.lower().startswith("http://"):
        return True
    proxies = getproxies()
    return any(proxies.get(scheme) for scheme in ("http", "https", "all"))


class EventStream:
    """The server-sent events of one answer, as the JSON objects they carry."""

    def __init__(self, response: httpx2.Response) -> None:
        self.response = response

    @property
    def status_code(self) -> int:
        return self.response.status_code

    @property
    def headers(self) -> dict[str, str]:
        return dict(self.response.headers)

    async def __aiter__(self) -> AsyncIterator[dict[str, Any]]:
        """Each event's data; ``ping`` and empty events are skipped, an ``error`` event is
        raised as the ``ProviderError`` its type stands for."""
        import httpx2

        async for sse in httpx2.EventSource(self.response):
            if sse.event == "ping" or not sse.data:
                continue
            if sse.event == "error":
                raise stream_error(sse.data, self.response.headers)
            try:
                data = json.loads(sse.data)
            except ValueError:
                raise ProviderError(
                    f"anthropic error: an event that is not JSON: {sse.data[:200]}"
                ) from None
            if isinstance(data, dict):
                yield data


def connection_error(reason: str, detail: str = "") -> ProviderError:
    """A request that got no complete answer (the SDK's ``reason``): worth a retry."""
    text = f"anthropic connection error: {reason}"
    return ProviderError(f"{text} ({detail})" if detail else text, transient=True)


def status_error(status: int, text: str, headers: Mapping[str, str]) -> ProviderError:
    """An HTTP error answer as the provider's error: the API's error type and message, the
    key to check on 401/403, transient for 408/409/429/5xx, the server's ``retry-after``."""
    body = _json_or_text(text.strip())
    if isinstance(body, str):
        fallback = body or f"Error code: {status}"
    else:
        fallback = f"Error code: {status} - {body}"
    return _api_error(status, body, fallback, headers)


def stream_error(data: str, headers: Mapping[str, str]) -> ProviderError:
    """An ``event: error`` in a 200 stream: its type gives the status it stands for
    (``overloaded_error`` is a 529) and whether a retry may help."""
    body = _json_or_text(data)
    return _api_error(None, body, str(body) if body else "Error code: 200", headers)


def _api_error(
    status: int | None, body: object, fallback: str, headers: Mapping[str, str]
) -> ProviderError:
    error = body.get("error") if isinstance(body, dict) else None
    kind = error.get("type") if isinstance(error, dict) else None
    kind = kind if isinstance(kind, str) else None
    message = error.get("message") if isinstance(error, dict) else None
    detail = message if isinstance(message, str) and message else fallback
    if status is None or status < 400:
        status = _ERROR_TYPE_STATUS.get(kind or "")
    text = f"anthropic error {status or ''} {kind or ''}: {detail}".replace("  ", " ")
    if status in (401, 403):
        text += f" (check {API_KEY_ENV})"
    transient = is_transient_status(status) or kind in _ERROR_TYPE_STATUS
    retry_after = retry_after_seconds(headers)
    return ProviderError(text, transient=transient, status=status, retry_after=retry_after)


def _json_or_text(text: str) -> object:
    try:
        return json.loads(text)
    except ValueError:
        return text
