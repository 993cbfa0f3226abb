"""``Guard``: who may ask ``hookline serve --http``, judged from a request's headers.

A web page in the user's browser can reach a loopback port too, so a request
with an ``Origin`` header (browsers send one, Claude Code and pi do not) is
refused, and on loopback so is a ``Host`` that does not name it (DNS
rebinding). With tokens, every request but the health checks must carry
``Authorization: Bearer TOKEN`` naming one of them, compared in constant time;
several tokens let one be rotated out while the next is rolled in.
"""

from __future__ import annotations

import hmac
import ipaddress
from collections.abc import Iterable, Mapping, Sequence


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback addresses; hostnames are never trusted."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def request_headers(raw: Iterable[tuple[bytes, bytes]]) -> dict[str, str]:
    """ASGI headers by lower-case name; a repeated header's values joined with ``,`` (so a
    second ``Host`` or ``Authorization`` never passes for the first)."""
    headers: dict[str, str] = {}
    for name, value in raw:
        key, text = name.decode("latin-1").lower(), value.decode("latin-1")
        headers[key] = f"{headers[key]},{text}" if key in headers else text
    return headers


class Guard:
    """The refusals and the token check; ``remote``: bound beyond loopback (no Host check)."""

    def __init__(self, tokens: Sequence[str], remote: bool) -> None:
        self._expected = tuple(f"Bearer {token}".encode() for token in tokens if token)
        self.remote = remote

    @property
    def has_tokens(self) -> bool:
        return bool(self._expected)

    def refusal(self, headers: Mapping[str, str]) -> str:
        """Why a request that may come from a web page is refused (``""``: it is not)."""
        if "origin" in headers:
            return "requests from a web page (an Origin header) are refused\n"
        if self.remote:
            return ""
        host = _host_name(headers.get("host", "").lower())
        if not is_loopback(host):
            shown = headers.get("host", "")[:100] or "none"
            return (
                f"Host {shown!r} is not a loopback address: use http://127.0.0.1:PORT "
                "or http://localhost:PORT in the hook's url\n"
            )
        return ""

    def authorized(self, headers: Mapping[str, str]) -> bool:
        """Whether the bearer token names one of the tokens (always, without tokens).

        Every token is compared, in constant time, so the time taken does not say which
        one came close.
        """
        if not self._expected:
            return True
        given = headers.get("authorization", "").encode("latin-1")
        matched = False
        for expected in self._expected:
            matched |= hmac.compare_digest(given, expected)
        return matched


def _host_name(value: str) -> str:
    """The host of a ``Host`` header (``[::1]:80`` → ``::1``, ``localhost:80`` → ``localhost``)."""
    if value.startswith("["):
        return value[1:].partition("]")[0]
    return value.rpartition(":")[0] if value.count(":") == 1 else value
