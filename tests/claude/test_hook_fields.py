"""Command hook fields: exec form ``args``, ``shell``, ``if``, ``onFailure``, ``statusMessage``,
``asyncRewake``, and an async hook's output reaching the model on the next turn."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from hookline.claude import ClaudeHooks
from hookline.claude.conditions import condition_holds
from hookline.core.host import DetachedHost
from hookline.core.runner import HookRunner
from hookline.settings.models import CommandHookConfig
from hookline.settings.validate import check_hooks

from .conftest import ScriptFactory, command, hooks_for, source


def bash_call(line: str) -> dict[str, Any]:
    return {"tool_name": "Bash", "tool_input": {"command": line}, "tool_use_id": "t1"}


def recorder(path: Path, text: str = "ran") -> str:
    """A hook command that appends ``text`` to ``path`` (so a test sees it ran)."""
    return f"echo {text} >> {path}"


# -- exec form -------------------------------------------------------------------------


async def test_exec_form_passes_args_without_a_shell(tmp_path: Path) -> None:
    out = tmp_path / "argv.json"
    py = "import json,sys; json.dump(sys.argv[1:], open(sys.argv[1], 'w'))"
    args = ["-c", py, str(out), "a b", "$HOME; rm -rf x", "`id`"]
    hook = command("python3", args=args)
    (o,) = (await hooks_for(tmp_path, source("Stop", hook)).engine.run("Stop", {})).outcomes
    assert o.kind == "success", o.reason
    # Each argument arrives as written: no word splitting, no expansion, no command.
    assert json.loads(out.read_text()) == [str(out), "a b", "$HOME; rm -rf x", "`id`"]


async def test_exec_form_reads_stdin_and_blocks_with_exit_2(tmp_path: Path) -> None:
    py = (
        "import json,sys; d=json.load(sys.stdin); "
        "print('no ' + d['tool_input']['command'], file=sys.stderr); sys.exit(2)"
    )
    hook = command("python3", args=["-c", py])
    hooks = hooks_for(tmp_path, source("PreToolUse", hook))
    (o,) = (await hooks.engine.run("PreToolUse", bash_call("make"))).outcomes
    assert (o.kind, o.reason) == ("blocking", "no make")


async def test_exec_form_fills_project_dir_placeholders(
    tmp_path: Path, script: ScriptFactory
) -> None:
    project = tmp_path / "project"
    (project / "bin").mkdir(parents=True)
    tool = project / "bin" / "tool.sh"
    tool.write_text('#!/bin/sh\necho "$1" > "$2"\n')
    tool.chmod(0o755)
    out = tmp_path / "out"
    hook = command("${CLAUDE_PROJECT_DIR}/bin/tool.sh", args=["$CLAUDE_PROJECT_DIR", str(out)])
    (o,) = (await hooks_for(tmp_path, source("Stop", hook)).engine.run("Stop", {})).outcomes
    assert o.kind == "success", o.reason
    assert out.read_text().strip() == str(project.resolve())


async def test_exec_form_missing_program_is_a_clear_error(tmp_path: Path) -> None:
    hook = command("no-such-program-hookline", args=[])
    (o,) = (await hooks_for(tmp_path, source("Stop", hook)).engine.run("Stop", {})).outcomes
    assert o.kind == "non_blocking_error"
    assert "no-such-program-hookline" in (o.reason or "") and "PATH" in (o.reason or "")


async def test_exec_form_and_shell_form_are_different_hooks(tmp_path: Path) -> None:
    a = command("echo", args=["x; echo y"])
    b = command("echo x; echo y")
    sel = hooks_for(tmp_path, source("Stop", a, b)).engine.select("Stop", None)
    assert len(sel.hooks) == 2 and not sel.deduped


# -- shell -----------------------------------------------------------------------------


async def test_shell_sh_runs_posix_sh(tmp_path: Path) -> None:
    out = tmp_path / "shell"
    # $BASH_VERSION is set by bash only.
    hook = command(f'echo "[${{BASH_VERSION:-}}]" > {out}', shell="sh")
    bash = command(f'echo "[${{BASH_VERSION:-}}]" > {out}.bash', shell="bash")
    await hooks_for(tmp_path, source("Stop", hook, bash)).engine.run("Stop", {})
    assert out.read_text().strip() == "[]"
    if shutil.which("bash"):
        assert Path(f"{out}.bash").read_text().strip() != "[]"


async def test_powershell_without_pwsh_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    hook = command("Write-Output hi", shell="powershell")
    (o,) = (await hooks_for(tmp_path, source("Stop", hook)).engine.run("Stop", {})).outcomes
    assert o.kind == "non_blocking_error" and "pwsh" in (o.reason or "")


# -- if ------------------------------------------------------------------------------


async def test_if_runs_the_hook_only_for_matching_calls(tmp_path: Path) -> None:
    log = tmp_path / "log"
    hook = command(recorder(log), if_="Bash(git *)")
    hooks = hooks_for(tmp_path, source("PreToolUse", hook, matcher="Bash"))
    await hooks.engine.run("PreToolUse", bash_call("ls -la"))
    assert not log.exists()
    run = await hooks.engine.run("PreToolUse", bash_call("ls -la"))
    assert [s.reason for s in run.selection.skipped] == [
        "if 'Bash(git *)' does not match this input"
    ]
    await hooks.engine.run("PreToolUse", bash_call("git status"))
    assert log.read_text().split() == ["ran"]


@pytest.mark.parametrize(
    "line",
    [
        "git status; rm -rf x",
        "echo ok && rm -rf x",
        "ls | xargs rm -rf",
        "sudo rm -rf x",
        "/bin/rm -rf x",
        "true $(rm -rf x)",
        "bash -c 'rm -rf x'",
        'eval "$(echo rm) -rf x"',  # cannot be read in full: the guard runs
        "$CMD -rf x",  # a program known only at run time: the guard runs
    ],
)
async def test_a_guard_hook_behind_if_still_sees_hidden_commands(tmp_path: Path, line: str) -> None:
    """A PreToolUse deny hook guarded by ``if`` must run when any part of the line matches."""
    deny = command("echo 'no rm' >&2; exit 2", if_="Bash(rm *)")
    hooks = hooks_for(tmp_path, source("PreToolUse", deny, matcher="Bash"))
    (o,) = (await hooks.engine.run("PreToolUse", bash_call(line))).outcomes
    assert o.kind == "blocking"


async def test_if_matches_subcommands_not_the_harmless_prefix(tmp_path: Path) -> None:
    """``git status; rm -rf x`` touches ``Bash(git *)`` through its first command: it runs."""
    log = tmp_path / "log"
    hooks = hooks_for(
        tmp_path, source("PreToolUse", command(recorder(log), if_="Bash(git *)"), matcher="Bash")
    )
    await hooks.engine.run("PreToolUse", bash_call("echo hi; git push --force"))
    assert log.exists()


async def test_if_on_file_tools_uses_the_path_rule(tmp_path: Path) -> None:
    log = tmp_path / "log"
    hook = command(recorder(log), if_="Edit(/src/**)")
    hooks = hooks_for(tmp_path, source("PreToolUse", hook))
    project = hooks.engine.project_dir
    edit = {"tool_name": "Edit", "tool_input": {"file_path": f"{project}/docs/a.md"}}
    await hooks.engine.run("PreToolUse", edit)
    assert not log.exists()
    edit["tool_input"] = {"file_path": f"{project}/src/a.py"}
    await hooks.engine.run("PreToolUse", edit)
    assert log.exists()


@pytest.mark.parametrize(
    ("condition", "call"),
    [
        ("Edit(/src/**)", {"tool_name": "Write", "tool_input": {"file_path": "src/a.py"}}),
        ("Write(/src/**)", {"tool_name": "Edit", "tool_input": {"file_path": "src/a.py"}}),
        ("Edit(/src/**)", bash_call("echo x > src/main.py")),
        ("Edit", {"tool_name": "Write", "tool_input": {"file_path": "src/a.py"}}),
        ("Read(/src/**)", {"tool_name": "Grep", "tool_input": {"pattern": "x", "path": "src"}}),
    ],
)
async def test_if_names_the_calls_own_tool(
    tmp_path: Path, condition: str, call: dict[str, Any]
) -> None:
    """As in Claude Code, an ``if`` rule guards its own tool only: ``Edit(src/**)`` is not a
    Write call's nor a bash line's, although a deny rule ``Edit(src/**)`` covers both."""
    call = {**call, "cwd": str(tmp_path)}
    assert not condition_holds(condition, "PreToolUse", call, str(tmp_path))
    same = {**call, "tool_name": condition.partition("(")[0]}
    if same["tool_name"] != "Bash" and "command" not in call["tool_input"]:
        same["tool_input"] = {"file_path": "src/a.py"}
        assert condition_holds(condition, "PreToolUse", same, str(tmp_path))


async def test_if_on_a_non_tool_event_never_runs(tmp_path: Path) -> None:
    log = tmp_path / "log"
    hooks = hooks_for(tmp_path, source("Stop", command(recorder(log), if_="Bash(git *)")))
    run = await hooks.engine.run("Stop", {})
    assert not run.outcomes and not log.exists()


async def test_unreadable_if_condition_runs_the_hook(tmp_path: Path) -> None:
    assert condition_holds("Bash(git *", "PreToolUse", bash_call("ls"), str(tmp_path))
    checked = check_hooks(
        {"PreToolUse": [{"hooks": [{"type": "command", "command": "x", "if": "Bash(git *"}]}]}
    )
    (warning,) = checked.warnings
    assert warning.startswith("hooks.PreToolUse[0].hooks[0].if: not a permission rule")
    assert "runs on every matching call" in warning
    assert checked.value["PreToolUse"][0]["hooks"][0]["if"] == "Bash(git *"


async def test_guarded_copy_does_not_hide_an_unguarded_one(tmp_path: Path) -> None:
    """Same command twice, once behind ``if``: a call the condition misses still runs it."""
    log = tmp_path / "log"
    guarded = command(recorder(log), if_="Bash(git *)")
    plain = command(recorder(log))
    hooks = hooks_for(tmp_path, source("PreToolUse", guarded, plain))
    run = await hooks.engine.run("PreToolUse", bash_call("ls"))
    assert len(run.outcomes) == 1 and log.read_text().split() == ["ran"]


# -- onFailure -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "timeout", "why"),
    [
        ("exit 1", None, "hook failed"),
        ("echo '{not json' ; exit 0", None, "invalid JSON"),
        ("sleep 30", 0.3, "timed out"),
        ("kill -9 $$", None, "signal"),
    ],
)
async def test_on_failure_block_turns_failures_into_blocks(
    tmp_path: Path, body: str, timeout: float | None, why: str
) -> None:
    guard = command(body, timeout=timeout, on_failure="block")
    loose = command(body + " # same, no onFailure", timeout=timeout)
    hooks = hooks_for(tmp_path, source("PreToolUse", guard, loose))
    blocked, passed = (await hooks.engine.run("PreToolUse", bash_call("ls"))).outcomes
    assert blocked.kind == "blocking" and why in (blocked.reason or "")
    assert "onFailure: block" in (blocked.reason or "")
    assert passed.kind in ("non_blocking_error", "cancelled")
    v = (await hooks.engine.run("PreToolUse", bash_call("ls"))).verdict
    assert v.blocked


async def test_on_failure_block_keeps_success_and_real_answers(tmp_path: Path) -> None:
    ok = command("exit 0", on_failure="block")
    allow = command(
        """echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "permissionDecision": "allow"}}'""",
        on_failure="block",
    )
    hooks = hooks_for(tmp_path, source("PreToolUse", ok, allow))
    run = await hooks.engine.run("PreToolUse", bash_call("ls"))
    assert [o.kind for o in run.outcomes] == ["success", "success"]
    assert not run.verdict.blocked


# -- statusMessage --------------------------------------------------------------------


async def test_status_message_is_shown_while_the_hooks_run(tmp_path: Path) -> None:
    seen = tmp_path / "seen"
    shown: list[str | None] = []

    def status(text: str | None) -> None:
        shown.append(text)

    hook = command(f"echo running > {seen}", status_message="Checking the command…")
    other = command("true")
    hooks = hooks_for(tmp_path, source("PreToolUse", hook, other))
    await hooks.engine.run("PreToolUse", bash_call("ls"), status=status)
    assert shown == ["Checking the command…", None]
    shown.clear()
    await hooks_for(tmp_path, source("PreToolUse", other)).engine.run(
        "PreToolUse", bash_call("ls"), status=status
    )
    assert shown == []  # no message configured: nothing shown


async def test_status_message_reaches_the_ui_through_the_adapter(tmp_path: Path) -> None:
    hook = command("true", status_message="Linting")
    hooks = hooks_for(tmp_path, source("PreToolUse", hook))
    runner = HookRunner(cwd=str(tmp_path))
    hooks.install(runner)
    seen: list[tuple[str, str | None]] = []
    runner.context.ui.set_status = lambda key, text: seen.append((key, text))  # type: ignore[method-assign]
    from hookline.core.events import ToolCallEvent

    await runner.emit(ToolCallEvent(tool_call_id="t", tool_name="bash", input={"command": "ls"}))
    assert seen == [("claude-hooks", "Linting"), ("claude-hooks", None)]


# -- async output and asyncRewake -----------------------------------------------------


def _installed(hooks: ClaudeHooks, tmp_path: Path) -> DetachedHost:
    runner = HookRunner(cwd=str(tmp_path))
    hooks.install(runner)
    host = DetachedHost()
    runner.bind_host(host)
    return host


async def test_async_system_message_reaches_the_model_next_turn(tmp_path: Path) -> None:
    body = """echo '{"systemMessage": "build finished: 3 warnings"}'"""
    hooks = hooks_for(tmp_path, source("PostToolUse", command(body, run_async=True)))
    host = _installed(hooks, tmp_path)
    (o,) = (
        await hooks.engine.run("PostToolUse", {**bash_call("ls"), "tool_response": {}})
    ).outcomes
    await hooks.engine.async_tasks[o.async_task_id or ""].wait()
    ((kind, (message, trigger)),) = host.pending
    assert kind == "send_message" and not trigger
    assert message["content"] == "build finished: 3 warnings" and message["display"] is False


async def test_async_rewake_exit_2_wakes_the_model(tmp_path: Path) -> None:
    hook = command("echo 'tests failed: 2' >&2; exit 2", async_rewake=True)
    assert isinstance(hook, CommandHookConfig) and hook.background
    hooks = hooks_for(tmp_path, source("PostToolUse", hook))
    host = _installed(hooks, tmp_path)
    (o,) = (
        await hooks.engine.run("PostToolUse", {**bash_call("ls"), "tool_response": {}})
    ).outcomes
    assert o.kind == "success" and o.async_task_id  # the event did not wait for it
    final = await hooks.engine.async_tasks[o.async_task_id].wait()
    assert final.kind == "blocking"
    ((kind, (message, trigger)),) = host.pending
    assert kind == "send_message" and trigger is True
    assert "tests failed: 2" in message["content"]


async def test_async_rewake_success_does_not_wake(tmp_path: Path) -> None:
    hooks = hooks_for(tmp_path, source("PostToolUse", command("exit 0", async_rewake=True)))
    host = _installed(hooks, tmp_path)
    (o,) = (
        await hooks.engine.run("PostToolUse", {**bash_call("ls"), "tool_response": {}})
    ).outcomes
    await hooks.engine.async_tasks[o.async_task_id or ""].wait()
    assert host.pending == []


async def test_plain_async_exit_2_does_not_wake(tmp_path: Path) -> None:
    hooks = hooks_for(tmp_path, source("PostToolUse", command("exit 2", run_async=True)))
    host = _installed(hooks, tmp_path)
    (o,) = (
        await hooks.engine.run("PostToolUse", {**bash_call("ls"), "tool_response": {}})
    ).outcomes
    await hooks.engine.async_tasks[o.async_task_id or ""].wait()
    assert all(trigger is False for _, (_, trigger) in host.pending)


def test_if_on_a_non_tool_event_is_warned_about() -> None:
    checked = check_hooks(
        {"Stop": [{"hooks": [{"type": "command", "command": "x", "if": "Bash(git *)"}]}]}
    )
    (warning,) = checked.warnings
    assert warning.startswith("hooks.Stop[0].hooks[0].if: 'if' is evaluated on tool events only")
    assert warning.endswith("on Stop this hook never runs")


async def test_once_applies_to_every_hook_type(tmp_path: Path) -> None:
    log = tmp_path / "log"
    hook = command(recorder(log), once=True)
    hooks = hooks_for(tmp_path, source("Stop", hook))
    await hooks.engine.run("Stop", {})
    second = await hooks.engine.run("Stop", {})
    assert log.read_text().split() == ["ran"]
    assert [s.reason for s in second.selection.skipped] == ["once: already ran this session"]
