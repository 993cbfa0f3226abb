"""The sandbox's cost: ``bash -c true`` through the bash tool, sandboxed vs not.

The project is this repository, with the rules a careful team writes (``Edit(.env)``,
``Edit(**/*.lock)``, which searches every folder for lock files, ``Read(./secrets/**)``),
so the row includes planning the mounts (folder listings cached between calls), the
stand-ins for missing protected paths, and bubblewrap itself. The target: at most
15 ms added per call.
"""

from __future__ import annotations

import asyncio
import dataclasses
import shutil
import subprocess
import time
from pathlib import Path

from hookline.core.tool import Tool
from hookline.sandbox.availability import probe
from hookline.sandbox.config import resolve_sandbox
from hookline.sandbox.launcher import Sandbox
from hookline.settings import load_settings
from hookline.settings.permission_rules import PermissionRules
from hookline.tools.bash import create_bash_tool
from hookline.tools.leftovers import ToolLeftovers

ROUNDS = 30
PROJECT = Path(__file__).resolve().parent.parent
RULES = ["Edit(.env)", "Edit(**/*.lock)", "Read(./secrets/**)"]


async def _time(tool: Tool) -> float:
    """Best-of-3 mean seconds per call of ``bash -c true`` over ``ROUNDS`` calls."""
    await tool.execute("warm", {"command": "true"})
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for i in range(ROUNDS):
            await tool.execute(f"c{i}", {"command": "true"})
        best = min(best, (time.perf_counter() - start) / ROUNDS)
    return best


def _spawn(argv: list[str]) -> float:
    """Best-of-3 mean seconds of running ``argv`` to its end (``subprocess.run``)."""
    subprocess.run(argv, check=True)
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(ROUNDS):
            subprocess.run(argv, check=True)
        best = min(best, (time.perf_counter() - start) / ROUNDS)
    return best


def main() -> None:
    found = probe()
    if not found.available or found.bwrap is None:
        print(f"skipped: the sandbox cannot run here ({found.problem})")
        return
    loaded = load_settings(PROJECT, managed_paths=[])
    rules = PermissionRules.from_lists(deny=RULES, root=str(PROJECT))
    config = dataclasses.replace(resolve_sandbox(loaded, rules, str(PROJECT)), enabled=True)
    sandbox = Sandbox(config, bwrap=found.bwrap)
    leftovers = ToolLeftovers()
    plain = create_bash_tool(str(PROJECT), leftovers=leftovers)
    boxed = create_bash_tool(str(PROJECT), sandbox=sandbox, leftovers=leftovers)
    try:
        raw = asyncio.run(_time(plain))
        inside = asyncio.run(_time(boxed))
        start = time.perf_counter()
        for _ in range(ROUNDS):
            sandbox.plan()
        planning = (time.perf_counter() - start) / ROUNDS
        shell = shutil.which("bash") or "/bin/sh"
        bare = _spawn([shell, "-c", "true"])
        floor = _spawn(
            [found.bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
             "--unshare-user", "--unshare-pid", "--unshare-net", "--unshare-ipc",
             "--die-with-parent", "--new-session", "--cap-drop", "ALL",
             "--", shell, "-c", "true"]
        )  # fmt: skip
    finally:
        leftovers.close()
    print(f"{'case':<34} {'unsandboxed':>12} {'sandboxed':>11} {'added':>9} {'ratio':>7}")
    print(
        f"{'bash -c true (bash tool)':<34} {raw * 1e3:>10.2f}ms {inside * 1e3:>9.2f}ms "
        f"{(inside - raw) * 1e3:>7.2f}ms {inside / raw:>6.2f}x"
    )
    print(f"{'  of which: planning the mounts':<34} {'':>12} {planning * 1e3:>9.2f}ms")
    print(
        f"{'floor: bwrap alone (subprocess)':<34} {bare * 1e3:>10.2f}ms {floor * 1e3:>9.2f}ms "
        f"{(floor - bare) * 1e3:>7.2f}ms {floor / bare:>6.2f}x"
    )
    print(f"project: {PROJECT} with {', '.join(RULES)}; target: at most 15 ms added")


if __name__ == "__main__":
    main()
