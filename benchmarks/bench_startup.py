"""Start-up: what a user waits for before ``hookline`` does anything, beside ``python -c pass``.

Rows (median of ``RUNS`` wall-clock runs of a fresh process each; the ratio
is hookline over the floor measured in the same loop; the CPU column is the
child's user + system time, less disturbed than wall time on a busy machine):

- ``hookline --version`` and ``hookline --help`` (goal ≤ 60 ms);
- one scripted ``-p`` turn with ``--no-session`` and a one-turn JSON script
  (goal ≤ 120 ms).

Both sides run the same interpreter with the same environment: bytecode is
written once to a private cache (as an installed package has it) and then
reused; ``HOME``, ``HOOKLINE_HOME`` and the working directory are empty
temporary folders, so no user or project settings or hooks load. The two sides alternate order on
every run, and this process's GC is off while timing either. Nothing here
asserts a time.
"""

from __future__ import annotations

import gc
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = 21
FLOOR = [sys.executable, "-c", "pass"]
#: What a ``-p`` turn imports, in layers, each timed after the ones above it (CPU ms). Not
#: listed: what a turn without settings files, hooks that answer or hook packages no longer
#: imports (pydantic and the models, the Claude layer, httpx, ``importlib.metadata``;
#: ``tests/test_startup.py`` pins that).
LAYERS = (
    ("asyncio", ("asyncio",)),
    ("hookline.core messages + events (dataclasses)", ("hookline.core.events._types",)),
    ("hookline.core runner, api", ("hookline.core.runner",)),
    ("hookline.settings", ("hookline.settings.loader", "hookline.settings.trust")),
    ("hookline.tools + core pipeline", ("hookline.tools.builtin", "hookline.core.pipeline")),
    ("hookline.session", ("hookline.session.manager",)),
    ("hookline.discovery", ("hookline.discovery.sources", "hookline.discovery.loader")),
    ("hookline.agent", ("hookline.agent.setup", "hookline.agent.providers.scripted")),
    ("hookline.modes (print)", ("hookline.modes.print_mode", "hookline.modes.stdout")),
)
_LAYER_PROBE = """
import json, sys, time
out = []
for name, modules in json.loads(sys.argv[1]):
    start = time.process_time()
    for module in modules:
        __import__(module)
    out.append(time.process_time() - start)
print(json.dumps(out))
"""


def _hookline() -> list[str]:
    """The console script beside this interpreter (what users run), else ``-m hookline.cli``."""
    script = Path(sys.executable).with_name("hookline")
    if script.is_file():
        return [sys.executable, str(script)]
    return [sys.executable, "-m", "hookline.cli"]


def _env(home: Path, pycache: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "HOOKLINE"))}
    env["PYTHONPYCACHEPREFIX"] = str(pycache)
    env["HOME"] = str(home)
    env["HOOKLINE_HOME"] = str(home / ".hookline")
    return env


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _once(argv: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one run of ``argv`` to its exit."""
    cpu = _cpu()
    start = time.perf_counter()
    done = subprocess.run(
        argv, env=env, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, check=False
    )
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{argv} exited {done.returncode}")
    return elapsed, _cpu() - cpu


def _pair(argv: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float, float, float]:
    """Median wall and CPU seconds of ``argv``, then of the floor, alternating which runs first."""
    _once(argv, env, cwd)  # warm: writes the bytecode cache, fills the OS page cache
    _once(FLOOR, env, cwd)
    ours: list[tuple[float, float]] = []
    floor: list[tuple[float, float]] = []
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

    def median(runs: list[tuple[float, float]], i: int) -> float:
        return statistics.median(run[i] for run in runs)

    return median(ours, 0), median(floor, 0), median(ours, 1), median(floor, 1)


def _layers(env: dict[str, str], cwd: Path) -> list[float]:
    """Best-of-``RUNS // 3`` CPU seconds of each layer's imports, in a fresh process each run."""
    best = [float("inf")] * len(LAYERS)
    for _ in range(max(1, RUNS // 3)):
        argv = [sys.executable, "-c", _LAYER_PROBE, json.dumps(LAYERS)]
        done = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True, check=True)
        best = [min(b, t) for b, t in zip(best, json.loads(done.stdout), strict=True)]
    return best


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
        print(f"median of {RUNS} fresh processes; floor: `python -c pass`, same interpreter, env")
        print(
            f"{'what':<34}{'ms':>8}{'floor':>8}{'ratio':>7}{'cpu ms':>8}{'floor':>7}{'ratio':>7}"
            f"{'goal ms':>9}  met"
        )
        for name, argv, goal in rows:
            wall, wall_floor, cpu, cpu_floor = _pair(argv, env, root / "project")
            met = "yes" if wall * 1e3 <= goal else "NO"
            print(
                f"{name:<34}{wall * 1e3:>8.1f}{wall_floor * 1e3:>8.1f}{wall / wall_floor:>7.1f}"
                f"{cpu * 1e3:>8.1f}{cpu_floor * 1e3:>7.1f}{cpu / cpu_floor:>7.1f}"
                f"{goal:>9.0f}  {met}",
                flush=True,
            )
        layers = _layers(env, root / "project")
        print("\nwhere a -p turn's imports go (CPU ms, best of several, each after those above):")
        for (name, _), seconds in zip(LAYERS, layers, strict=True):
            print(f"  {name:<52}{seconds * 1e3:>8.1f}")
        print(f"  {'all imports':<52}{sum(layers) * 1e3:>8.1f}")


if __name__ == "__main__":
    main()
