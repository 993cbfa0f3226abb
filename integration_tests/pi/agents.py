"""The two agents under test, each as an RPC process on one loopback model server.

pi runs from ``.integrations/pi`` (``make test-integrations-pi`` installs it)
on node, offline, with a custom provider in a temporary ``~/.pi/agent/models.json``
pointing at the fake OpenAI Chat Completions server; hookline runs with
``openai:`` on the same server. Both are driven by the same client.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.fakes.llm_servers import FakeOpenAIServer  # noqa: E402
from tests.modes.rpc.pi_rpc_client import DialogAnswer, PiRpcClient  # noqa: E402

BRIDGE = ROOT / "integrations/pi/hookline.ts"
PI_CLI = ROOT / ".integrations/pi/node_modules/@mariozechner/pi-coding-agent/dist/cli.js"
MODEL = "fake-model"


def pi_missing() -> str | None:
    """Why pi cannot run here, or ``None``."""
    if shutil.which("node") is None:
        return "node is not installed"
    if not PI_CLI.is_file():
        return "pi is not installed: run `make test-integrations-pi`"
    return None


def pi_agent(
    fake: FakeOpenAIServer,
    home: Path,
    cwd: Path,
    *,
    extension: Path | None = None,
    env: dict[str, str] | None = None,
    answer: DialogAnswer | None = None,
) -> PiRpcClient:
    agent_dir = home / ".pi" / "agent"
    agent_dir.mkdir(parents=True, exist_ok=True)
    provider = {
        "baseUrl": fake.base_url,
        "api": "openai-completions",
        "apiKey": "loopback",
        "compat": {"supportsDeveloperRole": False, "supportsReasoningEffort": False},
        "models": [{"id": MODEL}],
    }
    (agent_dir / "models.json").write_text(json.dumps({"providers": {"loop": provider}}))
    argv = ["node", str(PI_CLI), "--mode", "rpc", "--no-session"]
    argv += ["--provider", "loop", "--model", MODEL]
    if extension is not None:
        argv += ["-e", str(extension)]
    child_env = {**os.environ, "HOME": str(home), "PI_OFFLINE": "1", **(env or {})}
    return PiRpcClient(argv, cwd=str(cwd), env=child_env, answer=answer, timeout=60)


def hookline_agent(
    fake: FakeOpenAIServer,
    home: Path,
    cwd: Path,
    *,
    hook: Path | None = None,
    env: dict[str, str] | None = None,
    answer: DialogAnswer | None = None,
) -> PiRpcClient:
    argv = [sys.executable, "-m", "hookline.cli", "--mode", "rpc", "--no-session"]
    argv += ["--model", f"openai:{MODEL}", "--base-url", fake.base_url, "--cwd", str(cwd)]
    # pi asks no permission for tools: hookline is run the same way, so a rule is all that decides
    argv += ["--permission-mode", "bypassPermissions"]
    if hook is not None:
        argv += ["--hook", str(hook)]
    child_env = {
        **os.environ,
        "HOME": str(home),
        "HOOKLINE_HOME": str(home / ".hookline"),
        "OPENAI_API_KEY": "loopback",
        **(env or {}),
    }
    return PiRpcClient(argv, cwd=str(cwd), env=child_env, answer=answer, timeout=60)


def serve_command(hook: Path, cwd: Path) -> list[str]:
    """``hookline serve --stdio`` for the pi bridge, with one hook."""
    argv = [sys.executable, "-m", "hookline.cli", "serve", "--stdio", "--no-session"]
    return [*argv, "--hook", str(hook), "--cwd", str(cwd)]


def bridged_pi_agent(
    fake: FakeOpenAIServer,
    home: Path,
    cwd: Path,
    *,
    hook: Path,
    env: dict[str, str] | None = None,
    command: list[str] | None = None,
) -> PiRpcClient:
    """pi with ``integrations/pi/hookline.ts``: the Python hook governs pi."""
    serve = json.dumps(command if command is not None else serve_command(hook, cwd))
    bridge_env = {
        **(env or {}),
        "HOOKLINE_SERVE_COMMAND": serve,
        "HOOKLINE_HOME": str(home / ".hookline"),
    }
    return pi_agent(fake, home, cwd, extension=BRIDGE, env=bridge_env)


@contextmanager
def http_service(hook: Path, cwd: Path, env: dict[str, str]) -> Iterator[str]:
    """``hookline serve --http`` with one hook (a team's shared service): its URL."""
    argv = [sys.executable, "-m", "hookline.cli", "serve", "--http", "127.0.0.1:0"]
    proc = subprocess.Popen(
        [*argv, "--no-discovery", "--hook", str(hook)],
        stderr=subprocess.PIPE,
        text=True,
        cwd=cwd,
        env={**os.environ, **env},
    )
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()
        assert "listening on " in line, line
        threading.Thread(target=proc.stderr.read, daemon=True).start()
        yield line.split("listening on ", 1)[1].strip()
    finally:
        proc.terminate()
        proc.wait(timeout=30)
