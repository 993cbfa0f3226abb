"""The proxy's HTTP/1.1 wire format: reading a proxy request defensively (size limits,
a malformed request is a ``BadRequest`` with its status, never a crash), rewriting an
absolute-URI request for the origin server, plain-text answers, and relaying bytes
both ways with half-close."""

from __future__ import annotations

import asyncio
import contextlib
import re
from dataclasses import dataclass

from hookline.sandbox.domains import canonical_host

HEAD_LIMIT = 64 * 1024  # request line and headers
_MAX_HEADERS = 100
_HEAD_TIMEOUT = 30.0  # a client that connects and says nothing
_CHUNK = 64 * 1024


class BadRequest(Exception):
    """A request the proxy will not serve; ``status`` is the answer's."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


@dataclass(slots=True)
class Request:
    method: str
    target: str
    version: str
    headers: list[tuple[str, str]]


async def read_request(reader: asyncio.StreamReader) -> Request:
    """The request line and headers (the body stays in ``reader``)."""
    try:
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), _HEAD_TIMEOUT)
    except asyncio.LimitOverrunError:
        raise BadRequest(431, "request header too large") from None
    except asyncio.IncompleteReadError as exc:
        if len(exc.partial) >= HEAD_LIMIT:
            raise BadRequest(431, "request header too large") from None
        raise BadRequest(400, "incomplete request") from None
    except ValueError:  # the limit was reached inside readuntil's buffer
        raise BadRequest(431, "request header too large") from None
    return _parse_head(head)


def response(status: int, body: str, *, blocked: bool = False) -> bytes:
    """A complete plain-text answer that closes the connection."""
    payload = (body.rstrip("\n") + "\n").encode("utf-8", "replace")
    lines = [
        f"HTTP/1.1 {status} {_REASONS.get(status, 'Error')}",
        "Content-Type: text/plain; charset=utf-8",
        f"Content-Length: {len(payload)}",
        "Connection: close",
    ]
    if blocked:
        lines.append("X-Proxy-Error: blocked-by-allowlist")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + payload


_REASONS = {
    400: "Bad Request",
    403: "Forbidden",
    431: "Request Header Fields Too Large",
    502: "Bad Gateway",
}
_TOKEN = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")


def _parse_head(head: bytes) -> Request:
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ")
    if len(parts) != 3 or not _TOKEN.fullmatch(parts[0]) or not parts[1]:
        raise BadRequest(400, "malformed request line")
    method, target, version = parts
    if version not in ("HTTP/1.1", "HTTP/1.0"):
        raise BadRequest(400, f"unsupported HTTP version {version[:20]!r}")
    headers: list[tuple[str, str]] = []
    for line in lines[1:]:
        if not line:
            continue
        name, sep, value = line.partition(":")
        if not sep or not _TOKEN.fullmatch(name):
            raise BadRequest(400, "malformed header line")
        headers.append((name, value.strip(" \t")))
    if len(headers) > _MAX_HEADERS:
        raise BadRequest(431, "too many header fields")
    return Request(method, target, version, headers)


def destination(request: Request) -> tuple[str, int]:
    """The canonical host and port the request is for."""
    if request.method == "CONNECT":
        authority = request.target
    else:
        scheme, sep, rest = request.target.partition("://")
        if not sep:
            raise BadRequest(
                400,
                "hookline sandbox proxy: only proxy requests are served here "
                "(CONNECT host:port, or an absolute http:// URL)",
            )
        if scheme.lower() != "http":
            raise BadRequest(400, f"the proxy forwards http:// URLs; use CONNECT for {scheme}")
        authority = re.split(r"[/?#]", rest, maxsplit=1)[0]
        if "@" in authority:
            raise BadRequest(400, "credentials in the URL are not forwarded")
    host, port = _split_authority(authority, default=None if request.method == "CONNECT" else 80)
    name = canonical_host(host)
    if name is None:
        raise BadRequest(400, f"not a host name: {host[:100]!r}")
    return name, port


def _split_authority(authority: str, default: int | None) -> tuple[str, int]:
    if authority.startswith("["):
        host, bracket, rest = authority[1:].partition("]")
        if not bracket or (rest and not rest.startswith(":")):
            raise BadRequest(400, "malformed IPv6 authority")
        port_text = rest[1:] if rest else ""
    else:
        host, colon, port_text = authority.rpartition(":")
        if not colon:
            host, port_text = authority, ""
    if not port_text:
        if default is None:
            raise BadRequest(400, "CONNECT needs host:port")
        return host, default
    if not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise BadRequest(400, f"bad port {port_text[:10]!r}")
    return host, int(port_text)


_HOP_BY_HOP = {"connection", "proxy-connection", "keep-alive", "proxy-authorization", "host"}


def origin_request(request: Request, host: str, port: int) -> bytes:
    """The request as the origin server expects it: origin-form target, ``Host`` from
    the URL (the one the decision was about), no proxy headers, ``Connection: close``
    (one request per connection; an upgrade keeps its ``Connection``)."""
    rest = request.target.partition("://")[2]
    start = min((i for i in (rest.find(c) for c in "/?#") if i >= 0), default=len(rest))
    path = rest[start:].split("#", 1)[0] or "/"
    if path.startswith("?"):
        path = "/" + path
    authority = f"[{host}]" if ":" in host else host
    if port != 80:
        authority += f":{port}"
    upgrade = any(name.lower() == "upgrade" for name, _ in request.headers)
    lines = [f"{request.method} {path} {request.version}", f"Host: {authority}"]
    for name, value in request.headers:
        lowered = name.lower()
        if lowered in _HOP_BY_HOP and not (upgrade and lowered == "connection"):
            continue
        lines.append(f"{name}: {value}")
    if not upgrade:
        lines.append("Connection: close")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Copy until end of stream, then pass the end on (half-close)."""
    try:
        while data := await reader.read(_CHUNK):
            writer.write(data)
            await writer.drain()
        if writer.can_write_eof():
            writer.write_eof()
    except (ConnectionError, OSError):
        writer.close()


async def tunnel(
    client_reader: asyncio.StreamReader,
    client_writer: asyncio.StreamWriter,
    upstream_reader: asyncio.StreamReader,
    upstream_writer: asyncio.StreamWriter,
) -> None:
    """Both directions, each ending on its own, until both have ended."""
    await asyncio.gather(
        _pipe(client_reader, upstream_writer), _pipe(upstream_reader, client_writer)
    )


async def forward(
    client_reader: asyncio.StreamReader,
    client_writer: asyncio.StreamWriter,
    upstream_reader: asyncio.StreamReader,
    upstream_writer: asyncio.StreamWriter,
) -> None:
    """One plain-HTTP exchange: the body goes up while the response comes down; the
    exchange is over when the server closes (it was asked to)."""
    upload = asyncio.ensure_future(_pipe(client_reader, upstream_writer))
    try:
        await _pipe(upstream_reader, client_writer)
    finally:
        upload.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await upload
