"""Run one scripted conversation under the real Claude Code or under hookline.

Both agents talk to a loopback server speaking the Anthropic Messages API
(``tests.fakes.FakeAnthropicServer``) that answers from the same scripted turns, so
a case compares what each agent did with the same model, the same
``.claude/settings.json`` and the same hook scripts: whether the tool ran,
what the model received next, and what each hook read on stdin.

Turns name tools in Claude's vocabulary (``Bash``, ``file_path``); the
hookline run gets them translated to hookline's (``bash``, ``path``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hookline.claude.names import from_claude_input, from_claude_tool_name
from tests.fakes import FakeAnthropicServer, FakeReply, FakeToolCall

ROOT = Path(__file__).resolve().parent.parent
#: Where `make test-integrations` installs the npm package (see the Makefile).
INSTALL_DIR = ROOT / ".integrations"
HOOKLINE = [sys.executable, "-m", "hookline.cli"]
#: A run of either agent must finish well inside this (seconds).
RUN_TIMEOUT = 90
#: Both agents run tools without asking (no one is there to answer); deny rules and hooks
#: still apply, in both.
PERMISSION_ARGS = ["--permission-mode", "bypassPermissions"]
#: The hook helper every case's settings call: records stdin, then acts as told.
HOOK_SCRIPT = Path(__file__).resolve().parent / "hook.py"


def claude_binary() -> Path | None:
    """The native `claude` of the pinned npm package, or None when it is not installed."""
    found = sorted(INSTALL_DIR.glob("node_modules/@anthropic-ai/claude-code-*/claude"))
    return found[0] if found else None


@dataclass
class Call:
    """A tool call in a scripted turn, in Claude's vocabulary."""

    tool: str
    input: dict[str, Any]


@dataclass
class Turn:
    """One scripted assistant turn: text and/or tool calls."""

    text: str = ""
    calls: list[Call] = field(default_factory=list)


@dataclass
class ToolResult:
    """What the model received back for one tool call."""

    text: str
    is_error: bool


@dataclass
class AgentRun:
    """What one agent did with a case."""

    agent: str
    returncode: int
    stdout: str
    stderr: str
    requests: list[dict[str, Any]]
    project: Path

    def tool_results(self) -> list[ToolResult]:
        """Every tool_result the model was sent, in order (each appears in later requests too)."""
        seen: dict[str, ToolResult] = {}
        for body in self.requests:
            for message in body.get("messages", []):
                content = message.get("content")
                if message.get("role") != "user" or not isinstance(content, list):
                    continue
                for block in content:
                    if block.get("type") == "tool_result":
                        seen.setdefault(block["tool_use_id"], _tool_result(block))
        return list(seen.values())

    def user_texts(self) -> list[str]:
        """Text the model was last sent besides its own turns: prompts, system text, hook
        context, tool results (Claude Code sends hook context as ``system`` messages)."""
        last = self.requests[-1] if self.requests else {}
        out = _texts(last.get("system"))
        for message in last.get("messages", []):
            if message.get("role") != "assistant":
                out += _texts(message.get("content"))
        return out

    def hook_inputs(self, name: str) -> list[dict[str, Any]]:
        """The stdin JSON objects hook ``name`` read, in order."""
        path = self.project / ".rec" / f"{name}.jsonl"
        if not path.exists():
            return []
        return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]

    def answer(self) -> str:
        """What the run printed as its answer: Claude Code's ``result`` line, hookline's
        stdout."""
        if self.agent == "hookline":
            return self.stdout.strip()
        for line in reversed(self.stdout.splitlines()):
            if line.startswith("{") and '"type":"result"' in line.replace(" ", ""):
                return str(json.loads(line).get("result", "")).strip()
        return ""

    def describe(self) -> str:
        out, err = self.stdout[-3000:], self.stderr[-3000:]
        return f"{self.agent} exit {self.returncode}\nstdout:\n{out}\nstderr:\n{err}"


def _texts(content: Any) -> list[str]:
    """The text of a ``system`` value or message content (a string or a list of blocks)."""
    if isinstance(content, str):
        return [content]
    out: list[str] = []
    for block in content or []:
        if block.get("type") == "text":
            out.append(block["text"])
        elif block.get("type") == "tool_result":
            out.append(_tool_result(block).text)
    return out


def _tool_result(block: Mapping[str, Any]) -> ToolResult:
    content = block.get("content")
    if isinstance(content, list):
        text = "\n".join(c.get("text", "") for c in content if c.get("type") == "text")
    else:
        text = str(content or "")
    return ToolResult(text, bool(block.get("is_error")))


def hook_command(
    name: str,
    *,
    exit: int = 0,
    stdout: Any = None,
    stderr: str = "",
    when_inactive: bool = False,
    env: Sequence[str] = (),
) -> str:
    """A settings ``command`` running hook.py: records stdin under ``.rec/NAME.jsonl``
    (and the variables ``env`` names under ``_env``)."""
    parts = ["python3", str(HOOK_SCRIPT), name, "--exit", str(exit)]
    for var in env:
        parts += ["--env", var]
    if when_inactive:
        parts.append("--when-inactive")
    if stdout is not None:
        parts += ["--stdout", stdout if isinstance(stdout, str) else json.dumps(stdout)]
    if stderr:
        parts += ["--stderr", stderr]
    return " ".join(_quote(p) for p in parts)


def _quote(text: str) -> str:
    import shlex

    return shlex.quote(text)


def _replies(turns: Sequence[Turn], translate: bool) -> list[FakeReply]:
    replies: list[FakeReply] = []
    for n, turn in enumerate(turns):
        calls = []
        for k, call in enumerate(turn.calls):
            name, data = call.tool, call.input
            if translate:
                name = from_claude_tool_name(call.tool)
                data = from_claude_input(name, call.input)
            calls.append(FakeToolCall(name, data, id=f"toolu_{n}_{k}"))
        replies.append(FakeReply(text=turn.text, tool_calls=calls))
    return replies


def prepare_project(tmp: Path, settings: Mapping[str, Any], files: Mapping[str, str]) -> Path:
    """The project folder with ``.claude/settings.json`` and the case's files (a second run
    in the same ``tmp`` reuses the folder, its records and the agent's home)."""
    project = tmp / "project"
    (project / ".claude").mkdir(parents=True, exist_ok=True)
    (project / ".rec").mkdir(exist_ok=True)
    (project / ".claude" / "settings.json").write_text(json.dumps(settings, indent=2))
    for rel, text in files.items():
        path = project / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return project


def _base_env(home: Path, base_url: str) -> dict[str, str]:
    home.mkdir(parents=True, exist_ok=True)
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "LANG": "C.UTF-8",
        "ANTHROPIC_BASE_URL": base_url,
        "ANTHROPIC_API_KEY": "sk-ant-test-not-a-key",
        "HOOKLINE_HOME": str(home / ".hookline"),
        # This checkout's hookline, also where the venv's install points at another one.
        "PYTHONPATH": str(ROOT / "src"),
    }


def run_claude(
    binary: Path,
    tmp: Path,
    *,
    settings: Mapping[str, Any],
    turns: Sequence[Turn],
    prompt: str = "go",
    files: Mapping[str, str] | None = None,
    extra_args: Sequence[str] = (),
    extra_env: Mapping[str, str] | None = None,
) -> AgentRun:
    """The real Claude Code, headless, against a loopback model that replays ``turns``."""
    project = prepare_project(tmp / "claude", settings, files or {})
    with FakeAnthropicServer() as fake:
        for reply in _replies(turns, translate=False):
            fake.add(reply)
        env = _base_env(tmp / "claude" / "home", fake.url)
        env.update(
            DISABLE_AUTOUPDATER="1",
            CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
            DISABLE_TELEMETRY="1",
            DISABLE_ERROR_REPORTING="1",
            CLAUDE_CODE_DISABLE_TERMINAL_TITLE="1",
        )
        if os.geteuid() == 0:
            env["IS_SANDBOX"] = "1"
        env.update(extra_env or {})
        cmd = [str(binary), "-p", prompt, "--output-format", "stream-json", "--verbose"]
        cmd += PERMISSION_ARGS
        proc = subprocess.run(
            [*cmd, *extra_args],
            cwd=project,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=RUN_TIMEOUT,
        )
        return AgentRun("claude", proc.returncode, proc.stdout, proc.stderr, fake.requests, project)


def run_hookline(
    tmp: Path,
    *,
    settings: Mapping[str, Any],
    turns: Sequence[Turn],
    prompt: str = "go",
    files: Mapping[str, str] | None = None,
    extra_args: Sequence[str] = (),
    extra_env: Mapping[str, str] | None = None,
    session: bool = False,
) -> AgentRun:
    """hookline's reference agent in print mode against the same loopback model; with
    ``session`` it keeps a session file (Claude Code always does), for ``-c``."""
    project = prepare_project(tmp / "hookline", settings, files or {})
    with FakeAnthropicServer() as fake:
        for reply in _replies(turns, translate=True):
            fake.add(reply)
        env = _base_env(tmp / "hookline" / "home", fake.url)
        env.update(extra_env or {})
        cmd = [
            *HOOKLINE,
            "-p",
            prompt,
            "--model",
            "anthropic:claude-test",
            "--base-url",
            fake.url,
            *([] if session else ["--no-session"]),
            "--trust-project",
            *PERMISSION_ARGS,
        ]
        proc = subprocess.run(
            [*cmd, *extra_args],
            cwd=project,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=RUN_TIMEOUT,
        )
        return AgentRun(
            "hookline", proc.returncode, proc.stdout, proc.stderr, fake.requests, project
        )


@contextmanager
def record_http() -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """A loopback endpoint for ``http`` hooks: yields its URL and the JSON bodies it got
    (each answered with ``{}``)."""
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    got: list[dict[str, Any]] = []

    class Recorder(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("content-length") or 0))
            got.append(json.loads(body or b"{}"))
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.end_headers()
            self.wfile.write(b"{}")

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/hook", got
    finally:
        server.shutdown()
        server.server_close()


@contextmanager
def serve_http(tmp: Path, hook_source: str, *, token: str | None = None) -> Iterator[str]:
    """`hookline serve --http 127.0.0.1:0` with one hook module; yields its base URL."""
    hook = tmp / "served_hook.py"
    hook.write_text(hook_source)
    env = dict(os.environ)
    if token:
        env["HOOKLINE_SERVE_TOKEN"] = token
    argv = [*HOOKLINE, "serve", "--http", "127.0.0.1:0", "--no-discovery", "--hook", str(hook)]
    proc = subprocess.Popen(argv, env=env, stderr=subprocess.PIPE, text=True, cwd=tmp)
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()  # the server says where it listens once it does
        assert "listening on " in line, line
        threading.Thread(target=proc.stderr.read, daemon=True).start()  # never a full pipe
        yield line.split("listening on ", 1)[1].strip()
    finally:
        proc.terminate()
        proc.wait(timeout=30)
