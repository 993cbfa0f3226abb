"""A loopback HTTP server answering JSON by route: OAuth endpoints and other small APIs.

with RouteServer() as server:
    server.route("POST", "/oauth/token", lambda req: (200, {"access_token": "a"}))
    ...  # point the code under test at server.url
    assert server.seen[0].form["grant_type"] == "refresh_token"
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self
from urllib.parse import parse_qsl


@dataclass
class Seen:
    """One request: method, path, lower-cased headers and the body as sent."""

    method: str
    path: str
    headers: dict[str, str]
    body: str

    @property
    def form(self) -> dict[str, str]:
        return dict(parse_qsl(self.body))

    @property
    def json(self) -> Any:
        return json.loads(self.body)


Answer = Callable[[Seen], tuple[int, Any]]


class RouteServer:
    """Answers each route with its function's ``(status, JSON)``; 404 for others."""

    def __init__(self) -> None:
        self.routes: dict[tuple[str, str], Answer] = {}
        self.seen: list[Seen] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def _answer(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length).decode() if length else ""
                headers = {k.lower(): v for k, v in self.headers.items()}
                seen = Seen(self.command, self.path, headers, body)
                server.seen.append(seen)
                answer = server.routes.get((self.command, self.path.split("?")[0]))
                status, data = answer(seen) if answer else (404, {"error": self.path})
                payload = json.dumps(data).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            do_GET = do_POST = _answer

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)

    def route(self, method: str, path: str, answer: Answer) -> None:
        self.routes[(method, path)] = answer

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def __enter__(self) -> Self:
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
