"""CLAUDE_ENV_FILE exports, the async protocol, and ``once`` hooks."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from pathlib import Path

from hookline.claude import AsyncHookTask, Outcome, parse_env_exports
from hookline.core.host import DetachedHost
from hookline.core.runner import HookRunner

from .conftest import ScriptFactory, command, hooks_for, pid_alive, source

CALL = {"tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "t"}


def test_parse_env_exports_quotes_and_expansion() -> None:
    text = "\n".join(
        [
            "# comment",
            "export A=1",
            "export B='two words' C=\"three $A\"",
            "D=plain",
            'export PATH="$PATH:/opt/bin"',
            "export E='$NOT_EXPANDED'",
            "echo not an assignment",
            'export F="unbalanced',
            "export G=${A}x",
        ]
    )
    env = parse_env_exports(text, {"PATH": "/usr/bin"})
    assert env == {
        "A": "1",
        "B": "two words",
        "C": "three 1",
        "D": "plain",
        "PATH": "/usr/bin:/opt/bin",
        "E": "$NOT_EXPANDED",
        "G": "1x",
    }


async def test_session_start_env_file_exports_reach_session_env(
    tmp_path: Path, script: ScriptFactory
) -> None:
    a = script('echo "export NODE_ENV=production" >> "$CLAUDE_ENV_FILE"')
    b = script('echo "export GREETING=\'hello world\'" >> "$CLAUDE_ENV_FILE"')
    hooks = hooks_for(tmp_path, source("SessionStart", a, b))
    await hooks.engine.run("SessionStart", {"source": "startup"})
    assert hooks.engine.session_env == {"NODE_ENV": "production", "GREETING": "hello world"}


async def test_env_file_only_for_session_start(tmp_path: Path) -> None:
    out = tmp_path / "v.txt"
    hooks = hooks_for(tmp_path, source("Stop", f'echo "[${{CLAUDE_ENV_FILE:-}}]" > {out}'))
    await hooks.engine.run("Stop", {"stop_hook_active": False})
    assert out.read_text().strip() == "[]"


async def test_async_hook_runs_in_background_and_reports(
    tmp_path: Path, script: ScriptFactory
) -> None:
    go = tmp_path / "go"
    # The hook goes on only once the test says so: the run must have returned before.
    body = (
        'echo \'{"async": true, "asyncTimeout": 5000}\'\n'
        f"while [ ! -e {go} ]; do sleep 0.01; done\n"
        'echo "late" >&2\nexit 2'
    )
    hooks = hooks_for(tmp_path, source("PreToolUse", script(body)))
    results: list[tuple[AsyncHookTask, Outcome]] = []
    hooks.engine.on_async_result(lambda t, o: results.append((t, o)))
    (o,) = (await hooks.engine.run("PreToolUse", dict(CALL))).outcomes
    assert o.kind == "success" and o.async_task_id
    task = hooks.engine.async_tasks[o.async_task_id]
    assert task.budget == 5.0 and not task.done
    go.touch()
    final = await asyncio.wait_for(task.wait(), 30)
    assert (final.kind, final.reason) == ("blocking", "late")
    assert results == [(task, final)]


async def test_async_hook_json_after_first_line(tmp_path: Path, script: ScriptFactory) -> None:
    body = (
        "echo '{\"async\": true}'\n"
        'echo \'{"hookSpecificOutput": {"additionalContext": "tests pass"}}\''
    )
    hooks = hooks_for(tmp_path, source("PostToolUse", script(body)))
    runner = HookRunner(cwd=str(tmp_path))
    hooks.install(runner)
    host = DetachedHost()
    runner.bind_host(host)
    (o,) = (await hooks.engine.run("PostToolUse", {**CALL, "tool_response": {}})).outcomes
    final = await hooks.engine.async_tasks[o.async_task_id or ""].wait()
    assert (final.kind, final.additional_context) == ("success", "tests pass")
    # The context reaches the host as a hidden message for the model's next call.
    ((kind, (message, trigger)),) = host.pending
    assert (kind, message["content"], message["display"], trigger) == (
        "send_message",
        "tests pass",
        False,
        False,
    )
    assert any("ended: success" in m for _, m in runner.context.ui.notifications)  # type: ignore[attr-defined]


async def test_async_cancel_kills_the_group(tmp_path: Path, script: ScriptFactory) -> None:
    pidfile = tmp_path / "pid"
    body = f"echo '{{\"async\": true}}'\nsleep 30 &\necho $! > {pidfile}\nwait"
    hooks = hooks_for(tmp_path, source("PreToolUse", script(body)))
    (o,) = (await hooks.engine.run("PreToolUse", dict(CALL))).outcomes
    task = hooks.engine.async_tasks[o.async_task_id or ""]
    await until(lambda: pidfile.exists() and bool(pidfile.read_text().strip()))
    child = int(pidfile.read_text())
    task.cancel()
    final = await asyncio.wait_for(task.wait(), 30)
    assert (final.kind, final.reason) == ("cancelled", "async hook cancelled")
    await until(lambda: not pid_alive(child))


async def test_async_budget_is_milliseconds(tmp_path: Path, script: ScriptFactory) -> None:
    body = 'echo \'{"async": true, "asyncTimeout": 200}\'\nsleep 20'
    hooks = hooks_for(tmp_path, source("PreToolUse", script(body)))
    (o,) = (await hooks.engine.run("PreToolUse", dict(CALL))).outcomes
    final = await asyncio.wait_for(hooks.engine.async_tasks[o.async_task_id or ""].wait(), 30)
    assert (final.kind, final.reason) == ("cancelled", "async hook timed out after 0.2s")


async def test_configured_async_and_shutdown(tmp_path: Path) -> None:
    hooks = hooks_for(tmp_path, source("PreToolUse", command("sleep 20", **{"async": True})))
    (o,) = (await hooks.engine.run("PreToolUse", dict(CALL))).outcomes
    assert o.async_task_id
    await asyncio.wait_for(hooks.engine.shutdown(), 5)
    outcome = hooks.engine.async_tasks[o.async_task_id].outcome
    assert outcome is not None and outcome.kind == "cancelled"


async def test_once_hooks_run_once(tmp_path: Path) -> None:
    hooks = hooks_for(tmp_path, source("SessionStart", command("echo hi", once=True)))
    assert len((await hooks.engine.run("SessionStart", {"source": "startup"})).outcomes) == 1
    run = await hooks.engine.run("SessionStart", {"source": "startup"})
    assert run.outcomes == [] and run.selection.skipped[0].reason.startswith("once")


async def test_cancelled_caller_kills_hook_groups(tmp_path: Path, script: ScriptFactory) -> None:
    pidfile = tmp_path / "pid"
    body = f"sleep 30 &\necho $! > {pidfile}\nwait"
    hooks = hooks_for(tmp_path, source("PreToolUse", script(body)))
    task = asyncio.ensure_future(hooks.engine.run("PreToolUse", dict(CALL)))
    await until(lambda: pidfile.exists() and bool(pidfile.read_text().strip()))
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await asyncio.wait_for(task, 30)  # liveness: the cancelled run ends
    child = int(pidfile.read_text())
    await until(lambda: not pid_alive(child))


async def until(condition: Callable[[], bool], deadline: float = 30.0) -> None:
    """Wait for ``condition`` (polled), failing only when it never holds within ``deadline``."""
    loop = asyncio.get_running_loop()
    end = loop.time() + deadline
    while not condition():
        assert loop.time() < end, "condition never held"
        await asyncio.sleep(0.01)


async def test_an_async_hooks_system_message_reaches_the_model_too(
    tmp_path: Path, script: ScriptFactory
) -> None:
    body = (
        "echo '{\"async\": true}'\n"
        'echo \'{"systemMessage": "lint found 2 issues", '
        '"hookSpecificOutput": {"additionalContext": "see lint.log"}}\''
    )
    hooks = hooks_for(tmp_path, source("PostToolUse", script(body)))
    runner = HookRunner(cwd=str(tmp_path))
    hooks.install(runner)
    host = DetachedHost()
    runner.bind_host(host)
    (o,) = (await hooks.engine.run("PostToolUse", {**CALL, "tool_response": {}})).outcomes
    await hooks.engine.async_tasks[o.async_task_id or ""].wait()

    ((kind, (message, trigger)),) = host.pending
    assert message["content"] == "lint found 2 issues\n\nsee lint.log"
    assert (kind, message["display"], trigger) == ("send_message", False, False)
