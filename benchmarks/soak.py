"""Soak: many tool calls through module and command hooks, a tenth of them adversarial.

``make soak`` (not part of ``make test``). The real agent (``build_agent``, the
scripted model, a settings file with two command hooks, five module hook
files) runs ``--calls`` tool calls (default 10 000) in batches of 1 000, each
batch in a fresh session. Every tenth call is adversarial, in turn:

- ``hang``: a ``tool_call`` hook awaits forever (ended by its deadline; blocked);
- ``crash``: a ``tool_call`` hook raises (blocked);
- ``garbage``: a ``tool_call`` hook returns an invalid result (blocked);
- ``flood``: the tool returns 64 KB and both command hooks print 256 KB of non-JSON;
- ``cmd-hang``: the PreToolUse command hook sleeps past its own timeout (killed).

It prints RSS growth from the end of the first batch to the end of the last
(target ≤ 10 MB), open file descriptors before and after (equal), zombie and
leftover processes (0), session message entries written vs expected (equal)
and wall time per call (mostly the two command hooks' process spawns). It exits
non-zero when a target is missed; it asserts no time.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import io
import json
import os
import sys
import tempfile
import textwrap
import time
from pathlib import Path
from typing import Any

from hookline.agent.setup import AgentOptions, build_agent
from hookline.core.ui import NoUI

BATCH = 1_000
PER_TURN = 50
KINDS = ["hang", "crash", "garbage", "flood", "cmd-hang"]
HOOK_TIMEOUT_MS = 50
COMMAND_TIMEOUT_S = 0.1

MODULE_HOOKS = {
    "tools.py": """
        from hookline import Tool, ToolResult

        async def execute(call_id, params, signal, on_update):
            if params.get("mode") == "flood":
                return ToolResult([{"type": "text", "text": "x" * 65536}])
            return ToolResult([{"type": "text", "text": f"ok {params.get('n')} secret"}])

        def register(pi):
            pi.register_tool(Tool("soak", "soak tool", {"type": "object"}, execute))

            @pi.on("tool_call")
            async def noop(event, ctx):
                return None
    """,
    "guard.py": """
        import asyncio

        def register(pi):
            @pi.on("tool_call")
            async def guard(event, ctx):
                mode = event.input.get("mode")
                if mode == "hang":
                    await asyncio.Event().wait()
                if mode == "crash":
                    raise RuntimeError("guard crashed")
                if mode == "garbage":
                    return {"blok": True, "reason": 42}
                return None
    """,
    "rewrite.py": """
        def register(pi):
            @pi.on("tool_call")
            def tag(event, ctx):
                return {"input": {**event.input, "tag": "seen"}}
    """,
    "redact.py": """
        def register(pi):
            @pi.on("tool_result")
            async def redact(event, ctx):
                text = "".join(b.get("text", "") for b in event.content)
                if "secret" in text:
                    return {"content": [{"type": "text", "text": text.replace("secret", "[r]")}]}
                return None
    """,
    "count.py": """
        COUNTS = {}

        def register(pi):
            for name in ("turn_start", "tool_execution_start", "tool_execution_end"):
                pi.on(name, lambda event, ctx: COUNTS.__setitem__(
                    event.type, COUNTS.get(event.type, 0) + 1))
    """,
}

PRE_HOOK = """#!/bin/sh
IFS= read -r input  # a builtin: no process of its own
case "$input" in
  *'"mode": "flood"'*|*'"mode":"flood"'*) head -c 262144 /dev/zero | tr '\\0' x; exit 0;;
  *'"mode": "cmd-hang"'*|*'"mode":"cmd-hang"'*) sleep 30; exit 0;;
esac
exit 0
"""

POST_HOOK = """#!/bin/sh
IFS= read -r input  # a builtin: no process of its own
case "$input" in
  *'"mode": "flood"'*|*'"mode":"flood"'*) head -c 262144 /dev/zero | tr '\\0' y; exit 0;;
esac
exit 0
"""


def _mode(i: int) -> str:
    if i % 10 != 9:
        return "normal"
    return KINDS[(i // 10) % len(KINDS)]


def _turns(calls: int) -> tuple[list[Any], int]:
    """The scripted model's turns for every batch, and how many batches."""
    turns: list[Any] = []
    batches = 0
    for start in range(0, calls, BATCH):
        batches += 1
        stop = min(start + BATCH, calls)
        for first in range(start, stop, PER_TURN):
            turns.append(
                {
                    "tool_calls": [
                        {"name": "soak", "arguments": {"mode": _mode(i), "n": i}, "id": f"c{i}"}
                        for i in range(first, min(first + PER_TURN, stop))
                    ]
                }
            )
        turns.append("batch done")
    return turns, batches


def _rss_kb() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def _fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def _processes(root: Path) -> tuple[int, int]:
    """(zombie children of this process, processes still running a soak hook script)."""
    me = str(os.getpid())
    zombies = leftovers = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or entry == me:
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        state, ppid = fields[0], fields[1]
        if ppid == me and state == "Z":
            zombies += 1
        elif str(root).encode() in cmdline:
            leftovers += 1
    return zombies, leftovers


def _setup(root: Path) -> tuple[list[str], Path]:
    hooks = []
    for name, source in MODULE_HOOKS.items():
        path = root / "hooks" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(source))
        hooks.append(str(path))
    for name, body in (("pre.sh", PRE_HOOK), ("post.sh", POST_HOOK)):
        script = root / name
        script.write_text(body)
        script.chmod(0o755)

    def command(script: str) -> dict[str, Any]:
        return {"type": "command", "command": str(root / script), "timeout": COMMAND_TIMEOUT_S}

    settings = {
        "hookTimeout": HOOK_TIMEOUT_MS,
        "hooks": {
            "PreToolUse": [{"matcher": "soak", "hooks": [command("pre.sh")]}],
            "PostToolUse": [{"matcher": "soak", "hooks": [command("post.sh")]}],
        },
    }
    settings_file = root / "settings.json"
    settings_file.write_text(json.dumps(settings))
    return hooks, settings_file


async def _soak(calls: int, root: Path) -> dict[str, Any]:
    hooks, settings_file = _setup(root)
    turns, batches = _turns(calls)
    (root / "script.json").write_text(json.dumps({"turns": turns}))
    project = root / "project"
    project.mkdir()
    os.environ["HOOKLINE_HOME"] = str(root / "home")
    bundle = await build_agent(
        AgentOptions(
            cwd=str(project),
            model=f"scripted:{root / 'script.json'}",
            hook_paths=hooks,
            settings_file=str(settings_file),
            permission_mode="bypassPermissions",
            trust_project=True,
        ),
        stderr=io.StringIO(),
    )
    agent = bundle.agent
    agent.runner.set_ui(NoUI(), False)
    errors: list[str] = []
    agent.runner.on_error(lambda e: errors.append(e.event))
    await agent.start()
    rss: list[int] = []
    fds: list[int] = []
    sessions: list[str] = []
    started = time.perf_counter()
    for batch in range(batches):
        if batch:
            await agent.new_session()
        session_file = agent.session.get_session_file()
        assert session_file is not None
        sessions.append(session_file)
        await agent.prompt(f"batch {batch}")
        agent.provider.requests.clear()  # type: ignore[attr-defined]  # the script's own record
        gc.collect()
        rss.append(_rss_kb())
        fds.append(_fds())
    elapsed = time.perf_counter() - started
    await agent.shutdown("exit")
    written = 0
    for path in sessions:
        for line in Path(path).read_text().splitlines():
            if json.loads(line).get("type") == "message":
                written += 1
    turns_per_batch = [
        -(-min(BATCH, calls - b * BATCH) // PER_TURN) for b in range(batches)
    ]  # ceil
    expected = sum(
        1 + (t + 1) + min(BATCH, calls - b * BATCH) for b, t in enumerate(turns_per_batch)
    )
    zombies, leftovers = _processes(root)
    return {
        "calls": calls,
        "batches": batches,
        "rss_first_batch_mb": rss[0] / 1024,
        "rss_growth_mb": (rss[-1] - rss[0]) / 1024,
        "fds_before": fds[0],
        "fds_after": fds[-1],
        "zombies": zombies,
        "leftover_processes": leftovers,
        "entries_written": written,
        "entries_expected": expected,
        "hook_errors_reported": len(errors),
        "orphaned_handlers": len(agent.runner.orphans),
        "wall_s": elapsed,
        "ms_per_call": elapsed / calls * 1000,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=10_000, help="tool calls (default 10 000)")
    args = parser.parse_args()
    # tmpfs when there is one: the session's per-entry fsync is what a disk costs, not hookline
    where = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
    with tempfile.TemporaryDirectory(prefix="hookline-soak-", dir=where) as tmp:
        result = asyncio.run(_soak(args.calls, Path(tmp)))
    print(f"soak: {result['calls']} tool calls in {result['batches']} sessions, "
          f"a tenth adversarial ({', '.join(KINDS)})")  # fmt: skip
    print(f"  RSS growth, first to last batch : {result['rss_growth_mb']:+.1f} MB "
          f"(target <= 10 MB; {result['rss_first_batch_mb']:.0f} MB after the first)")  # fmt: skip
    print(f"  open fds, first / last batch    : {result['fds_before']} / {result['fds_after']}")
    print(f"  zombies / leftover processes    : {result['zombies']} / "
          f"{result['leftover_processes']}")  # fmt: skip
    print(f"  session entries written/expected: {result['entries_written']} / "
          f"{result['entries_expected']}")  # fmt: skip
    print(f"  hook errors reported            : {result['hook_errors_reported']}")
    print(f"  handlers still orphaned         : {result['orphaned_handlers']}")
    print(f"  wall time                       : {result['wall_s']:.1f} s, "
          f"{result['ms_per_call']:.2f} ms per call")  # fmt: skip
    ok = (
        result["rss_growth_mb"] <= 10
        and result["fds_before"] == result["fds_after"]
        and result["zombies"] == 0
        and result["leftover_processes"] == 0
        and result["entries_written"] == result["entries_expected"]
    )
    print("  verdict                         : " + ("ok" if ok else "NOT OK"))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
