"""``hookline serve --http`` under load, beside a bare ASGI app and the old server.

A load generator from the registries, ``wrk`` (Debian's package; ``make bench``
installs it as root), keeps 1, 10, 100 and 1 000 connections busy with
PreToolUse inputs for one trivial Python hook, through ``hookline serve --http
--workers N`` (N = 1, 2, 4). Beside each row, in the same run:

- **bare**: an ASGI app answering ``{}`` without reading the input, on the same
  server with the same options (uvicorn, uvloop + httptools, N workers): the
  floor the server itself sets;
- **old**: the hand-written asyncio server ``serve`` had before the ASGI one
  (one process), run from that commit's ``src`` (``git archive`` into a
  temporary folder), or its recorded figures where this is not a git checkout.

Ratios are new/old and new/bare. Every answer is checked (status 200, no deny
for an input the hook lets through): ``wrong`` counts the others.

Then the p99 at a fixed 1 000 requests per second over 100 connections (wrk
cannot fix a rate: a small asyncio client paces the requests and times each
from when it was due, as wrk2 does, unless only its own timer woke late), and
with ``--soak SECONDS`` (600 for the ten-minute soak) the server's memory (RSS
of it and its workers) sampled under load, with its slope. ``--servers``
measures the bare app and a hook app on uvicorn, granian and hypercorn once, to
choose the server.

The generator and the servers share the machine's cores: by default the
generator is pinned to CPU 0 and the server (all its workers) to CPU 1 with
``taskset``, so neither steals the other's core; ``--no-pin`` lets both use
every core. The output says which. Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SRC = ROOT / "src"
#: The last commit with the hand-written HTTP/1.1 server in ``bridge/serve.py``.
OLD_COMMIT = "2847d13"
CONNECTIONS = (1, 10, 100, 1000)
WORKERS = (1, 2, 4)
#: The old server's figures as recorded on this 2-core machine (wrk-like keep-alive load),
#: for where there is no git checkout to run it from: connections → (req/s, p50 ms, p99 ms).
RECORDED_OLD: dict[int, tuple[str, str, str]] = {
    1: ("5 000", "0.16", "—"),
    10: ("11 000–19 000", "—", "—"),
    100: ("11 000", "—", "19–22"),
}
HOOK = """
def register(pi):
    @pi.on("tool_call")
    def guard(event, ctx):
        if "rm -rf" in event.input.get("command", ""):
            return {"block": True, "reason": "no"}
"""
#: wrk's script: POST the input, check every answer, report as one JSON line.
LUA = """
wrk.method = "POST"
wrk.body = [[%(body)s]]
wrk.headers["Content-Type"] = "application/json"
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args) wrong = 0 end
function response(status, headers, body)
  if status ~= 200 or string.find(body, '"deny"', 1, true) then wrong = wrong + 1 end
end
function done(summary, latency, requests)
  local bad = 0
  for _, t in ipairs(threads) do bad = bad + t:get("wrong") end
  local e = summary.errors
  io.write(string.format(
    '{"requests": %%d, "seconds": %%f, "p50": %%d, "p99": %%d, "errors": %%d, "wrong": %%d}\\n',
    summary.requests, summary.duration / 1e6, latency:percentile(50), latency:percentile(99),
    e.connect + e.read + e.write + e.timeout, bad))
end
"""


def _payload() -> dict[str, Any]:
    return {
        "session_id": "bench",
        "transcript_path": "/tmp/bench.jsonl",
        "cwd": "/tmp",
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": "ls -la"},
        "tool_use_id": "toolu_1",
    }


# -- the apps the servers run ---------------------------------------------------------


async def _lifespan(receive: Callable[[], Any], send: Callable[[Any], Any]) -> None:
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return


async def _body(receive: Callable[[], Any]) -> bytes:
    chunks = []
    while True:
        message = await receive()
        chunks.append(message.get("body", b""))
        if not message.get("more_body"):
            return b"".join(chunks)


async def _reply(send: Callable[[Any], Any], body: bytes) -> None:
    headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def hello(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """The bare ASGI app: reads the body, answers ``{}``."""
    if scope["type"] == "lifespan":
        return await _lifespan(receive, send)
    await _body(receive)
    await _reply(send, b"{}")


_worker: Any = None


async def hook_app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """A hook app for choosing the server (``--servers``): hookline's bridge answering the
    input with the hook of ``HOOKLINE_BENCH_HOOK``, loaded at the first request."""
    global _worker
    if scope["type"] == "lifespan":
        return await _lifespan(receive, send)
    from hookline.bridge.mapping import parse_input
    from hookline.bridge.worker import AnswerWorker

    if _worker is None:
        from hookline.bridge.engine import load_bridge

        bridge = load_bridge([os.environ["HOOKLINE_BENCH_HOOK"]], cwd="/tmp", discover=False)
        _worker = AnswerWorker(bridge, 30.0, lambda text: print(text, file=sys.stderr))
    answer = await _worker.answer(parse_input(await _body(receive)))
    await _reply(send, json.dumps(dict(answer.output)).encode())


# -- servers --------------------------------------------------------------------------


@dataclass(frozen=True)
class Result:
    rps: float
    p50_ms: float
    p99_ms: float
    errors: int
    wrong: int


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _until_accepting(port: int, proc: subprocess.Popen[bytes], what: str) -> None:
    """Return once ``port`` accepts; fail when the server exits first."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited {proc.returncode}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"{what} did not listen on {port}")


@dataclass(frozen=True)
class Pinning:
    """Which CPUs the generator and the server run on (``None``: every core)."""

    generator: str | None
    server: str | None

    def wrap(self, cpus: str | None, argv: list[str]) -> list[str]:
        return ["taskset", "-c", cpus, *argv] if cpus is not None else argv

    def describe(self) -> str:
        if self.server is None:
            return f"generator and servers share all {os.cpu_count()} cores (--no-pin)"
        return (
            f"generator pinned to CPU {self.generator}, each server with all its workers "
            f"to CPU {self.server} (taskset): one core each"
        )


@contextmanager
def _running(
    argv: list[str], env: dict[str, str], pin: Pinning, what: str, cwd: Path
) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    """Start a server whose command line has ``{port}`` in it; yield the port and process."""
    port = _free_port()
    command = pin.wrap(pin.server, [word.replace("{port}", str(port)) for word in argv])
    proc = subprocess.Popen(
        command, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        _until_accepting(port, proc, what)
        yield port, proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _env(pythonpath: Path, home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "HOOKLINE"))}
    env["PYTHONPATH"] = os.pathsep.join([str(pythonpath), str(HERE)])
    env["HOME"] = str(home)
    env["HOOKLINE_HOME"] = str(home / ".hookline")
    env.update(extra)
    return env


def _hookline_serve(workers: int | None, hook: Path) -> list[str]:
    argv = [sys.executable, "-m", "hookline.cli", "serve", "--http", "127.0.0.1:{port}"]
    argv += ["--no-discovery", "--hook", str(hook)]
    return argv + (["--workers", str(workers)] if workers is not None else [])


def _uvicorn(app: str, workers: int) -> list[str]:
    """The options ``serve`` runs uvicorn with: uvloop, httptools, no access log, no
    server header, no proxy headers, a backlog of 2048."""
    return [
        *(sys.executable, "-m", "uvicorn", app, "--host", "127.0.0.1", "--port", "{port}"),
        *("--workers", str(workers), "--loop", "uvloop", "--http", "httptools"),
        *("--no-access-log", "--log-level", "warning", "--no-server-header"),
        *("--no-proxy-headers", "--backlog", "2048"),
    ]


def _granian(app: str, workers: int) -> list[str]:
    return [
        *(sys.executable, "-m", "granian", "--interface", "asgi", "--host", "127.0.0.1"),
        *("--port", "{port}", "--workers", str(workers), "--loop", "uvloop", "--no-ws"),
        *("--no-access-log", "--log-level", "warning", app),
    ]


def _hypercorn(app: str, workers: int) -> list[str]:
    return [
        *(sys.executable, "-m", "hypercorn", "-b", "127.0.0.1:{port}", "-w", str(workers)),
        *("-k", "uvloop", "--log-level", "warning", app),
    ]


def serve_has_workers(src: Path) -> bool:
    """That ``hookline serve`` runs on the ASGI server (it takes ``--workers``)."""
    done = subprocess.run(
        [sys.executable, "-m", "hookline.cli", "serve", "--help"],
        env=_env(src, Path(tempfile.gettempdir())),
        capture_output=True,
        text=True,
        check=False,
    )
    return "--workers" in done.stdout


def old_src(into: Path) -> Path | None:
    """The old server's ``src``, extracted from ``OLD_COMMIT``; None outside a git checkout."""
    if shutil.which("git") is None:
        return None
    found = subprocess.run(
        ["git", "-C", str(ROOT), "cat-file", "-e", f"{OLD_COMMIT}^{{commit}}"],
        capture_output=True,
        check=False,
    )
    if found.returncode != 0:
        return None
    archive = into / "old.tar"
    with archive.open("wb") as out:
        subprocess.run(
            ["git", "-C", str(ROOT), "archive", OLD_COMMIT, "src"], stdout=out, check=True
        )
    with tarfile.open(archive) as tar:
        tar.extractall(into / "old", filter="data")
    return into / "old" / "src"


# -- load -----------------------------------------------------------------------------


def _wrk(port: int, connections: int, seconds: float, script: Path, pin: Pinning) -> Result:
    argv = ["wrk", "-t", "1", "-c", str(connections), "-d", f"{seconds:g}s", "--timeout", "10s"]
    argv += ["-s", str(script), f"http://127.0.0.1:{port}/"]
    done = subprocess.run(pin.wrap(pin.generator, argv), capture_output=True, text=True, check=True)
    line = next(line for line in done.stdout.splitlines() if line.startswith("{"))
    data = json.loads(line)
    return Result(
        rps=data["requests"] / data["seconds"],
        p50_ms=data["p50"] / 1000,
        p99_ms=data["p99"] / 1000,
        errors=data["errors"],
        wrong=data["wrong"],
    )


def _measure(port: int, connections: int, seconds: float, script: Path, pin: Pinning) -> Result:
    _wrk(port, min(connections, 10), 1, script, pin)  # warm: imports, workers, caches
    return _wrk(port, connections, seconds, script, pin)


def _fmt(result: Result | None) -> str:
    if result is None:
        return "—"
    bad = f", {result.errors} err" if result.errors else ""
    bad += f", {result.wrong} wrong" if result.wrong else ""
    return f"{result.rps:8.0f}/s p50 {result.p50_ms:6.2f} p99 {result.p99_ms:7.2f} ms{bad}"


def _ratio(a: Result | None, b: Result | None) -> str:
    return f"{a.rps / b.rps:5.2f}×" if a and b and b.rps else "  —  "


# -- a paced client (wrk2-like) -------------------------------------------------------


async def _paced(port: int, rate: float, connections: int, seconds: float) -> dict[str, Any]:
    """Requests due every ``1/rate`` s, spread over ``connections`` kept-alive connections.

    A request sent late because the answer before it on its connection came late is
    timed from when it was due, as wrk2 does, so a stall is not hidden. One the client
    sent late on its own (its timer woke after the due time, which an event loop's
    millisecond timers do) is timed from when it was sent: that delay is the client's.
    """
    body = json.dumps(_payload()).encode()
    request = (
        b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
    )
    total = int(rate * seconds)
    latencies: list[float] = []
    failures = 0
    start = time.perf_counter() + 0.2

    async def one_connection(k: int) -> None:
        nonlocal failures
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        for i in range(k, total, connections):
            due = start + i / rate
            delay = due - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
                due = time.perf_counter()  # the server could not have answered sooner
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
            length = int(re.search(rb"(?i)content-length:\s*(\d+)", head)[1])  # type: ignore[index]
            answer = await reader.readexactly(length)
            latencies.append(time.perf_counter() - due)
            if not head.startswith(b"HTTP/1.1 200") or b'"deny"' in answer:
                failures += 1
        writer.close()

    await asyncio.gather(*(one_connection(k) for k in range(connections)))
    latencies.sort()
    return {
        "requests": len(latencies),
        "seconds": time.perf_counter() - start,
        "p50": latencies[len(latencies) // 2] * 1000,
        "p99": latencies[int(len(latencies) * 0.99)] * 1000,
        "wrong": failures,
    }


def _paced_row(port: int, pin: Pinning, seconds: float) -> str:
    argv = [sys.executable, __file__, "--paced-client", str(port), str(seconds)]
    done = subprocess.run(pin.wrap(pin.generator, argv), capture_output=True, text=True, check=True)
    data = json.loads(done.stdout)
    achieved = data["requests"] / data["seconds"]
    return f"{achieved:6.0f}/s achieved  p50 {data['p50']:6.2f} ms  p99 {data['p99']:6.2f} ms" + (
        f"  {data['wrong']} wrong" if data["wrong"] else ""
    )


# -- memory over time -----------------------------------------------------------------


def _tree_rss(pid: int) -> int:
    """RSS in bytes of ``pid`` and every process below it."""
    total, todo = 0, [pid]
    while todo:
        current = todo.pop()
        try:
            status = Path(f"/proc/{current}/status").read_text()
            total += int(re.search(r"VmRSS:\s+(\d+)", status)[1]) * 1024  # type: ignore[index]
            for task in Path(f"/proc/{current}/task").iterdir():
                todo += [int(c) for c in (task / "children").read_text().split()]
        except (OSError, TypeError):
            continue
    return total


def _slope(points: Sequence[tuple[float, float]]) -> float:
    """Least-squares slope of ``(x, y)`` points."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    den = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / den if den else 0.0


def _soak(port: int, pid: int, seconds: float, script: Path, pin: Pinning) -> None:
    """wrk at 100 connections for ``seconds``; the server's RSS every 10 s, and its slope."""
    samples: list[tuple[float, float]] = []
    stop = threading.Event()
    started = time.monotonic()

    def sample() -> None:
        while not stop.is_set():
            samples.append((time.monotonic() - started, _tree_rss(pid) / 2**20))
            stop.wait(min(10.0, seconds / 20))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    result = _wrk(port, 100, seconds, script, pin)
    stop.set()
    sampler.join()
    half = [s for s in samples if s[0] >= seconds / 2]  # after the warm-up's growth
    print(f"  soak {seconds:g} s at 100 connections: {_fmt(result)}")
    print(
        f"  RSS (server and workers): {samples[0][1]:.1f} MiB at start, "
        f"{samples[-1][1]:.1f} MiB at the end, max {max(s[1] for s in samples):.1f} MiB; "
        f"slope {_slope(samples) * 60:+.2f} MiB/min overall, "
        f"{_slope(half) * 60:+.2f} MiB/min over the second half ({len(samples)} samples)"
    )


# -- the tables -----------------------------------------------------------------------


def _load_table(args: argparse.Namespace, tmp: Path, pin: Pinning) -> None:
    hook = tmp / "hook.py"
    hook.write_text(HOOK)
    script = tmp / "post.lua"
    script.write_text(LUA % {"body": json.dumps(_payload())})
    home = tmp / "home"
    home.mkdir()
    new = serve_has_workers(args.src)
    old = old_src(tmp)
    old_results: dict[int, Result] = {}
    if old is not None:
        print(f"old: `hookline serve --http` of {OLD_COMMIT} (git archive), one process")
        with _running(_hookline_serve(None, hook), _env(old, home), pin, "old", tmp) as (p, _):
            for c in args.connections:
                old_results[c] = _measure(p, c, args.seconds, script, pin)
    else:
        print("old: not a git checkout; its figures as recorded on this machine")
    if not new:
        print(f"new: not measured: the `hookline serve` of {args.src} takes no --workers")
    head = f"{'workers':>7} {'conns':>5}  {'new (hookline serve)':<46} {'bare (uvicorn hello)':<46}"
    print(f"{head} {'old (hand-written)':<46} new/old new/bare")
    for workers in args.workers:
        new_results: dict[int, Result] = {}
        bare: dict[int, Result] = {}
        if new:
            argv = _hookline_serve(workers, hook)
            with _running(argv, _env(args.src, home), pin, "serve", tmp) as (port, _):
                for c in args.connections:
                    new_results[c] = _measure(port, c, args.seconds, script, pin)
        argv = _uvicorn("bench_serve_load:hello", workers)
        with _running(argv, _env(args.src, home), pin, "bare", HERE) as (port, _):
            for c in args.connections:
                bare[c] = _measure(port, c, args.seconds, script, pin)
        for c in args.connections:
            mine, floor, before = new_results.get(c), bare.get(c), old_results.get(c)
            shown_old = _fmt(before) if old is not None else " / ".join(RECORDED_OLD.get(c, "—"))
            print(
                f"{workers:>7} {c:>5}  {_fmt(mine):<46} {_fmt(floor):<46} {shown_old:<46} "
                f"{_ratio(mine, before)}  {_ratio(mine, floor)}"
            )
    if new:
        serve = _hookline_serve(1, hook)
        with _running(serve, _env(args.src, home), pin, "serve", tmp) as (p, pr):
            print(
                f"fixed rate, 1 000 req/s over 100 connections, 1 worker: {_paced_row(p, pin, 10)}"
            )
            if args.soak:
                _soak(p, pr.pid, args.soak, script, pin)


def _servers_table(args: argparse.Namespace, tmp: Path, pin: Pinning) -> None:
    """The bare app and the hook app on each candidate server, 1 worker."""
    hook = tmp / "hook.py"
    hook.write_text(HOOK)
    script = tmp / "post.lua"
    script.write_text(LUA % {"body": json.dumps(_payload())})
    home = tmp / "home"
    home.mkdir(exist_ok=True)
    env = _env(args.src, home, HOOKLINE_BENCH_HOOK=str(hook))
    servers: dict[str, tuple[str, Callable[[str, int], list[str]]]] = {
        "uvicorn (uvloop, httptools)": ("uvicorn", _uvicorn),
        "granian (asgi, uvloop)": ("granian", _granian),
        "hypercorn (uvloop)": ("hypercorn", _hypercorn),
    }
    print(f"{'server':<28} {'app':<6} {'conns':>5}  result")
    for name, (module, command) in servers.items():
        if importlib.util.find_spec(module) is None:
            print(f"{name:<28} not installed (the dev extra has it)")
            continue
        for app in ("hello", "hook_app"):
            argv = command(f"bench_serve_load:{app}", 1)
            with _running(argv, env, pin, name, HERE) as (port, _):
                for c in args.connections:
                    result = _measure(port, c, args.seconds, script, pin)
                    print(f"{name:<28} {app:<6} {c:>5}  {_fmt(result)}")


def _options(argv: Sequence[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="bench_serve_load.py", description=__doc__.split("\n")[0])
    p.add_argument("--seconds", type=float, default=5.0, help="each measurement (default 5)")
    p.add_argument("--connections", type=int, nargs="+", default=list(CONNECTIONS))
    p.add_argument("--workers", type=int, nargs="+", default=list(WORKERS))
    p.add_argument("--soak", type=float, default=0, metavar="SECONDS", help="600: 10 minutes")
    p.add_argument("--no-pin", action="store_true", help="let generator and server share cores")
    p.add_argument("--servers", action="store_true", help="uvicorn, granian and hypercorn")
    p.add_argument(
        "--src", type=Path, default=SRC, help="the src folder of the hookline to measure"
    )
    return p.parse_args(argv)


def main(argv: Sequence[str] = ()) -> None:
    args = _options(argv)
    if shutil.which("wrk") is None:
        print("skipped: wrk is not installed (make bench installs it as root: apt-get install wrk)")
        return
    cores = os.cpu_count() or 1
    pin = (
        Pinning(None, None)
        if args.no_pin or cores < 2 or not shutil.which("taskset")
        else (Pinning("0", "1"))
    )
    print(f"load generator: wrk, 1 thread; {pin.describe()}; load average {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory() as tmp:
        if args.servers:
            _servers_table(args, Path(tmp), pin)
        else:
            _load_table(args, Path(tmp), pin)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--paced-client"]:
        port, seconds = int(sys.argv[2]), float(sys.argv[3])
        paced = _paced(port, 1000.0, 100, seconds)
        if importlib.util.find_spec("uvloop") is not None:  # a client that keeps time better
            import uvloop

            print(json.dumps(uvloop.run(paced)))
        else:
            print(json.dumps(asyncio.run(paced)))
    else:
        main(sys.argv[1:])
