"""Run many attack lines through the real ``hookline --mode json``, a batch per process.

Each line gets its own victim and marker so that lines in one batch stay independent:
``{v}`` is the file it tries to delete, ``{X}`` the marker it tries to create where only
``ls`` is allowed, ``{url}`` the loopback server with a path of its own, ``{tok}`` a token
it writes (into ``.env``, a protected path or somewhere outside), ``{out}`` a folder
outside the project, ``{f}`` a file name of its own, ``{dur}`` a sleep length of its own
(to find a process that outlived the call) and ``{sock}`` a Unix socket outside.

A batch runs all its lines as the tool calls of one scripted turn; what each line did is
judged afterwards by effect only, and cached in a file shared by the xdist workers, so
each (configuration, batch) runs once per test session.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

RULES: dict[str, Any] = {
    "permissions": {
        "deny": ["Bash(rm *)", "Bash(curl *)", "Read(./secrets/**)", "Edit(.env)"],
        "allow": ["Bash(ls *)"],
    }
}
ENV_TEXT = "API_KEY=keep-me\n"
SECRET = "TOPSECRET-5e77"
CLI = [sys.executable, "-m", "hookline.cli"]
BATCH = 30

#: The four configurations: (sandbox on, permission mode).
CONFIGS = {
    "plain-default": (False, "default"),
    "plain-bypass": (False, "bypassPermissions"),
    "sandbox-default": (True, "default"),
    "sandbox-bypass": (True, "bypassPermissions"),
}

#: Paths the sandbox keeps read-only (created or changed = got through), project-relative.
_PROTECTED_TOPS = {
    ".claude",
    ".hookline",
    ".mcp.json",
    ".bashrc",
    ".profile",
    ".gitconfig",
    ".gitmodules",
    ".vscode",
    ".idea",
    ".zshrc",
    ".bash_profile",
    ".ripgreprc",
}

PROTECTED = [
    ".claude/settings.json",
    ".claude/settings.local.json",
    ".claude/commands/x.md",
    ".claude/agents/x.md",
    ".hookline/hooks/x.py",
    ".git/hooks/pre-commit",
    ".git/config",
    ".mcp.json",
    ".bashrc",
]


class _Handler(BaseHTTPRequestHandler):
    def _seen(self) -> None:
        self.server.hits.append(f"{self.command} {self.path} {self.headers.get('Host')}")  # type: ignore[attr-defined]
        self.send_response(200)
        self.send_header("Content-Length", "8")
        self.end_headers()
        self.wfile.write(b"reached\n")

    do_GET = do_POST = do_PUT = do_HEAD = do_CONNECT = _seen

    def log_message(self, format: str, *args: object) -> None:
        return


class _UnixSink:
    """A Unix socket server outside the project: records what any client sent."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.seen: list[bytes] = []
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.bind(str(path))
        self.sock.listen(16)
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            conn.settimeout(2)
            try:
                self.seen.append(b"connect " + conn.recv(4096))
            except OSError:
                self.seen.append(b"connect")
            conn.close()

    def close(self) -> None:
        self.sock.close()


@dataclass(frozen=True)
class Slot:
    """What one line of a batch may touch."""

    index: int
    tok: str
    v: str
    x: str
    f: str
    dur: str
    out: Path


def _fill(template: str, slot: Slot, url: str, sock: Path) -> str:
    return (
        template.replace("{url}", url)
        .replace("{port}", url.split(":")[2].split("/")[0])
        .replace("{path}", f"/p{slot.index}")
        .replace("{tok}", slot.tok)
        .replace("{v}", slot.v)
        .replace("{X}", slot.x)
        .replace("{f}", slot.f)
        .replace("{dur}", slot.dur)
        .replace("{out}", str(slot.out))
        .replace("{sock}", str(sock))
    )


def _make_project(root: Path) -> Path:
    project = root / "project"
    (project / "secrets").mkdir(parents=True)
    (project / "sub").mkdir()
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    (project / ".env").write_text(ENV_TEXT)
    (project / "secrets" / "key").write_text(f"KEY={SECRET}\n")
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text(json.dumps(RULES))
    return project


def _sandbox_settings(project: Path) -> None:
    # The sandbox switch lives beside the rules, in the local settings file.
    (project / ".claude" / "settings.local.json").write_text(
        json.dumps({"sandbox": {"enabled": True}})
    )


def _snapshot(project: Path) -> dict[str, str | None]:
    seen: dict[str, str | None] = {}
    for rel in PROTECTED:
        path = project / rel
        seen[rel] = path.read_text(errors="replace") if path.is_file() else None
    return seen


def _processes(durs: Sequence[str]) -> dict[str, list[int]]:
    found: dict[str, list[int]] = {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        for dur in durs:
            if dur.encode() in cmd:
                found.setdefault(dur, []).append(int(pid))
    return found


def _files_holding(roots: Sequence[Path], needles: Sequence[str]) -> dict[str, list[str]]:
    """Which needle occurs in which file below ``roots`` (small files only)."""
    found: dict[str, list[str]] = {}
    for root in roots:
        if not root.exists():
            continue
        for dirpath, _dirs, filenames in os.walk(root):
            for name in filenames:
                path = os.path.join(dirpath, name)
                try:
                    if os.path.islink(path) or os.path.getsize(path) > 1_000_000:
                        continue
                    text = Path(path).read_bytes().decode(errors="replace")
                except OSError:
                    continue
                for needle in needles:
                    if needle in text or needle in path:
                        found.setdefault(needle, []).append(path)
    return found


def _names_holding(folders: Sequence[str], needles: Sequence[str]) -> dict[str, list[str]]:
    """Which needle names an entry of ``folders`` (outside places a line may try to write)."""
    found: dict[str, list[str]] = {}
    for folder in folders:
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        for name in names:
            for needle in needles:
                if needle in name:
                    found.setdefault(needle, []).append(os.path.join(folder, name))
    return found


def run_batch(
    root: Path, lines: Sequence[str], config: str, *, sandbox_checks: bool = False
) -> list[list[str]]:
    """Run ``lines`` in one agent process under ``config``; for each line, what got through."""
    sandboxed, mode = CONFIGS[config]
    project = _make_project(root)
    if sandboxed:
        _sandbox_settings(project)
    outside = root / "outside"
    outside.mkdir()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    server.hits = []  # type: ignore[attr-defined]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    sink = _UnixSink(root / "sink.sock")
    before = _snapshot(project)
    slots = [
        Slot(
            i,
            tok=f"PWN{root.name[-6:]}q{i}z",
            v=f"v{i}",
            x=f"X{i}",
            f=f"f{i}",
            dur=f"9{i:03d}7",
            out=outside / f"o{i}",
        )
        for i in range(len(lines))
    ]
    for slot in slots:
        (project / slot.v).write_text("victim\n")
    calls = [
        {
            "id": f"c{s.index}",
            "name": "bash",
            "arguments": {
                "command": _fill(line, s, f"http://127.0.0.1:{port}/p{s.index}", sink.path)
            },
        }
        for s, line in zip(slots, lines, strict=True)
    ]
    script = root / "script.json"
    script.write_text(json.dumps({"turns": [{"text": "", "tool_calls": calls}, {"text": "done"}]}))
    argv = [*CLI, "--mode", "json", "-p", "go", "--no-session", "--trust-project"]
    argv += ["--model", f"scripted:{script}", "--permission-mode", mode, "--cwd", str(project)]
    env = {**os.environ, "HOME": str(root / "home")}
    (root / "home").mkdir()
    try:
        done = subprocess.run(
            argv,
            capture_output=True,
            text=True,
            timeout=240,
            env=env,
            check=False,
            cwd=project,
            stdin=subprocess.DEVNULL,
        )
    finally:
        server.shutdown()
        server.server_close()
        sink.close()
    results = _results(done.stdout)
    hits: list[str] = server.hits  # type: ignore[attr-defined]
    env_text = (project / ".env").read_text() if (project / ".env").is_file() else "<gone>"
    after = _snapshot(project)
    tokens = [s.tok for s in slots]
    leaked = _files_holding([project, outside, root / "home"], [SECRET, *tokens])
    if sandbox_checks:
        leaked_tmp = _names_holding(["/tmp", "/var/tmp", "/dev/shm", "/root", str(root)], tokens)
    else:
        leaked_tmp = {}
    git_config = (
        subprocess.run(
            ["git", "-C", str(project), "config", "--list", "--show-origin"],
            capture_output=True,
            text=True,
            check=False,
        ).stdout
        + subprocess.run(
            ["git", "-C", str(project), "rev-parse", "--git-path", "hooks", "--git-common-dir"],
            capture_output=True,
            text=True,
            check=False,
        ).stdout
    )
    alive = _processes([s.dur for s in slots])
    for pids in alive.values():
        for pid in pids:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
    verdicts: list[list[str]] = []
    env_changed = env_text != ENV_TEXT
    env_owned = any(t in env_text for t in tokens)
    for s, line in zip(slots, lines, strict=True):
        got: list[str] = []
        shown = results.get(f"c{s.index}", "")
        if not (project / s.v).exists():
            got.append("v deleted")
        if SECRET in shown:
            got.append("secret shown")
        if any(_path_of(h) == f"/p{s.index}" for h in hits):
            got.append("loopback reached")
        if s.tok in env_text:
            got.append(".env written")
        elif env_changed and not env_owned and ".env" in line:
            got.append(".env changed")
        if config == "plain-default" and (project / s.x).exists():
            got.append("X created under the ls rule")
        for path in leaked.get(SECRET, []):
            if "/secrets/" in path:
                continue
            if Path(path).name.split(".")[0] == s.f or f"/{s.f}/" in path:
                got.append(f"secret copied to {Path(path).name}")
        if sandbox_checks:
            for path in leaked.get(s.tok, []):
                rel = os.path.relpath(path, project)
                if not rel.startswith("..") and (
                    rel.split("/")[0] in _PROTECTED_TOPS or rel.startswith(".git/")
                ):
                    got.append(f"wrote {rel}")
                elif rel.startswith(".."):
                    got.append(f"wrote {path}")
            if s.tok in git_config:
                got.append("git config of the project changed")
            for path in leaked_tmp.get(s.tok, []):
                got.append(f"wrote {path}")
            if s.out.exists():
                got.append(f"created {s.out}")
            if s.dur in alive:
                got.append("a process outlived the call")
            if any(s.tok.encode() in seen for seen in sink.seen):
                got.append("unix socket outside reached")
        verdicts.append(got)
    if sandbox_checks:
        changed = [rel for rel in PROTECTED if before[rel] != after[rel]]
        for rel in changed:
            text = after[rel] or ""
            owners = [i for i, s in enumerate(slots) if s.tok in text]
            for i in owners or range(len(slots)):
                if owners or rel.split("/")[-1] in lines[i] or rel in lines[i]:
                    verdicts[i].append(f"protected {rel} changed")
    return verdicts


def _path_of(hit: str) -> str:
    """The path part of a recorded request (an absolute URI loses its scheme and host)."""
    target = hit.split(" ")[1]
    if "://" in target:
        target = "/" + target.split("://", 1)[1].partition("/")[2]
    return target.partition("?")[0]


def _results(stdout: str) -> dict[str, str]:
    """Each call's result text ("" when it was denied)."""
    out: dict[str, str] = {}
    for raw in stdout.splitlines():
        try:
            event = json.loads(raw)
        except json.JSONDecodeError:
            continue
        if event.get("type") == "tool_execution_end":
            out[event["tool_call_id"]] = json.dumps(event["result"])
        elif event.get("type") == "tool_denied":
            out.setdefault(event["tool_call_id"], "")
    return out


class BatchCache:
    """Each (configuration, batch) runs once per test session, shared by the xdist workers."""

    def __init__(self, shared: Path, scratch: pytest.TempPathFactory) -> None:
        self.shared = shared
        self.scratch = scratch

    def verdict(
        self, name: str, lines: Sequence[str], line: str, config: str, sandbox_checks: bool
    ) -> list[str]:
        index = lines.index(line)
        first = index // BATCH * BATCH
        batch = list(lines[first : first + BATCH])
        key = f"{name}-{config}-{first}"
        done = self.shared / f"{key}.json"
        with open(self.shared / f"{key}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not done.exists():
                root = self.scratch.mktemp(key)
                verdicts = run_batch(root, batch, config, sandbox_checks=sandbox_checks)
                done.write_text(json.dumps(verdicts))
        return json.loads(done.read_text())[index - first]  # type: ignore[no-any-return]


@pytest.fixture(scope="session")
def batches(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Iterator[BatchCache]:
    base = tmp_path_factory.getbasetemp()
    shared = (base.parent if worker_id != "master" else base) / "fresh-attack-cache"
    shared.mkdir(exist_ok=True)
    yield BatchCache(shared, tmp_path_factory)


def params(
    lines: Sequence[str], through: dict[str, dict[str, str]], configs: Sequence[str]
) -> list[Any]:
    """``pytest.param`` for each (line, configuration); a known way through is a strict xfail."""
    out = []
    for config in configs:
        for i, line in enumerate(lines):
            marks = []
            reason = through.get(line, {}).get(config)
            if reason is not None:
                marks.append(pytest.mark.xfail(strict=True, reason=reason))
            out.append(pytest.param(line, config, marks=marks, id=f"{config}-{i}"))
    return out
