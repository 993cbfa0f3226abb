"""uvicorn's httptools protocol with a bound on a request's head, in size and in time.

httptools keeps the request line and headers in memory however long they grow
(h11 has a bound of its own): ``BoundedHead`` answers 431 and closes the
connection once they pass ``MAX_HEAD`` bytes. Claude Code's are well under 2 KiB.

Nor does uvicorn time a head: a connection that never finishes one (or sends
nothing) would hold its descriptor for good, and enough of them leave none for
the next hook input, which then fails to connect and Claude Code runs the tool.
A head must be complete within ``HEAD_SECONDS`` of the connection, or of its
first byte after a keep-alive pause; then 408 and the connection is closed.
"""

from __future__ import annotations

import asyncio

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

#: The most a request's line and headers may take, in bytes.
MAX_HEAD = 64 * 1024
#: How long a request's line and headers may take to arrive, in seconds.
HEAD_SECONDS = 10.0


def _refusal(status: bytes, text: bytes) -> bytes:
    return (
        b"HTTP/1.1 "
        + status
        + b"\r\ncontent-type: text/plain\r\n"
        + f"content-length: {len(text)}\r\nconnection: close\r\n\r\n".encode()
        + text
    )


_TOO_LARGE = _refusal(
    b"431 Request Header Fields Too Large", b"the request's headers are too long\n"
)
_TOO_SLOW = _refusal(b"408 Request Timeout", b"the request's headers did not arrive in time\n")


class BoundedHead(HttpToolsProtocol):
    """Counts what arrives while a request's head is read; past ``MAX_HEAD`` bytes or
    ``HEAD_SECONDS``, refuses it.

    The bytes are counted after the parser has taken them, so a head and the start of
    its body arriving together are not mistaken for a long head.
    """

    _head = 0
    _in_head = True
    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._time_head()

    def connection_lost(self, exc: Exception | None) -> None:
        self._untime_head()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._in_head:
            self._time_head()
            self._head += len(data)
        super().data_received(data)
        if self._in_head and self._head > MAX_HEAD:
            self._refuse(_TOO_LARGE)

    def on_headers_complete(self) -> None:
        self._in_head = False
        self._untime_head()
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._in_head, self._head = True, 0  # the next head is timed from its first byte

    def _time_head(self) -> None:
        if self._deadline is None:
            self._deadline = self.loop.call_later(HEAD_SECONDS, self._late)

    def _untime_head(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _late(self) -> None:
        self._deadline = None
        if self._in_head:
            self._refuse(_TOO_SLOW)

    def _refuse(self, answer: bytes) -> None:
        if not self.transport.is_closing():
            self.transport.write(answer)
            self.transport.close()
