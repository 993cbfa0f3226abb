"""``Guard``: who may ask ``hookline serve --http``, judged from a request's headers.

A web page in the user's browser can reach a loopback port too, so a request
with an ``Origin`` header (browsers send one, Claude Code and pi do not) is
refused, and on loopback so is a ``Host`` that does not name it (DNS
rebinding). With tokens, every request but the health checks must carry
``Authorization: Bearer TOKEN`` naming one of them, compared in constant time;
several tokens let one be rotated out while the next is rolled in. Tokens from a
file are read again on a reload, so a rotation needs no restart.
"""

from __future__ import annotations

import functools
import hmac
import ipaddress
from collections.abc import Iterable, Mapping, Sequence


@functools.lru_cache(maxsize=64)  # asked for every request, mostly of the same few hosts
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


class TokenFileError(ValueError):
    """A token file that cannot be read, or names no token."""


def read_token_file(path: str) -> list[str]:
    """The tokens in ``path``, one a line; blank lines and ``#`` comments are skipped (a
    note such as ``# old: …`` must not become a token), and so is a byte order mark."""
    try:
        with open(path, encoding="utf-8-sig") as lines:
            tokens = [token for line in lines if (token := line.strip()) and token[0] != "#"]
    except (OSError, UnicodeDecodeError) as exc:
        raise TokenFileError(f"--token-file {path}: {exc}") from None
    if not tokens:
        raise TokenFileError(f"--token-file {path}: no token in it")
    return tokens


class Guard:
    """The refusals and the token check; ``remote``: bound beyond loopback (no Host check).

    ``token_file``'s tokens are accepted beside ``tokens`` and read again by ``refresh``.
    """

    def __init__(self, tokens: Sequence[str], remote: bool, token_file: str | None = None) -> None:
        self._fixed = tuple(token for token in tokens if token)
        self._file = token_file
        self._expected = self._bearers(read_token_file(token_file) if token_file else [])
        self.remote = remote

    def refresh(self) -> str:
        """Read the token file again; what changed, or why the old tokens stay (a file
        that cannot be read or is empty never leaves the service open)."""
        if self._file is None:
            return ""
        try:
            self._expected = self._bearers(read_token_file(self._file))
        except TokenFileError as exc:
            return f"{exc}: the tokens read before stay"
        return "tokens read again"

    def _bearers(self, from_file: Sequence[str]) -> tuple[bytes, ...]:
        return tuple(f"Bearer {token}".encode() for token in (*self._fixed, *from_file))

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
    """The host of a ``Host`` header (``[::1]:80`` → ``::1``, ``localhost:80`` → ``localhost``);
    ``""`` for a value that is not ``HOST[:PORT]`` (``127.0.0.1:80@evil.example``), so
    nothing but a well-formed loopback name passes."""
    if value.startswith("["):
        host, closed, rest = value[1:].partition("]")
        if not closed:
            return ""
    else:
        host, colon, port = value.partition(":")
        rest = colon + port
    if rest and not (rest.startswith(":") and rest[1:].isascii() and rest[1:].isdigit()):
        return ""
    return host
