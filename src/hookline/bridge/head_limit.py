"""uvicorn's httptools protocol with a bound on a request's head.

httptools keeps the request line and headers in memory however long they grow
(h11 has a bound of its own): ``BoundedHead`` answers 431 and closes the
connection once they pass ``MAX_HEAD`` bytes. Claude Code's are well under 2 KiB.
"""

from __future__ import annotations

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

#: The most a request's line and headers may take, in bytes.
MAX_HEAD = 64 * 1024

_BODY = b"the request's headers are too long\n"
_TOO_LARGE = (
    b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: text/plain\r\n"
    + f"content-length: {len(_BODY)}\r\nconnection: close\r\n\r\n".encode()
    + _BODY
)


class BoundedHead(HttpToolsProtocol):
    """Counts what arrives while a request's head is read; past ``MAX_HEAD``, refuses it.

    The bytes are counted after the parser has taken them, so a head and the start of
    its body arriving together are not mistaken for a long head.
    """

    _head = 0
    _in_head = True

    def data_received(self, data: bytes) -> None:
        if self._in_head:
            self._head += len(data)
        super().data_received(data)
        if self._in_head and self._head > MAX_HEAD and not self.transport.is_closing():
            self.transport.write(_TOO_LARGE)
            self.transport.close()

    def on_headers_complete(self) -> None:
        self._in_head = False
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._in_head, self._head = True, 0
