"""A target project for shell lines that try to walk around the rules, judged by effect.

The project denies ``Bash(rm *)``, ``Bash(curl *)``, ``Read(./secrets/**)`` and
``Edit(.env)`` and allows ``Bash(ls *)``. A line may try to delete ``v``, write
``.env``, reach a loopback server with curl, or — where only ``ls`` is allowed —
create ``X``. After the line ran, :meth:`Target.assert_untouched` checks the
disk and the server: nothing happened.

Lines use ``{url}`` for the server (each line gets its own path on it).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from .helpers import run_agent

RULES = {
    "permissions": {
        "deny": ["Bash(rm *)", "Bash(curl *)", "Read(./secrets/**)", "Edit(.env)"],
        "allow": ["Bash(ls *)"],
    }
}
ENV_TEXT = "API_KEY=keep-me\n"
SECRET = "TOPSECRET-91c2"
CLI = [sys.executable, "-m", "hookline.cli"]


class Loopback:
    """An HTTP server on 127.0.0.1 that records every path it is asked for."""

    def __init__(self) -> None:
        hits: list[str] = []

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                hits.append(self.path)
                self.send_response(200)
                self.end_headers()
                self.wfile.write(b"reached\n")

            def log_message(self, format: str, *args: object) -> None:
                return

        self.hits = hits
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def url(self, tag: str) -> str:
        return f"http://127.0.0.1:{self.port}/{tag}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture(scope="module")
def loopback() -> Iterator[Loopback]:
    server = Loopback()
    yield server
    server.close()


@dataclass
class Target:
    project: Path
    server: Loopback
    tag: str

    @property
    def url(self) -> str:
        return self.server.url(self.tag)

    def line(self, template: str) -> str:
        return template.replace("{url}", self.url)

    async def run(self, template: str, mode: str) -> str:
        """Run one line through the agent (built as the CLI builds it); the tool result."""
        results = await run_agent(
            self.project, [("bash", {"command": self.line(template)})], mode=mode
        )
        return results[0].text if results else ""

    def run_cli(self, template: str, mode: str) -> str:
        """Run one line through the real ``hookline --mode json`` process; its stdout."""
        return self.run_cli_call("bash", {"command": self.line(template)}, mode)

    def run_cli_call(self, tool: str, args: dict[str, object], mode: str) -> str:
        """One call of any tool through ``hookline --mode json``; its stdout."""
        script = self.project.parent / "cli-script.json"
        call = {"name": tool, "arguments": args}
        script.write_text(json.dumps({"turns": [{"tool_calls": [call]}, "done"]}))
        argv = [*CLI, "--mode", "json", "-p", "go", "--no-session", "--trust-project"]
        argv += ["--model", f"scripted:{script}", "--permission-mode", mode]
        argv += ["--cwd", str(self.project)]
        done = subprocess.run(
            argv, capture_output=True, text=True, timeout=60, env=os.environ.copy(), check=False
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    def assert_untouched(self, mode: str, shown: str = "") -> None:
        project = self.project
        assert (project / "v").exists(), "v was deleted"
        assert (project / ".env").read_text() == ENV_TEXT, ".env was written"
        assert not any(self.tag in hit for hit in self.server.hits), "the server was reached"
        assert SECRET not in shown, "the secret was shown"
        if mode != "bypassPermissions":  # only ``ls`` is allowed there: nothing else runs
            assert not (project / "X").exists(), "X was created"


def make_target(tmp_path: Path, server: Loopback) -> Target:
    project = tmp_path / "project"
    (project / "secrets").mkdir(parents=True)
    (project / "sub").mkdir()
    (project / "v").write_text("victim\n")
    (project / ".env").write_text(ENV_TEXT)
    (project / "secrets" / "key").write_text(f"KEY={SECRET}\n")
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps(RULES))
    return Target(project, server, tmp_path.name)


@pytest.fixture
def target(tmp_path: Path, loopback: Loopback) -> Target:
    return make_target(tmp_path, loopback)
