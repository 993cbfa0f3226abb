"""A settings file using the current hook types and fields, end to end with the scripted model:
an ``http`` hook on a loopback server, an ``if``-guarded deny hook, an exec-form hook, and a
SessionStart hook exporting through ``CLAUDE_ENV_FILE``."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from .conftest import MakeAgent
from .helpers import texts


@pytest.fixture
def loopback() -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """A loopback server that records each POST and answers with plain text context."""
    seen: list[dict[str, Any]] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            seen.append({"headers": dict(self.headers.items()), "body": json.loads(body)})
            reply = b"Reminder from the team server: run the linter."
            self.send_response(200)
            self.send_header("Content-Length", str(len(reply)))
            self.end_headers()
            self.wfile.write(reply)

        def log_message(self, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_port}", seen
    finally:
        httpd.shutdown()
        httpd.server_close()


def bash(command: str, call_id: str) -> dict[str, Any]:
    return {"tool_calls": [{"name": "bash", "arguments": {"command": command}, "id": call_id}]}


async def test_current_hook_types_end_to_end(
    make_agent: MakeAgent,
    tmp_path: Path,
    loopback: tuple[str, list[dict[str, Any]]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url, seen = loopback
    monkeypatch.setenv("TEAM_TOKEN", "t0ken")
    log = tmp_path / "post.log"
    append = f"import sys; open({str(log)!r}, 'a').write(sys.stdin.read() + chr(10))"
    settings = {
        "allowedHttpHookUrls": [f"{url}/*"],
        "hooks": {
            "SessionStart": [
                {
                    "matcher": "startup",
                    "hooks": [
                        {
                            "type": "command",
                            "command": 'echo "export TOOLCHAIN=stable" >> "$CLAUDE_ENV_FILE"',
                        }
                    ],
                }
            ],
            "UserPromptSubmit": [
                {
                    "hooks": [
                        {
                            "type": "http",
                            "url": f"{url}/prompt",
                            "headers": {"Authorization": "Bearer $TEAM_TOKEN"},
                            "allowedEnvVars": ["TEAM_TOKEN"],
                            "timeout": 10,
                        }
                    ]
                }
            ],
            "PreToolUse": [
                {
                    "matcher": "Bash",
                    "hooks": [
                        {
                            "type": "command",
                            "if": "Bash(rm *)",
                            "command": "echo 'rm is not allowed here' >&2; exit 2",
                            "statusMessage": "Checking for rm",
                        }
                    ],
                }
            ],
            "PostToolUse": [
                {
                    "matcher": "Bash",
                    "hooks": [{"type": "command", "command": "python3", "args": ["-c", append]}],
                }
            ],
        },
    }
    h = await make_agent(
        [
            bash("echo start && rm -rf build", "t1"),
            bash('echo "toolchain=$TOOLCHAIN"', "t2"),
            "done",
        ],
        claude_settings=settings,
    )
    added = await h.agent.prompt("clean up")

    outputs = [t for m, t in zip(added, texts(added), strict=True) if m["role"] == "tool"]
    assert "rm is not allowed here" in outputs[0]  # the if-guarded hook saw the hidden rm
    assert "toolchain=stable" in outputs[1]  # the SessionStart export reached bash
    # The http hook got the prompt with the allowed token; its body reached the model.
    ((request),) = seen
    assert request["body"]["hook_event_name"] == "UserPromptSubmit"
    assert request["body"]["prompt"] == "clean up"
    assert request["headers"]["Authorization"] == "Bearer t0ken"
    first_call = "\n".join(texts(h.seen_by_model(0)))
    assert "run the linter" in first_call
    # The exec-form PostToolUse hook ran once: only the call that was not blocked ran.
    (entry,) = [json.loads(line) for line in log.read_text().splitlines() if line]
    assert entry["tool_input"]["command"] == 'echo "toolchain=$TOOLCHAIN"'
