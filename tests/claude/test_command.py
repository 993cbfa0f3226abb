"""Command hooks as real shell scripts: exit codes, JSON fields, limits, env, timeouts."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

from hookline.claude import ClaudeHooks, Outcome

from .conftest import ScriptFactory, command, hooks_for, pid_alive, source

BASH_CALL = {"tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "toolu_1"}


async def run_one(tmp_path: Path, cmd: str, event: str = "PreToolUse", **kw: Any) -> Outcome:
    hooks = hooks_for(tmp_path, source(event, command(cmd, **kw)))
    fields = BASH_CALL if event == "PreToolUse" else {"prompt": "hi"}
    (outcome,) = (await hooks.engine.run(event, dict(fields))).outcomes
    return outcome


async def test_exit_0_is_success(tmp_path: Path, script: ScriptFactory) -> None:
    o = await run_one(tmp_path, script("exit 0"))
    assert (o.kind, o.exit_code, o.reason) == ("success", 0, None)
    assert o.hook_type == "command" and o.event == "PreToolUse" and o.scope == "project"
    assert o.duration > 0


async def test_exit_2_blocks_with_stderr(tmp_path: Path, script: ScriptFactory) -> None:
    o = await run_one(tmp_path, script("echo ignored; echo 'no rm please' >&2; exit 2"))
    assert (o.kind, o.reason) == ("blocking", "no rm please")


async def test_exit_1_is_non_blocking_error(tmp_path: Path, script: ScriptFactory) -> None:
    o = await run_one(tmp_path, script("echo 'linter broke' >&2; exit 1"))
    assert o.kind == "non_blocking_error"
    assert o.reason is not None and "linter broke" in o.reason and "1" in o.reason


async def json_outcome(
    tmp_path: Path, script: ScriptFactory, obj: Any, event: str = "PreToolUse"
) -> Outcome:
    path = tmp_path / f"out{time.monotonic_ns()}.json"
    path.write_text(obj if isinstance(obj, str) else json.dumps(obj))
    return await run_one(tmp_path, script(f"cat > /dev/null; cat {path}"), event)


async def test_continue_false_with_stop_reason(tmp_path: Path, script: ScriptFactory) -> None:
    o = await json_outcome(tmp_path, script, {"continue": False, "stopReason": "build broken"})
    assert (o.kind, o.continue_, o.stop_reason, o.reason) == (
        "blocking",
        False,
        "build broken",
        "build broken",
    )


async def test_suppress_output_and_system_message(tmp_path: Path, script: ScriptFactory) -> None:
    o = await json_outcome(tmp_path, script, {"suppressOutput": True, "systemMessage": "heads up"})
    assert (o.kind, o.suppress_output, o.system_message) == ("success", True, "heads up")


async def test_decision_block_with_reason(tmp_path: Path, script: ScriptFactory) -> None:
    o = await json_outcome(
        tmp_path, script, {"decision": "block", "reason": "not now"}, "UserPromptSubmit"
    )
    assert (o.kind, o.decision, o.reason) == ("blocking", "block", "not now")


async def test_legacy_approve_is_allow(tmp_path: Path, script: ScriptFactory) -> None:
    o = await json_outcome(tmp_path, script, {"decision": "approve", "reason": "fine"})
    assert (o.kind, o.permission_decision, o.permission_decision_reason) == (
        "success",
        "allow",
        "fine",
    )


@pytest.mark.parametrize(
    ("decision", "kind"), [("allow", "success"), ("deny", "blocking"), ("ask", "success")]
)
async def test_permission_decision(
    tmp_path: Path, script: ScriptFactory, decision: str, kind: str
) -> None:
    spec = {
        "hookEventName": "PreToolUse",
        "permissionDecision": decision,
        "permissionDecisionReason": "why",
    }
    o = await json_outcome(tmp_path, script, {"hookSpecificOutput": spec})
    assert (o.kind, o.permission_decision, o.permission_decision_reason) == (kind, decision, "why")


async def test_updated_input_and_additional_context(tmp_path: Path, script: ScriptFactory) -> None:
    spec = {
        "permissionDecision": "allow",
        "updatedInput": {"command": "ls -la"},
        "additionalContext": "ctx",
    }
    o = await json_outcome(tmp_path, script, {"hookSpecificOutput": spec})
    assert (o.updated_input, o.additional_context) == ({"command": "ls -la"}, "ctx")


async def test_permission_request_decision(tmp_path: Path, script: ScriptFactory) -> None:
    spec = {
        "hookEventName": "PermissionRequest",
        "decision": {"behavior": "deny", "message": "nope"},
    }
    path = tmp_path / "pr.json"
    path.write_text(json.dumps({"hookSpecificOutput": spec}))
    hooks = hooks_for(tmp_path, source("PermissionRequest", f"cat {path}"))
    (o,) = (
        await hooks.engine.run("PermissionRequest", {"tool_name": "Bash", "tool_input": {}})
    ).outcomes
    assert (o.kind, o.permission_behavior, o.reason) == ("blocking", "deny", "nope")


async def test_invalid_json_names_the_problem(tmp_path: Path, script: ScriptFactory) -> None:
    o = await json_outcome(tmp_path, script, '{"decision": "block",')
    assert o.kind == "non_blocking_error"
    assert o.reason is not None and o.reason.startswith("hook printed invalid JSON")


@pytest.mark.parametrize(
    ("obj", "text"),
    [
        ({"continue": "no"}, "'continue' must be a boolean"),
        ({"decision": "maybe"}, "'decision' must be"),
        ({"hookSpecificOutput": {"permissionDecision": "perhaps"}}, "allow, deny, ask or defer"),
        ({"hookSpecificOutput": {"hookEventName": "PostToolUse"}}, "but the event is 'PreToolUse'"),
        ({"hookSpecificOutput": {"updatedInput": "x"}}, "must be an object"),
    ],
)
async def test_wrong_field_types_are_non_blocking(
    tmp_path: Path, script: ScriptFactory, obj: Any, text: str
) -> None:
    o = await json_outcome(tmp_path, script, obj)
    assert o.kind == "non_blocking_error" and o.reason is not None and text in o.reason


async def test_plain_stdout_is_context_for_prompt_submit_only(
    tmp_path: Path, script: ScriptFactory
) -> None:
    o = await run_one(tmp_path, script("echo 'remember the tests'"), "UserPromptSubmit")
    assert (o.kind, o.additional_context) == ("success", "remember the tests")
    o = await run_one(tmp_path, script("echo 'just a log line'"))
    assert (o.kind, o.additional_context) == ("success", None)


async def test_timeout_kills_hook_and_its_background_child(
    tmp_path: Path, script: ScriptFactory
) -> None:
    pidfile = tmp_path / "child.pid"
    body = f"sleep 30 &\necho $! > {pidfile}\nsleep 30 | cat\n"
    started = time.monotonic()
    o = await run_one(tmp_path, script(body), timeout=0.5)
    assert time.monotonic() - started < 5
    assert (o.kind, o.reason) == ("cancelled", "hook timed out after 0.5s")
    child = int(pidfile.read_text())
    deadline = time.monotonic() + 2
    while pid_alive(child) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not pid_alive(child)


async def test_exit_2_blocks_at_once_though_a_background_child_holds_stdout(
    tmp_path: Path, script: ScriptFactory
) -> None:
    # common in real hooks: `(notify-send ... &); exit 2`; the timeout is far away, so a hook
    # judged by its pipes instead of its exit would come back "timed out" and not block
    pidfile = tmp_path / "child.pid"
    body = f"(sleep 30 & echo $! > {pidfile})\necho 'no rm please' >&2\nexit 2\n"
    o = await run_one(tmp_path, script(body), timeout=25)
    assert (o.kind, o.reason) == ("blocking", "no rm please")
    child = int(pidfile.read_text())
    deadline = time.monotonic() + 5
    while pid_alive(child) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not pid_alive(child), "the hook's background child outlived the hook"


async def test_a_setsid_child_of_a_hook_survives_without_holding_up_the_verdict(
    tmp_path: Path, script: ScriptFactory
) -> None:
    # leaving the process group with setsid is the documented way to keep a helper running
    pidfile = tmp_path / "setsid.pid"
    body = (
        "setsid sleep 30 & pid=$!\n"
        'until read -r _ _ _ _ _ sid _ < /proc/$pid/stat && [ "$sid" = "$pid" ]; do :; done\n'
        f"echo $pid > {pidfile}\n"
        "echo 'blocked anyway' >&2; exit 2\n"
    )
    o = await run_one(tmp_path, script(body), timeout=25)
    child = int(pidfile.read_text())
    try:
        assert (o.kind, o.reason) == ("blocking", "blocked anyway")
        assert pid_alive(child)
    finally:
        os.kill(child, 9)


async def test_large_output_is_bounded_and_reported(tmp_path: Path, script: ScriptFactory) -> None:
    o = await run_one(tmp_path, script("head -c 10485760 /dev/zero | tr '\\0' a"))
    assert o.kind == "success"
    assert o.stdout_bytes == 10 * 1024 * 1024 and o.stdout_truncated
    assert len(o.stdout) == 1024 * 1024
    assert o.notes == [
        f"stdout cut: {10 * 1024 * 1024 - 1024 * 1024} of {10 * 1024 * 1024} bytes dropped"
    ]


async def test_non_utf8_bytes_are_replaced(tmp_path: Path, script: ScriptFactory) -> None:
    o = await run_one(tmp_path, script("printf 'bad \\xff\\xfe bytes' >&2; exit 2"))
    assert o.kind == "blocking" and o.reason == "bad \ufffd\ufffd bytes"


async def test_missing_interpreter(tmp_path: Path, script: ScriptFactory) -> None:
    o = await run_one(tmp_path, script("echo hi", shebang="#!/nonexistent/interp"))
    assert o.kind == "non_blocking_error"
    assert o.reason is not None and o.reason.startswith(
        "command or interpreter not found (exit 127)"
    )


async def test_command_not_found(tmp_path: Path) -> None:
    o = await run_one(tmp_path, "definitely-not-a-command-xyz --flag")
    assert o.kind == "non_blocking_error" and o.exit_code == 127
    assert o.reason is not None and "definitely-not-a-command-xyz" in o.reason


async def test_project_dir_env(tmp_path: Path, script: ScriptFactory) -> None:
    out = tmp_path / "env.txt"
    await run_one(
        tmp_path, script(f'echo "$CLAUDE_PROJECT_DIR|$HOOKLINE_PROJECT_DIR|$PWD" > {out}')
    )
    project = str((tmp_path / "project").resolve())
    assert out.read_text().strip() == f"{project}|{project}|{project}"


async def test_shell_prefix(
    tmp_path: Path, script: ScriptFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "prefix.log"
    prefix = script(f'echo "$@" >> {log}\nexec "$@"')
    monkeypatch.setenv("CLAUDE_CODE_SHELL_PREFIX", prefix)
    hook = script("echo 'from hook' >&2; exit 2")
    o = await run_one(tmp_path, hook)
    assert (o.kind, o.reason) == ("blocking", "from hook")
    assert log.read_text().strip() == hook


async def test_hooks_run_in_parallel(tmp_path: Path) -> None:
    hooks = hooks_for(tmp_path, source("PreToolUse", *(f"sleep 0.5; echo {i}" for i in range(10))))
    started = time.monotonic()
    run = await hooks.engine.run("PreToolUse", dict(BASH_CALL))
    elapsed = time.monotonic() - started
    assert [o.kind for o in run.outcomes] == ["success"] * 10
    assert elapsed < 3.0, elapsed  # serially it would take 5 s


async def test_abort_signal_cancels(tmp_path: Path) -> None:
    import asyncio

    hooks = hooks_for(tmp_path, source("PreToolUse", "sleep 20"))
    signal = asyncio.Event()
    asyncio.get_running_loop().call_later(0.2, signal.set)
    started = time.monotonic()
    (o,) = (await hooks.engine.run("PreToolUse", dict(BASH_CALL), signal=signal)).outcomes
    assert (o.kind, o.reason) == ("cancelled", "hook aborted")
    assert time.monotonic() - started < 5


async def test_outcome_listener_gets_every_run(tmp_path: Path) -> None:
    hooks: ClaudeHooks = hooks_for(tmp_path, source("PreToolUse", "exit 0", "exit 1"))
    seen: list[str] = []
    hooks.engine.on_outcome(lambda o: seen.append(o.kind))
    runs: list[int] = []
    hooks.engine.on_run(lambda r: runs.append(len(r.outcomes)))
    await hooks.engine.run("PreToolUse", dict(BASH_CALL))
    assert seen == ["success", "non_blocking_error"] and runs == [2]
    assert json.dumps(hooks.engine.select("PreToolUse", "Bash").to_dict())
