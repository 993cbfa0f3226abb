"""Start to first model request with ``anthropic:``: hookline beside Claude Code.

What a user waits for before the model is even asked: from starting the process
to the first ``POST /v1/messages`` reaching a loopback fake Anthropic server
(``tests/fakes/llm_servers.py``), with an empty home and project, median of
``RUNS`` fresh processes, rows run in turn:

- hookline ``-p``: the Messages API spoken over httpx2 (no SDK), imported where
  the provider is built;
- the real Claude Code binary, where ``make test-integrations`` installed it
  (``.integrations/``), against the same server with the same key; the row is
  skipped, and says so, where it is not installed;
- the terminal app (tmux; skipped without it), which imports httpx2 in a thread
  from the provider's build on, and the same with ``HOOKLINE_SDK_PREFETCH=0``
  (imported on the event loop): the prompt sent the moment the first frame
  shows, and ``TYPING`` seconds later (a person typing; the pause is taken off
  the time).

Ratios are over Claude Code's row (goal: hookline ``-p`` ≤ 1.0×), else over the
``-p`` row. Last, what the thread is for: a key typed ``KEY_AT`` seconds after
the first frame, while the agent is built, until it is echoed. Bytecode is
written by the warm-up run, as an installed package has it compiled.
Nothing here asserts a time.
"""

from __future__ import annotations

import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RUNS = int(os.environ.get("BENCH_RUNS", "9"))
#: A run must reach the server well inside this (seconds).
TIMEOUT = 60
PROMPT = "hi"
#: When the echoed key is typed, after the first frame (the agent is being built then).
KEY_AT = 0.5
#: Seconds a person takes to type a short prompt once the app shows (the slower app rows).
TYPING = 1.5


def _fake_server() -> Any:
    """A FakeAnthropicServer that notes when a request first arrives (``first.wait()``)."""
    sys.path.insert(0, str(ROOT / "tests"))
    from fakes.llm_servers import FakeAnthropicServer

    class Stamped(FakeAnthropicServer):
        def __init__(self) -> None:
            super().__init__()
            self.first = threading.Event()
            self.at = 0.0

        def _next_reply(self) -> Any:
            if not self.first.is_set():
                self.at = time.perf_counter()
                self.first.set()
            return super()._next_reply()

    return Stamped()


def _claude_binary() -> Path | None:
    found = sorted((ROOT / ".integrations").glob("node_modules/@anthropic-ai/claude-code-*/claude"))
    return found[0] if found else None


def _env(home: Path, url: str) -> dict[str, str]:
    """Like ``integration_tests/harness.py``: an empty home, the fake server, a test key."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("HOOKLINE")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # pip compiles an install: so does the warm-up
    env.update(
        HOME=str(home),
        HOOKLINE_HOME=str(home / ".hookline"),
        ANTHROPIC_BASE_URL=url,
        ANTHROPIC_API_KEY="sk-ant-test-not-a-key",
        DISABLE_AUTOUPDATER="1",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
        DISABLE_TELEMETRY="1",
        DISABLE_ERROR_REPORTING="1",
    )
    if os.geteuid() == 0:
        env["IS_SANDBOX"] = "1"  # Claude Code refuses bypassPermissions as root otherwise
    return env


def _once(argv: list[str], env: dict[str, str], cwd: Path) -> float:
    """Seconds from starting ``argv`` to its first request on a fresh fake server."""
    if argv[0] == "tmux":
        return _typed(argv[2:], env, cwd, pause=float(argv[1]))
    fake = _fake_server()
    with fake:
        for _ in range(4):  # the answer, and any request a side makes after it
            fake.add_text("ok")
        run_env = {**env, "ANTHROPIC_BASE_URL": fake.url}
        start = time.perf_counter()
        proc = subprocess.Popen(
            [*argv, "--base-url", fake.url] if argv[0] == sys.executable else argv,
            env=run_env,
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            if not fake.first.wait(TIMEOUT):
                raise RuntimeError(f"{argv[:3]} made no request in {TIMEOUT} s")
            return fake.at - start
        finally:
            try:
                proc.wait(TIMEOUT)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def _typed(argv: list[str], env: dict[str, str], cwd: Path, pause: float) -> float:
    """Seconds from starting the terminal app to its first request, the prompt sent ``pause``
    seconds after the app's frame shows (0: at once; more: a person typing it), less the
    pause."""
    from bench_tui import _Pane

    fake = _fake_server()
    with fake:
        fake.add_text("ok")
        full = [*argv, "--base-url", fake.url]
        pane = _Pane(f"cd {shlex.quote(str(cwd))} && {shlex.join(full)}; sleep 30", env)
        try:
            start = pane.start()
            pane.wait("─\n›")
            time.sleep(pause)
            pane.tmux("send-keys", "hi", "Enter")
            if not fake.first.wait(TIMEOUT):
                raise RuntimeError(f"the app made no request in {TIMEOUT} s")
            return fake.at - start - pause
        finally:
            pane.close()


def _echo(argv: list[str], env: dict[str, str], cwd: Path) -> float:
    """Seconds from a key typed ``KEY_AT`` after the app's first frame to its echo."""
    from bench_tui import _Pane

    full = [*argv, "--base-url", "http://127.0.0.1:9"]  # never asked: no prompt is sent
    pane = _Pane(f"cd {shlex.quote(str(cwd))} && {shlex.join(full)}; sleep 30", env)
    try:
        pane.start()
        pane.wait("─\n›")
        time.sleep(KEY_AT)
        typed = time.perf_counter()
        pane.tmux("send-keys", "-l", "q")
        return pane.wait("› q") - typed
    finally:
        pane.close()


def main() -> None:
    hookline = [sys.executable, "-m", "hookline.cli"]
    hookline += ["-p", PROMPT, "--model", "anthropic:claude-test", "--no-session"]
    claude = _claude_binary()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for name in ("home", "project"):
            (root / name).mkdir()
        env = _env(root / "home", "")
        rows: list[tuple[str, list[str], dict[str, str]]] = [("hookline -p", hookline, env)]
        if claude is not None:
            argv = [str(claude), "-p", PROMPT, "--permission-mode", "bypassPermissions"]
            rows.append(("Claude Code", argv, env))
        if shutil.which("tmux") is not None:
            app = [sys.executable, "-m", "hookline.cli", "--model", "anthropic:claude-test"]
            app += ["--no-session", "--permission-mode", "bypassPermissions"]
            tui = {**env, "TERM": "xterm-256color"}
            tui = {k: v for k, v in tui.items() if not k.startswith("TMUX")}
            off = {**tui, "HOOKLINE_SDK_PREFETCH": "0"}
            rows[:0] = [
                ("app, sent at first frame, prefetched", ["tmux", "0", *app], tui),
                ("app, sent at first frame, =0", ["tmux", "0", *app], off),
                (f"app, sent {TYPING:g} s later, prefetched", ["tmux", f"{TYPING}", *app], tui),
                (f"app, sent {TYPING:g} s later, =0", ["tmux", f"{TYPING}", *app], off),
            ]
        for _, argv, row_env in rows:  # warm: bytecode caches, the OS page cache
            _once(argv, row_env, root / "project")
        echoes: dict[str, list[float]] = {}
        if shutil.which("tmux") is not None:
            for i in range(RUNS):
                for name, row_env in sorted(
                    {"prefetched": tui, "=0": off}.items(), reverse=i % 2 == 1
                ):
                    echoes.setdefault(name, []).append(_echo(app, row_env, root / "project"))
        times: list[list[float]] = [[] for _ in rows]
        for i in range(RUNS):
            order = list(range(len(rows)))
            if i % 2:
                order.reverse()
            for j in order:
                _, argv, row_env = rows[j]
                times[j].append(_once(argv, row_env, root / "project"))
    medians = [statistics.median(t) for t in times]
    base = medians[-1]
    over = rows[-1][0]
    print(f"start -> first POST /v1/messages, median of {RUNS} fresh processes; ratio over {over}")
    if claude is None:
        print("Claude Code: skipped (not installed: `make test-integrations` installs it)")
    print(f"{'what':<38}{'ms':>8}{'ratio':>8}")
    for (name, _, _), median in zip(rows, medians, strict=True):
        print(f"{name:<38}{median * 1e3:>8.1f}{median / base:>8.2f}", flush=True)
    named = dict(zip((row[0] for row in rows), medians, strict=True))
    if claude is not None:
        ratio = named["hookline -p"] / named["Claude Code"]
        print(f"hookline -p over Claude Code: {ratio:.2f}x (goal: <= 1.0x)")
    for mode, on, off in (
        (
            "app, sent at first frame",
            "app, sent at first frame, prefetched",
            "app, sent at first frame, =0",
        ),
        (
            f"app, sent {TYPING:g} s later",
            f"app, sent {TYPING:g} s later, prefetched",
            f"app, sent {TYPING:g} s later, =0",
        ),
    ):
        if on in named:
            print(f"{mode}: prefetch over no prefetch {named[on] / named[off]:.2f}")
    for name, runs in echoes.items():
        echo = statistics.median(runs) * 1e3
        print(
            f"app, key typed {KEY_AT:g} s after the first frame, to its echo, {name}: {echo:.0f} ms"
        )


if __name__ == "__main__":
    main()
