"""`make demo`: a scripted session in print mode through the example hooks.

No API key and no network: the model is a script (examples/demo/script.yaml).
It copies examples/demo/project to a temporary folder, then runs

    hookline -p ... --model scripted:... --hook <example hooks> --trust-project --verbose

and shows what each hook did: a blocked `rm -rf`, a redacted secret (read from
the file, and from an MCP server the project's `.mcp.json` starts — its tool
goes through the same hooks), a Claude-format settings hook blocking `curl | sh`
beside the Python hooks, an `http` settings hook receiving every PostToolUse on
a loopback server, a SessionStart `compact` hook restoring context after the
compaction a hook asks for at the end, a chained command refused although an allow rule covers its
first part, a broken hook in the project's hooks folder reported with its path
(the others load; a broken ``--hook`` path would stop the run), and the final answer.
"""

from __future__ import annotations

import http.server
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import ClassVar

HERE = Path(__file__).resolve().parent
HOOKS = HERE / "hooks"


class _AuditReceiver(http.server.BaseHTTPRequestHandler):
    """The demo's `http` hook endpoint: records each PostToolUse input it is sent."""

    events: ClassVar[list[dict[str, object]]] = []

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("content-length") or 0))
        type(self).events.append(json.loads(body or b"{}"))
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", "2")
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: the demo prints its own summary."""


def main() -> int:
    receiver = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _AuditReceiver)
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    try:
        return _run(receiver.server_address[1])
    finally:
        receiver.shutdown()


def _run(audit_port: int) -> int:
    with tempfile.TemporaryDirectory(prefix="hookline-demo-") as tmp:
        project = Path(tmp) / "project"
        shutil.copytree(HERE / "demo" / "project", project)
        # found in the project's folder: reported, and the run goes on without it
        (project / ".hookline" / "hooks").mkdir(parents=True)
        shutil.copy(HERE / "demo" / "broken_hook.py", project / ".hookline" / "hooks")
        settings = project / ".claude" / "settings.json"
        settings.write_text(settings.read_text().replace("{{AUDIT_PORT}}", str(audit_port)))
        env = {
            **os.environ,
            "HOOKLINE_HOME": str(Path(tmp) / "home"),
            # .mcp.json starts the demo's MCP server with this Python, from this folder
            "HOOKLINE_DEMO_PYTHON": sys.executable,
            "HOOKLINE_DEMO_DIR": str(HERE / "demo"),
        }
        for key in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY"):
            env.pop(key, None)
        command = [
            sys.executable,
            "-m",
            "hookline.cli",
            "-p",
            "Tidy up this project and tell me what its configuration says.",
            "--model",
            f"scripted:{HERE / 'demo' / 'script.yaml'}",
            "--hook",
            str(HERE / "pi" / "permission_gate.py"),
            "--hook",
            str(HOOKS / "api_key_redactor.py"),
            "--hook",
            str(HERE / "pi" / "protected_paths.py"),
            "--hook",
            str(HERE / "demo" / "compact_at_end.py"),
            "--cwd",
            str(project),
            "--trust-project",
            "--no-session",
            "--verbose",
        ]
        print(
            "$ hookline -p 'Tidy up this project ...' --model scripted:demo/script.yaml "
            "--hook <examples> --trust-project --verbose\n",
            flush=True,
        )
        done = subprocess.run(command, env=env, stderr=subprocess.STDOUT, check=False)
        print("\n--- after the session ---")
        print(f"build/ still there: {(project / 'build').is_dir()}")
        audit = project / ".claude" / "audit.log"
        entries = len(audit.read_text().splitlines()) if audit.exists() else 0
        print(f"settings-hook audit log entries: {entries}")
        tools = [str(e.get("tool_name")) for e in _AuditReceiver.events]
        print(f"http hook received {len(tools)} PostToolUse events: {', '.join(tools)}")
        restored = project / ".claude" / "restored.log"
        runs = len(restored.read_text().splitlines()) if restored.exists() else 0
        print(f"SessionStart 'compact' hook runs after the compaction: {runs}")
        print(f"TIDIED created by `ls && touch TIDIED`: {(project / 'TIDIED').exists()}")
        notes = project / "NOTES.md"
        print(f"NOTES.md: {notes.read_text().strip() if notes.exists() else '(missing)'}")
        return done.returncode


if __name__ == "__main__":
    raise SystemExit(main())
