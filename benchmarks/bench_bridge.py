"""The Claude Code bridge: ``hookline claude-hook`` start-up and ``hookline serve`` round trips.

Rows (medians; each side measured in the same loop, order alternated, this
process's GC off while timing):

- ``hookline claude-hook`` answering one PreToolUse with one trivial hook
  module (``--no-discovery`` and with the usual discovery), beside
  ``python -c pass`` fed the same stdin (goal ≤ 80 ms);
- the watchdog's share: the same claude-hook beside itself with the hooks run
  in its own process (no fork, no deadline), CPU time (user + system, of the
  process and its children) and wall time;
- one PreToolUse round trip to ``hookline serve --http`` over a kept-alive
  connection, beside the same round trip to a stdlib HTTP server that
  answers ``{}`` without running anything — in its own process, as ``serve``
  is, so neither server shares the client's GIL — and beside claude-hook's
  process start (goal ≤ 2 ms).

Bytecode is cached privately first, ``HOME`` and ``HOOKLINE_HOME`` are empty
temporary folders, and ``PYTHONPATH`` is this checkout's ``src`` (the venv's
install may point at another one). Nothing here asserts a time.
"""

from __future__ import annotations

import gc
import http.client
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

RUNS = 21
ROUND_TRIPS = 500
SRC = Path(__file__).resolve().parent.parent / "src"
FLOOR = [sys.executable, "-c", "pass"]
#: ``hookline ARGS`` with the hooks run in this process, as where ``os.fork`` does not
#: exist: the watchdog left out.
UNGUARDED = [
    sys.executable,
    "-c",
    "import sys; import hookline.bridge.watchdog as w; w.FORKS = False; "
    "from hookline.cli import main; sys.exit(main())",
]
HOOK = """
def register(pi):
    @pi.on("tool_call")
    def guard(event, ctx):
        if "rm -rf" in event.input.get("command", ""):
            return {"block": True, "reason": "no"}
"""


def _payload(cwd: Path) -> dict[str, Any]:
    return {
        "session_id": "bench",
        "transcript_path": str(cwd / "t.jsonl"),
        "cwd": str(cwd),
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": "ls -la"},
        "tool_use_id": "toolu_1",
    }


def _hookline() -> list[str]:
    script = Path(sys.executable).with_name("hookline")
    if script.is_file():
        return [sys.executable, str(script)]
    return [sys.executable, "-m", "hookline.cli"]


def _env(home: Path, pycache: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "HOOKLINE"))}
    env["PYTHONPATH"] = str(SRC)
    env["PYTHONPYCACHEPREFIX"] = str(pycache)
    env["HOME"] = str(home)
    env["HOOKLINE_HOME"] = str(home / ".hookline")
    return env


def _cpu() -> float:
    """CPU seconds (user + system) of the waited-for child processes so far."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _once(argv: list[str], data: bytes, env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one run."""
    cpu, start = _cpu(), time.perf_counter()
    done = subprocess.run(argv, input=data, env=env, cwd=cwd, capture_output=True, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{argv} exited {done.returncode}: {done.stderr.decode()}")
    return elapsed, _cpu() - cpu


def _pair(
    argv: list[str], data: bytes, env: dict[str, str], cwd: Path, floor_argv: list[str] = FLOOR
) -> tuple[tuple[float, float], tuple[float, float]]:
    """Median (wall, CPU) seconds of ``argv`` and of ``floor_argv``, run alternately."""
    _once(argv, data, env, cwd)  # warm: bytecode cache, page cache
    _once(floor_argv, data, env, cwd)
    ours: list[tuple[float, float]] = []
    floor: list[tuple[float, float]] = []
    gc.disable()
    try:
        for i in range(RUNS):
            first, second = (argv, floor_argv) if i % 2 else (floor_argv, argv)
            a = _once(first, data, env, cwd)
            b = _once(second, data, env, cwd)
            ours.append(a if first is argv else b)
            floor.append(b if first is argv else a)
    finally:
        gc.enable()
    return _medians(ours), _medians(floor)


def _medians(runs: list[tuple[float, float]]) -> tuple[float, float]:
    return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)


class _Empty(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # else a delayed ACK adds 40 ms to every answer

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet."""

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("content-length") or 0))
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"{}")


def _round_trips(port: int, body: bytes) -> float:
    """Median seconds of one POST and its answer on a kept-alive connection."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    times: list[float] = []
    for _ in range(ROUND_TRIPS // 10):  # warm the connection and the hooks
        conn.request("POST", "/", body)
        conn.getresponse().read()
    gc.disable()
    try:
        for _ in range(ROUND_TRIPS):
            start = time.perf_counter()
            conn.request("POST", "/", body)
            conn.getresponse().read()
            times.append(time.perf_counter() - start)
    finally:
        gc.enable()
        conn.close()
    return statistics.median(times)


def _floor_server() -> None:
    """The floor's own process: a stdlib server answering ``{}``; says its port on stderr."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Empty)
    print(f"listening on 127.0.0.1:{server.server_address[1]}", file=sys.stderr, flush=True)
    server.serve_forever()


def _port(proc: subprocess.Popen[str]) -> int:
    """The port a server process names on its first stderr line."""
    assert proc.stderr is not None
    return int(proc.stderr.readline().rsplit(":", 1)[1])


def _serve_rows(hook: Path, env: dict[str, str], cwd: Path, body: bytes) -> tuple[float, float]:
    argv = [*_hookline(), "serve", "--http", "127.0.0.1:0", "--no-discovery", "--hook", str(hook)]
    proc = subprocess.Popen(argv, env=env, cwd=cwd, stderr=subprocess.PIPE, text=True)
    floor_proc = subprocess.Popen(
        [sys.executable, __file__, "--floor-server"], stderr=subprocess.PIPE, text=True
    )
    try:
        port, floor_port = _port(proc), _port(floor_proc)
        ours, floor = [], []
        for i in range(4):  # alternate which side runs first
            if i % 2:
                ours.append(_round_trips(port, body))
                floor.append(_round_trips(floor_port, body))
            else:
                floor.append(_round_trips(floor_port, body))
                ours.append(_round_trips(port, body))
        return statistics.median(ours), statistics.median(floor)
    finally:
        for server in (proc, floor_proc):
            server.terminate()
            server.wait(timeout=30)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        home, cwd, pycache = root / "home", root / "project", root / "pycache"
        for d in (home, cwd, pycache):
            d.mkdir()
        hook = cwd / "guard.py"
        hook.write_text(HOOK)
        env = _env(home, pycache)
        body = json.dumps(_payload(cwd)).encode()
        print(f"load average {os.getloadavg()[0]:.1f}; process rows: medians of {RUNS}")
        print(f"{'what':58} {'hookline':>10} {'floor':>10} {'ratio':>7}")
        rows = [
            ("claude-hook, one trivial hook, --no-discovery", ["--no-discovery"]),
            ("claude-hook, one trivial hook, usual discovery", []),
        ]
        start_ms = 0.0
        for label, extra in rows:
            argv = [*_hookline(), "claude-hook", *extra, "--hook", str(hook)]
            (ours, _), (floor, _) = _pair(argv, body, env, cwd)
            start_ms = start_ms or ours * 1000
            print(
                f"{label:58} {ours * 1000:8.1f}ms {floor * 1000:8.1f}ms {ours / floor:6.1f}×"
                "   (floor: python -c pass; goal ≤ 80 ms)"
            )
        hook_args = ["claude-hook", "--no-discovery", "--hook", str(hook)]
        guarded, bare = _pair(
            [*_hookline(), *hook_args], body, env, cwd, floor_argv=[*UNGUARDED, *hook_args]
        )
        for what, i in (("CPU", 1), ("wall", 0)):
            print(
                f"{'claude-hook --no-discovery, the watchdog fork, ' + what:58} "
                f"{guarded[i] * 1000:8.1f}ms {bare[i] * 1000:8.1f}ms "
                f"{guarded[i] / bare[i]:6.2f}×   (floor: the hooks run in-process, no deadline; "
                f"+{(guarded[i] - bare[i]) * 1000:.1f} ms)"
            )
        ours, floor = _serve_rows(hook, env, cwd, body)
        print(
            f"{'serve --http, one PreToolUse round trip':58} {ours * 1000:8.2f}ms "
            f"{floor * 1000:8.2f}ms {ours / floor:6.1f}×"
            f"   (floor: stdlib server answering {{}}, its own process; goal ≤ 2 ms; "
            f"claude-hook's process: {start_ms:.1f} ms)"
        )


if __name__ == "__main__":
    if sys.argv[1:] == ["--floor-server"]:
        _floor_server()
    else:
        main()
