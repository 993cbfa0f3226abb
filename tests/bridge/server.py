"""`hookline serve --http` as a real process on a free port, with its stderr followed."""

from __future__ import annotations

import http.client
import json
import os
import signal
import ssl
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SERVE = [sys.executable, "-m", "hookline.cli", "serve"]


@dataclass
class Served:
    """A running server: its port, its process and every stderr line it wrote so far."""

    port: int
    proc: subprocess.Popen[str]
    lines: list[str] = field(default_factory=list)
    _said: threading.Condition = field(default_factory=threading.Condition)
    tls: ssl.SSLContext | None = None

    def follow(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            with self._said:
                self.lines.append(line)
                self._said.notify_all()
        with self._said:
            self.lines.append("")  # the end of stderr
            self._said.notify_all()

    def wait_for(self, text: str, count: int = 1, timeout: float = 60) -> list[str]:
        """Block until ``count`` stderr lines contain ``text``; those lines."""

        def found() -> list[str]:
            return [line for line in self.lines if text in line]

        with self._said:
            ok = self._said.wait_for(
                lambda: len(found()) >= count or (self.lines[-1:] == [""]), timeout
            )
            assert ok and len(found()) >= count, (text, "".join(self.lines)[-3000:])
            return found()

    def connect(self, timeout: float = 60) -> http.client.HTTPConnection:
        if self.tls is not None:
            return http.client.HTTPSConnection(
                "127.0.0.1", self.port, timeout=timeout, context=self.tls
            )
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        headers: dict[str, str] | None = None,
        conn: http.client.HTTPConnection | None = None,
    ) -> tuple[int, str]:
        own = conn is None
        conn = conn or self.connect()
        data = body if isinstance(body, bytes | None) else json.dumps(body).encode()
        conn.request(method, path, data, headers or {})
        response = conn.getresponse()
        text = response.read().decode()
        if own:
            conn.close()
        return response.status, text

    def post(self, path: str, body: Any, headers: dict[str, str] | None = None) -> Any:
        """POST ``body``; the JSON answer (asserting a 200)."""
        status, text = self.request("POST", path, body, headers)
        assert status == 200, (status, text)
        return json.loads(text)

    def signal(self, sig: signal.Signals) -> None:
        os.kill(self.proc.pid, sig)


@contextmanager
def serving(
    cwd: Path,
    *extra: str,
    env: dict[str, str] | None = None,
    tls: ssl.SSLContext | None = None,
) -> Iterator[Served]:
    """``hookline serve --http 127.0.0.1:0 EXTRA`` in ``cwd``, stopped at the end."""
    proc = subprocess.Popen(
        [*SERVE, "--http", "127.0.0.1:0", *extra],
        stderr=subprocess.PIPE,
        text=True,
        cwd=cwd,
        env=env,
    )
    try:
        assert proc.stderr is not None
        first = proc.stderr.readline()
        assert "listening on" in first, first + proc.stderr.read()
        served = Served(int(first.rsplit(":", 1)[1]), proc, [first], tls=tls)
        threading.Thread(target=served.follow, daemon=True).start()
        yield served
    finally:
        if proc.poll() is None:
            proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=30)


def pre(command: str, session: str = "s", cwd: str = "/tmp") -> dict[str, Any]:
    """A PreToolUse hook input for a bash ``command``."""
    return {
        "session_id": session,
        "cwd": cwd,
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "tool_use_id": "t",
    }


def decision(answer: dict[str, Any]) -> tuple[str, str]:
    """A PreToolUse answer's decision and reason (``("", "")``: no decision)."""
    specific = answer.get("hookSpecificOutput", {})
    return specific.get("permissionDecision", ""), specific.get("permissionDecisionReason", "")
