"""What the sandbox's network forwarder adds to a command's start, next to its floors.

Each row starts a process and waits for its end, as the bash tool does: plain
``bash -c true``; ``bwrap … true`` (the empty namespaces and the seccomp filter);
``bwrap … forwarder true`` (the forwarder listening and handing out connections, the
proxy channel open outside); and the last with ``bash -c true`` as the command, the
shape of a sandboxed bash call. Rounds alternate, best and median kept; the ratios are
against plain bash. Nothing here asserts a time.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import statistics
import sys
import time
from collections.abc import Awaitable, Callable

from hookline.sandbox.network import DomainPolicy, NetworkProxy, inside_argv
from hookline.sandbox.seccomp import unix_socket_filter

ROUNDS = 40
PYTHON = os.path.realpath(sys.executable)
BWRAP_ARGS = [
    "--unshare-net",
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    "--unshare-user",
    "--unshare-pid",
    "--die-with-parent",
]


async def _run(argv: list[str], pass_fds: tuple[int, ...] = ()) -> None:
    process = await asyncio.create_subprocess_exec(*argv, pass_fds=pass_fds)
    await process.wait()


def _seccomp_fd() -> int:
    read, write = os.pipe()
    os.write(write, unix_socket_filter())
    os.close(write)
    return read


async def _bwrap(command: list[str]) -> None:
    fd = _seccomp_fd()
    try:
        await _run(["bwrap", *BWRAP_ARGS, "--seccomp", str(fd), *command], (fd,))
    finally:
        os.close(fd)


def _forwarded(proxy: NetworkProxy, command: list[str]) -> Callable[[], Awaitable[None]]:
    async def run() -> None:
        channel = proxy.open_channel()
        fd = _seccomp_fd()
        argv = ["bwrap", *BWRAP_ARGS, "--seccomp", str(fd)]
        argv += inside_argv(PYTHON, channel.inside_fd, command)
        try:
            process = await asyncio.create_subprocess_exec(*argv, pass_fds=(fd, channel.inside_fd))
        finally:
            os.close(fd)
        channel.spawned()
        await process.wait()
        await channel.aclose()

    return run


async def _measure() -> dict[str, list[float]]:
    proxy = NetworkProxy(DomainPolicy())
    cases: dict[str, Callable[[], Awaitable[None]]] = {
        "bash -c true": lambda: _run(["bash", "-c", "true"]),
        "bwrap true": lambda: _bwrap(["true"]),
        "bwrap forwarder true": _forwarded(proxy, ["true"]),
        "bwrap forwarder bash -c true": _forwarded(proxy, ["bash", "-c", "true"]),
    }
    times: dict[str, list[float]] = {name: [] for name in cases}
    order = list(cases)
    for index in range(ROUNDS + 3):
        for name in order if index % 2 else reversed(order):
            started = time.perf_counter()
            await cases[name]()
            if index >= 3:  # warm-up rounds are not kept
                times[name].append((time.perf_counter() - started) * 1000)
    await proxy.aclose()
    return times


def main() -> None:
    if shutil.which("bwrap") is None:
        print("bubblewrap (bwrap) is not installed: skipped")
        return
    times = asyncio.run(_measure())
    floor = min(times["bash -c true"])
    print(f"{'start and end of':<30} {'best':>8} {'median':>8} {'vs bash':>8}")
    for name, values in times.items():
        best = min(values)
        print(
            f"{name:<30} {best:>6.2f}ms {statistics.median(values):>6.2f}ms {best / floor:>7.1f}x"
        )
    added = min(times["bwrap forwarder bash -c true"]) - floor
    forwarder = min(times["bwrap forwarder true"]) - min(times["bwrap true"])
    print(f"the forwarder adds {forwarder:.2f} ms to bwrap; a sandboxed bash call {added:.2f} ms")


if __name__ == "__main__":
    main()
