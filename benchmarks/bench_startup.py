"""Start-up: what a user waits for before ``hookline`` does anything, beside ``python -c pass``.

Rows (median of ``RUNS`` wall-clock runs of a fresh process each; the ratio
is hookline over the floor measured in the same loop):

- ``hookline --version`` and ``hookline --help`` (goal ≤ 60 ms);
- one scripted ``-p`` turn with ``--no-session`` and a one-turn JSON script
  (goal ≤ 120 ms).

Both sides run the same interpreter with the same environment: bytecode is
written once to a private cache (as an installed package has it) and then
reused, ``HOOKLINE_HOME`` and the working directory are empty temporary
folders, so no user or project hooks load. The two sides alternate order on
every run, and this process's GC is off while timing either. Nothing here
asserts a time.
"""

from __future__ import annotations

import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = 21
FLOOR = [sys.executable, "-c", "pass"]


def _hookline() -> list[str]:
    """The console script beside this interpreter (what users run), else ``-m hookline.cli``."""
    script = Path(sys.executable).with_name("hookline")
    if script.is_file():
        return [sys.executable, str(script)]
    return [sys.executable, "-m", "hookline.cli"]


def _env(home: Path, pycache: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "HOOKLINE"))}
    env["PYTHONPYCACHEPREFIX"] = str(pycache)
    env["HOOKLINE_HOME"] = str(home)
    return env


def _once(argv: list[str], env: dict[str, str], cwd: Path) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{argv} exited {done.returncode}")
    return elapsed


def _pair(argv: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """Median seconds of ``argv`` and of the floor, alternating which runs first."""
    _once(argv, env, cwd)  # warm: writes the bytecode cache, fills the OS page cache
    _once(FLOOR, env, cwd)
    ours: list[float] = []
    floor: list[float] = []
    gc.disable()
    try:
        for i in range(RUNS):
            if i % 2:
                ours.append(_once(argv, env, cwd))
                floor.append(_once(FLOOR, env, cwd))
            else:
                floor.append(_once(FLOOR, env, cwd))
                ours.append(_once(argv, env, cwd))
    finally:
        gc.enable()
    return statistics.median(ours), statistics.median(floor)


def main() -> None:
    hookline = _hookline()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for name in ("home", "project", "pycache"):
            (root / name).mkdir()
        script = root / "one-turn.json"
        script.write_text(json.dumps({"turns": ["hello"]}), encoding="utf-8")
        env = _env(root / "home", root / "pycache")
        rows = [
            ("hookline --version", [*hookline, "--version"], 60.0),
            ("hookline --help", [*hookline, "--help"], 60.0),
            (
                "-p turn, --no-session, scripted",
                [*hookline, "-p", "hi", "--no-session", "--model", f"scripted:{script}"],
                120.0,
            ),
        ]
        print(f"median of {RUNS} fresh processes; floor: `python -c pass`, same interpreter and env")
        print(f"{'what':<34}{'ms':>8}{'floor ms':>10}{'ratio':>8}{'goal ms':>9}  met")
        for name, argv, goal in rows:
            ours, floor = _pair(argv, env, root / "project")
            met = "yes" if ours * 1e3 <= goal else "NO"
            print(
                f"{name:<34}{ours * 1e3:>8.1f}{floor * 1e3:>10.1f}{ours / floor:>8.1f}"
                f"{goal:>9.0f}  {met}",
                flush=True,
            )


if __name__ == "__main__":
    main()
