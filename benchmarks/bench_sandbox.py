"""The sandbox's cost: ``bash -c true`` through the bash tool, sandboxed vs not.

The project is this repository, with the rules a careful team writes (``Edit(.env)``,
``Edit(**/*.lock)``, which searches every folder for lock files, ``Read(./secrets/**)``),
so the row includes planning the mounts (folder listings cached between calls), the
stand-ins for missing protected paths, and bubblewrap itself. Beside it, bubblewrap
alone (the same namespaces, no mounts of hookline's) run the way the bash tool runs a
command: the floor no sandbox on bubblewrap goes below. The three are run in turn,
round after round, and the medians compared (a loaded machine's outliers hit all
three). The target: at most 15 ms added per call.
"""

from __future__ import annotations

import asyncio
import dataclasses
import shutil
import statistics
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from hookline.core.process import run_process
from hookline.sandbox.availability import probe
from hookline.sandbox.config import resolve_sandbox
from hookline.sandbox.launcher import Sandbox
from hookline.sandbox.network import DomainPolicy, NetworkProxy
from hookline.settings import load_settings
from hookline.settings.permission_rules import PermissionRules
from hookline.tools.bash import create_bash_tool
from hookline.tools.leftovers import ToolLeftovers

ROUNDS = 60
PROJECT = Path(__file__).resolve().parent.parent
RULES = ["Edit(.env)", "Edit(**/*.lock)", "Read(./secrets/**)"]


async def _timed(call: Callable[[], Awaitable[object]]) -> float:
    start = time.perf_counter()
    await call()
    return time.perf_counter() - start


async def _rounds(bwrap: str, sandbox: Sandbox, leftovers: ToolLeftovers) -> dict[str, float]:
    """Median seconds of each case, the cases alternated round by round."""
    plain = create_bash_tool(str(PROJECT), leftovers=leftovers)
    boxed = create_bash_tool(str(PROJECT), sandbox=sandbox, leftovers=leftovers)
    shell = shutil.which("bash") or "/bin/sh"
    floor = [
        bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
        "--unshare-user", "--unshare-pid", "--unshare-net", "--unshare-ipc",
        "--die-with-parent", "--new-session", "--cap-drop", "ALL", "--", shell, "-c", "true",
    ]  # fmt: skip
    cases: dict[str, Callable[[], Awaitable[object]]] = {
        "plain": lambda: plain.execute("c", {"command": "true"}),
        "boxed": lambda: boxed.execute("c", {"command": "true"}),
        "bare": lambda: run_process([shell, "-c", "true"], max_output=0, keep_group=True),
        "floor": lambda: run_process(floor, max_output=0, keep_group=True),
    }
    times: dict[str, list[float]] = {name: [] for name in cases}
    for call in cases.values():  # warm
        await call()
    for _ in range(ROUNDS):
        for name, call in cases.items():
            times[name].append(await _timed(call))
    return {name: statistics.median(values) for name, values in times.items()}


async def _measured(
    bwrap: str, sandbox: Sandbox, leftovers: ToolLeftovers
) -> tuple[dict[str, float], float]:
    """The rounds' medians and the mean time to plan the mounts, the session then ended."""
    try:
        median = await _rounds(bwrap, sandbox, leftovers)
        start = time.perf_counter()
        for _ in range(ROUNDS):
            sandbox.plan()
        return median, (time.perf_counter() - start) / ROUNDS
    finally:
        await sandbox.aclose()


def main() -> None:
    found = probe()
    if not found.available or found.bwrap is None:
        print(f"skipped: the sandbox cannot run here ({found.problem})")
        return
    loaded = load_settings(PROJECT, managed_paths=[])
    rules = PermissionRules.from_lists(deny=RULES, root=str(PROJECT))
    config = dataclasses.replace(resolve_sandbox(loaded, rules, str(PROJECT)), enabled=True)
    # the network as the agent has it: the proxy, through the session's shared namespace
    proxy = NetworkProxy(DomainPolicy())
    sandbox = Sandbox(config, bwrap=found.bwrap, proxy=proxy, disable_userns=found.disables_userns)
    leftovers = ToolLeftovers()
    try:
        median, planning = asyncio.run(_measured(found.bwrap, sandbox, leftovers))
    finally:
        leftovers.close()
    raw, inside = median["plain"], median["boxed"]
    bare, floor = median["bare"], median["floor"]
    print(f"{'case (medians)':<34} {'unsandboxed':>12} {'sandboxed':>11} {'added':>9} {'ratio':>7}")
    print(
        f"{'bash -c true (bash tool)':<34} {raw * 1e3:>10.2f}ms {inside * 1e3:>9.2f}ms "
        f"{(inside - raw) * 1e3:>7.2f}ms {inside / raw:>6.2f}x"
    )
    print(f"{'  of which: planning the mounts':<34} {'':>12} {planning * 1e3:>9.2f}ms")
    print(
        f"{'floor: bwrap alone, same runner':<34} {bare * 1e3:>10.2f}ms {floor * 1e3:>9.2f}ms "
        f"{(floor - bare) * 1e3:>7.2f}ms {floor / bare:>6.2f}x"
    )
    share = (inside - raw) - (floor - bare)
    print(f"hookline's share over bubblewrap's floor: {share * 1e3:.2f}ms")
    print(f"project: {PROJECT} with {', '.join(RULES)}; target: at most 15 ms added")


if __name__ == "__main__":
    main()
