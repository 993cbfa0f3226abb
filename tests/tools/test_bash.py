"""The bash tool: output, exit codes, streaming, truncation, timeout, abort, spawn hook."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import pytest

from hookline.core.messages import content_text
from hookline.core.tool import ToolError, ToolResult
from hookline.tools.bash import BashSpawnContext, create_bash_tool
from hookline.tools.truncation import DEFAULT_MAX_BYTES


def _alive(pid: int) -> bool:
    """Running (a zombie waiting for a reaper counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state not in ("Z", "X")


async def _gone(pid: int, within: float = 5.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if not _alive(pid):
            return True
        await asyncio.sleep(0.05)
    return False


async def run(cwd: Path, **params: object) -> ToolResult:
    return await create_bash_tool(str(cwd)).execute("call-1", dict(params), None, None)


async def test_output_with_stderr_merged_in_cwd(project: Path) -> None:
    result = await run(project, command="pwd; echo err >&2")
    assert content_text(result.content) == f"{project}\nerr\n"
    assert result.details == {"exit_code": 0}
    assert result.is_error is False


async def test_no_output(project: Path) -> None:
    result = await run(project, command="true")
    assert content_text(result.content) == "(no output)"


async def test_nonzero_exit_raises_tool_error_with_output_and_code(project: Path) -> None:
    with pytest.raises(ToolError) as info:
        await run(project, command="echo oops; exit 3")
    assert str(info.value) == "oops\n\nCommand exited with code 3"
    assert info.value.details == {"exit_code": 3}


@pytest.mark.parametrize(
    ("params", "needle"),
    [
        ({}, "missing required parameter 'command'"),
        ({"command": 42}, "'command' must be a string, got int 42"),
        ({"command": ""}, "'command' must not be empty"),
        ({"command": "true", "timeout": "10"}, "'timeout' must be a number > 0, got str '10'"),
        ({"command": "true", "timeout": -1}, "'timeout' must be a number > 0"),
    ],
)
async def test_bad_params(project: Path, params: dict[str, object], needle: str) -> None:
    with pytest.raises(ToolError, match=r"^bash: ") as info:
        await run(project, **params)
    assert needle in str(info.value)


async def test_partial_output_streams_to_on_update(project: Path) -> None:
    updates: list[str] = []
    go = project / "go"

    def on_update(partial: ToolResult) -> None:
        updates.append(content_text(partial.content))
        go.touch()  # the command prints "two" only after the first update arrived

    tool = create_bash_tool(str(project))
    result = await tool.execute(
        "c",
        {"command": "echo one; while [ ! -f go ]; do sleep 0.01; done; echo two"},
        None,
        on_update,
    )
    assert content_text(result.content) == "one\ntwo\n"
    # each update carries only what is new since the one before
    assert updates == ["one\n", "two\n"]


async def test_truncated_by_lines_keeps_the_tail_and_saves_everything(project: Path) -> None:
    result = await run(project, command="seq 1 5000")
    shown = content_text(result.content)
    assert shown.startswith("3001\n")
    assert "5000\n\n[Showing lines 3001-5000 of 5000. Full output: " in shown
    t = result.details["truncation"]
    assert (t["truncated"], t["truncated_by"]) == (True, "lines")
    assert (t["total_lines"], t["output_lines"]) == (5000, 2000)
    expected = "".join(f"{i}\n" for i in range(1, 5001))
    assert t["total_bytes"] == len(expected)
    path = result.details["full_output_path"]
    assert Path(path).read_text() == expected
    os.unlink(path)


async def test_truncated_by_bytes_spills_large_output_to_file(project: Path) -> None:
    # 3000 lines of 100 bytes: 300 KB, more than twice the limit, so the tail buffer rolls
    result = await run(project, command="for i in $(seq 1 3000); do printf '%099d\\n' $i; done")
    t = result.details["truncation"]
    assert (t["truncated_by"], t["total_lines"], t["total_bytes"]) == ("bytes", 3000, 300_000)
    assert t["output_bytes"] <= DEFAULT_MAX_BYTES
    assert t["output_lines"] == DEFAULT_MAX_BYTES // 100
    shown = content_text(result.content)
    assert f"{3000:099d}\n\n[Showing lines" in shown and "(50.0KB limit)" in shown
    full = Path(result.details["full_output_path"]).read_text()
    assert full == "".join(f"{i:099d}\n" for i in range(1, 3001))
    os.unlink(result.details["full_output_path"])


async def test_untruncated_output_leaves_no_file(project: Path) -> None:
    result = await run(project, command="echo small")
    assert "full_output_path" not in result.details and "truncation" not in result.details


async def test_timeout_kills_the_background_grandchild(project: Path) -> None:
    start = time.monotonic()
    with pytest.raises(ToolError) as info:
        await run(
            project, command="sleep 30 & echo $! > bg.pid; echo started; sleep 30", timeout=0.5
        )
    assert time.monotonic() - start < 10
    assert str(info.value) == "started\n\nCommand timed out after 0.5 seconds"
    assert info.value.details["timed_out"] is True
    assert info.value.details["exit_code"] is None
    assert await _gone(int((project / "bg.pid").read_text()))


async def test_abort_signal_kills_the_process_group(project: Path) -> None:
    signal = asyncio.Event()
    tool = create_bash_tool(str(project))

    async def call() -> ToolResult:
        return await tool.execute(
            "c", {"command": "sleep 30 & echo $! > bg.pid; sleep 30"}, signal, None
        )

    task = asyncio.create_task(call())
    for _ in range(100):
        if (project / "bg.pid").exists():
            break
        await asyncio.sleep(0.05)
    signal.set()
    with pytest.raises(ToolError, match="Command aborted") as info:
        await asyncio.wait_for(task, 10)
    assert info.value.details["aborted"] is True
    assert await _gone(int((project / "bg.pid").read_text()))


async def test_already_aborted_never_spawns(project: Path) -> None:
    signal = asyncio.Event()
    signal.set()
    tool = create_bash_tool(str(project))
    with pytest.raises(ToolError, match="Command aborted"):
        await tool.execute("c", {"command": "touch ran"}, signal, None)
    assert not (project / "ran").exists()


async def test_spawn_hook_rewrites_command_cwd_and_env(project: Path) -> None:
    other = project / "other"
    other.mkdir()
    seen: list[BashSpawnContext] = []

    def hook(ctx: BashSpawnContext) -> BashSpawnContext:
        seen.append(ctx)
        return BashSpawnContext(
            ctx.command.replace("npm", "pnpm"), str(other), {**ctx.env, "CUSTOM_VAR": "1"}
        )

    tool = create_bash_tool(str(project), spawn_hook=hook)
    result = await tool.execute("c", {"command": "echo npm $CUSTOM_VAR; pwd"}, None, None)
    assert content_text(result.content) == f"pnpm 1\n{other}\n"
    assert seen[0].command == "echo npm $CUSTOM_VAR; pwd"
    assert seen[0].cwd == str(project)
    assert seen[0].env["PATH"] == os.environ["PATH"]


async def test_async_spawn_hook(project: Path) -> None:
    async def hook(ctx: BashSpawnContext) -> BashSpawnContext:
        await asyncio.sleep(0)
        return BashSpawnContext("echo async", ctx.cwd, ctx.env)

    tool = create_bash_tool(str(project), spawn_hook=hook)
    result = await tool.execute("c", {"command": "echo sync"}, None, None)
    assert content_text(result.content) == "async\n"


async def test_missing_working_directory(tmp_path: Path) -> None:
    with pytest.raises(ToolError, match=r"working directory .* does not exist"):
        await run(tmp_path / "nope", command="true")


async def test_cancelling_the_call_kills_the_process_group(project: Path) -> None:
    tool = create_bash_tool(str(project))

    async def call() -> ToolResult:
        return await tool.execute(
            "c", {"command": "sleep 30 & echo $! > bg.pid; sleep 30"}, None, None
        )

    task = asyncio.create_task(call())
    for _ in range(100):
        if (project / "bg.pid").exists():
            break
        await asyncio.sleep(0.05)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(task, 10)
    assert await _gone(int((project / "bg.pid").read_text()))
