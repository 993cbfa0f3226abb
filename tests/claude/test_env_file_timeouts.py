"""CLAUDE_ENV_FILE sourced by a shell, and the default timeouts of each hook type and event."""

from __future__ import annotations

import asyncio
import contextlib
import os
from pathlib import Path

import pytest

from hookline.claude import env_file as env_file_module
from hookline.claude.env_file import ENV_FILE_EVENTS, source_env_file
from hookline.claude.timeouts import default_timeout, hook_timeout, stop_block_cap
from hookline.settings.models import (
    AgentHookConfig,
    CommandHookConfig,
    HttpHookConfig,
    PromptHookConfig,
)

from .conftest import ScriptFactory, command, hooks_for, source


async def _source(tmp_path: Path, text: str, env: dict[str, str] | None = None) -> dict[str, str]:
    path = tmp_path / "env.sh"
    path.write_text(text)
    base = env if env is not None else {"PATH": os.environ["PATH"], "HOME": str(tmp_path)}
    found = await source_env_file(path, base, str(tmp_path), "bash")
    assert not path.exists()  # the file is used once
    return found


async def test_env_file_forms_claude_users_write(tmp_path: Path) -> None:
    nvm = tmp_path / "nvm.sh"
    nvm.write_text('export NVM_DIR="$HOME/.nvm"\nnvm_use() { export NODE_VERSION=22; }\nnvm_use\n')
    text = "\n".join(
        [
            "export A=1",
            "declare -x B='two words'",
            f"source {nvm}",
            "eval \"$(printf 'export C=%s' three)\"",
            'export PATH="$PATH:/opt/tool/bin"',
            "NOT_EXPORTED=1",
            "echo noise; echo more noise >&2",
        ]
    )
    found = await _source(tmp_path, text)
    assert found == {
        "A": "1",
        "B": "two words",
        "NVM_DIR": f"{tmp_path}/.nvm",
        "NODE_VERSION": "22",
        "C": "three",
        "PATH": f"{os.environ['PATH']}:/opt/tool/bin",
    }


async def test_export_p_output_round_trips(tmp_path: Path) -> None:
    """``export -p > "$CLAUDE_ENV_FILE"`` (a common recipe) re-declares every variable."""
    text = (
        'declare -x SPECIAL="a \\"quoted\\" \\$dollar"\ndeclare -x HOME="' + str(tmp_path) + '"\n'
    )
    assert await _source(tmp_path, text) == {"SPECIAL": 'a "quoted" $dollar'}


async def test_env_file_that_fails_or_exits_exports_nothing_new(tmp_path: Path) -> None:
    assert await _source(tmp_path, "export A=1\nfalse\nexport B=2\n") == {"A": "1", "B": "2"}
    assert await _source(tmp_path, "export A=1\nexit 3\n") == {}
    assert await _source(tmp_path, "") == {}


async def test_env_file_that_hangs_is_killed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(env_file_module, "SOURCE_TIMEOUT", 0.3)
    assert await _source(tmp_path, "export A=1\nsleep 30\n") == {}


async def test_env_file_cannot_break_the_reader_with_python_variables(tmp_path: Path) -> None:
    text = "export PYTHONPATH=/nonexistent PYTHONHOME=/nonexistent PYTHONSTARTUP=/x\nexport OK=1\n"
    found = await _source(tmp_path, text)
    assert found["OK"] == "1" and found["PYTHONHOME"] == "/nonexistent"


async def test_session_start_exports_reach_bash_not_later_hooks(
    tmp_path: Path, script: ScriptFactory
) -> None:
    """As in Claude Code: bash commands see the exports, the hooks that run later do not."""
    out = tmp_path / "seen"
    start = script(
        """echo 'declare -x TOOLCHAIN=stable' >> "$CLAUDE_ENV_FILE"
        echo 'export TOOLS="$CLAUDE_PROJECT_DIR/bin"' >> "$CLAUDE_ENV_FILE" """
    )
    later = script(f'echo "[${{TOOLCHAIN:-}}]" > {out}')
    hooks = hooks_for(tmp_path, source("SessionStart", start), source("Stop", later))
    await hooks.engine.run("SessionStart", {"source": "startup"})
    await hooks.engine.run("Stop", {})
    assert out.read_text().strip() == "[]"
    assert "TOOLCHAIN" not in hooks.engine.hook_env()
    bash = hooks.engine.bash_env({"PATH": "/bin"})
    assert bash["TOOLCHAIN"] == "stable"
    assert bash["TOOLS"] == f"{hooks.engine.project_dir}/bin"
    assert hooks.engine.session_env == {
        "TOOLCHAIN": "stable",
        "TOOLS": f"{hooks.engine.project_dir}/bin",
    }


def test_env_file_events_are_the_documented_ones() -> None:
    assert {"Setup", "SessionStart", "CwdChanged", "FileChanged"} == ENV_FILE_EVENTS


# -- timeouts ------------------------------------------------------------------------


def test_default_timeouts_per_type_and_event() -> None:
    cmd = CommandHookConfig(type="command", command="x")
    web = HttpHookConfig(type="http", url="http://x")
    prompt = PromptHookConfig(type="prompt", prompt="p")
    agent = AgentHookConfig(type="agent", prompt="p")
    assert default_timeout(cmd, "PreToolUse", {}) == 600
    assert default_timeout(web, "Stop", {}) == 600
    assert default_timeout(prompt, "PreToolUse", {}) == 30
    assert default_timeout(agent, "Stop", {}) == 60
    assert default_timeout(cmd, "UserPromptSubmit", {}) == 30
    assert default_timeout(web, "UserPromptSubmit", {}) == 30
    assert default_timeout(cmd, "SessionEnd", {}) == 1.5
    assert default_timeout(prompt, "UserPromptSubmit", {}) == 30
    assert default_timeout(cmd, "MessageDisplay", {}) == 10
    env = {"CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS": "5000"}
    assert default_timeout(cmd, "SessionEnd", env) == 5
    assert (
        default_timeout(cmd, "SessionEnd", {"CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS": "x"}) == 1.5
    )
    own = CommandHookConfig(type="command", command="x", timeout=7)
    assert hook_timeout(own, "SessionEnd", {}) == 7


async def test_session_end_default_timeout_applies_to_a_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS", "300")
    hooks = hooks_for(tmp_path, source("SessionEnd", command("sleep 30")))
    (o,) = (await hooks.engine.run("SessionEnd", {"reason": "exit"})).outcomes
    assert o.kind == "cancelled" and "timed out after 0.3s" in (o.reason or "")


def test_stop_block_cap() -> None:
    assert stop_block_cap({}) == 8
    assert stop_block_cap({"CLAUDE_CODE_STOP_HOOK_BLOCK_CAP": "3"}) == 3
    for bad in ("0", "-2", "abc", ""):
        assert stop_block_cap({"CLAUDE_CODE_STOP_HOOK_BLOCK_CAP": bad}) == 8


async def test_a_cancelled_run_sources_nothing(tmp_path: Path, script: ScriptFactory) -> None:
    where = tmp_path / "where"
    body = (
        f'echo "export LATE=1" >> "$CLAUDE_ENV_FILE"; echo "$CLAUDE_ENV_FILE" > {where}; sleep 30'
    )
    hooks = hooks_for(tmp_path, source("SessionStart", script(body)))
    task = asyncio.ensure_future(hooks.engine.run("SessionStart", {"source": "startup"}))
    deadline = asyncio.get_running_loop().time() + 30
    while not (where.exists() and where.read_text().strip()):
        assert asyncio.get_running_loop().time() < deadline, "the hook never started"
        await asyncio.sleep(0.01)
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    assert hooks.engine.session_env == {}
    assert not Path(where.read_text().strip()).exists()
