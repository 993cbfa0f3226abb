"""hookline's agent and a settings hook running ``hookline claude-hook``: the modules the
agent loads itself run once, and a claude-hook command is never dropped when it would
run a guard the agent does not (judged by what the hooks did: lines in a file, a file
the tool would create).
"""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path
from typing import Any

import pytest

from hookline.claude.bridge_command import SKIP_REASON, bridge_arguments, bridge_modules
from hookline.settings.models import CommandHookConfig
from tests.modes.helpers import run_cli, write_hook, write_script

COUNTING = """
def register(pi):
    @pi.on("tool_call")
    def count(event, ctx):
        with open(COUNTER, "a") as f:
            f.write(event.tool_name + "\\n")
"""

BLOCKING = """
def register(pi):
    @pi.on("tool_call")
    def block(event, ctx):
        return {"block": True, "reason": "other.py says no"}
"""

PY = sys.executable


def _project(tmp_path: Path, *hook: dict[str, Any]) -> tuple[Path, Path]:
    """The README's set-up: a counting module in ``.hookline/hooks``, ``hook`` as the
    PreToolUse settings hooks, the project trusted with ``hookline trust``."""
    project = tmp_path / "project"
    counter = tmp_path / "counter"
    write_hook(
        project / ".hookline" / "hooks" / "x.py", COUNTING.replace("COUNTER", repr(str(counter)))
    )
    settings = {"hooks": {"PreToolUse": [{"matcher": "*", "hooks": list(hook)}]}}
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text(json.dumps(settings))
    done = run_cli("trust", str(project))
    assert done.returncode == 0, done.stderr
    return project, counter


def _run(tmp_path: Path, project: Path, made: Path) -> str:
    bash = {"name": "bash", "arguments": {"command": f"touch {made}"}}
    model = write_script(tmp_path / "s.json", [{"tool_calls": [bash]}, "done"])
    done = run_cli(
        "-p", "go", "--model", model, "--no-session", "--permission-mode", "bypassPermissions",
        cwd=project,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stderr


def _command(text: str) -> dict[str, Any]:
    return {"type": "command", "command": text}


def _script(tmp_path: Path) -> str:
    """An absolute path to a ``hookline`` script, as an installed one would be."""
    script = tmp_path / "bin" / "hookline"
    script.parent.mkdir()
    script.write_text(f'#!/bin/sh\nexec {PY} -m hookline "$@"\n')
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return str(script)


SPELLINGS = {
    "python -m hookline": lambda tmp: _command(f"{PY} -m hookline claude-hook"),
    "python -m hookline.cli": lambda tmp: _command(f"{PY} -m hookline.cli claude-hook"),
    "the hookline script": lambda tmp: _command(f"{_script(tmp)} claude-hook"),
    "with its flags": lambda tmp: _command(
        f"{PY} -m hookline claude-hook --hook '$CLAUDE_PROJECT_DIR/.hookline/hooks/x.py' "
        "--trust-project"
    ),
    "exec form": lambda tmp: {"type": "command", "command": PY, "args": ["-m", "hookline",
                                                                         "claude-hook"]},
}  # fmt: skip


@pytest.mark.parametrize("spelling", sorted(SPELLINGS))
def test_the_readme_setup_runs_each_module_hook_once(tmp_path: Path, spelling: str) -> None:
    project, counter = _project(tmp_path, SPELLINGS[spelling](tmp_path))
    made = tmp_path / "made"
    _run(tmp_path, project, made)
    assert counter.read_text() == "bash\n"  # once: before the fix, twice
    assert made.exists()


def test_hooks_list_says_why_the_claude_hook_command_is_skipped(tmp_path: Path) -> None:
    project, _ = _project(tmp_path, _command(f"{PY} -m hookline claude-hook"))
    done = run_cli("hooks", "list", cwd=project)
    assert done.returncode == 0, done.stderr
    line = next(x for x in done.stdout.splitlines() if "claude-hook" in x)
    assert line.endswith(f"— skipped: {SKIP_REASON}"), done.stdout


def test_a_claude_hook_command_for_a_module_the_agent_does_not_load_runs(tmp_path: Path) -> None:
    other = write_hook(tmp_path / "other.py", BLOCKING)
    command = f"{PY} -m hookline claude-hook --no-discovery --hook {other}"
    project, counter = _project(tmp_path, _command(command))
    made = tmp_path / "made"
    stderr = _run(tmp_path, project, made)
    assert not made.exists(), stderr  # other.py's guard held
    assert counter.read_text() == "bash\n"
    listed = run_cli("hooks", "list", cwd=project).stdout
    assert SKIP_REASON not in listed


def test_settings_env_that_moves_discovery_keeps_the_claude_hook_command(tmp_path: Path) -> None:
    """With ``HOOKLINE_HOME`` set for hooks, claude-hook finds another user folder (here a
    blocking guard): what it loads is not the agent's to judge, so it runs."""
    other_home = tmp_path / "other-home"
    write_hook(other_home / "hooks" / "guard.py", BLOCKING)
    project, _ = _project(tmp_path, _command(f"{PY} -m hookline claude-hook"))
    settings = project / ".claude" / "settings.json"
    data = json.loads(settings.read_text())
    settings.write_text(json.dumps({**data, "env": {"HOOKLINE_HOME": str(other_home)}}))
    made = tmp_path / "made"
    stderr = _run(tmp_path, project, made)
    assert not made.exists(), stderr
    assert SKIP_REASON not in run_cli("hooks", "list", cwd=project).stdout


def test_a_module_that_failed_to_load_here_keeps_the_claude_hook_command(tmp_path: Path) -> None:
    """claude-hook denies while a module of its failed to load: skipping it would drop
    that fail-closed answer; the agent only reported the broken module."""
    project, _ = _project(tmp_path, _command(f"{PY} -m hookline claude-hook"))
    write_hook(project / ".hookline" / "hooks" / "y_broken.py", "x = (\n")
    made = tmp_path / "made"
    stderr = _run(tmp_path, project, made)
    assert "y_broken.py failed to load" in stderr
    assert not made.exists()


@pytest.mark.parametrize(
    "command",
    [
        "cd /tmp && hookline claude-hook",
        "hookline claude-hook 2>/dev/null",
        "hookline claude-hook --hook $HOME/x.py",
        "hookline claude-hook --unknown-flag",
        "HOOKLINE_HOME=/elsewhere hookline claude-hook",
        "hookline serve --stdio",
        "hookline claude-hook --hook",
        "echo hookline claude-hook",
        "'unclosed",
    ],
)
def test_a_command_not_fully_understood_is_never_taken_for_the_bridge(
    tmp_path: Path, command: str
) -> None:
    arguments = bridge_arguments(CommandHookConfig(type="command", command=command), "/p")
    assert arguments is None or bridge_modules(arguments, str(tmp_path)) is None


def test_the_bridge_spellings_are_read_with_their_flags(tmp_path: Path) -> None:
    def args(command: str, *rest: str) -> list[str] | None:
        spec = CommandHookConfig(type="command", command=command, args=list(rest) or None)
        return bridge_arguments(spec, "/proj")

    assert args("hookline claude-hook") == []
    assert args("/usr/local/bin/hookline claude-hook --hook=a.py") == ["--hook=a.py"]
    assert args("python3.11 -m hookline claude-hook --no-discovery") == ["--no-discovery"]
    assert args('hookline claude-hook --hook "${CLAUDE_PROJECT_DIR}/g.py"') == [
        "--hook",
        "/proj/g.py",
    ]
    assert args("hookline", "claude-hook", "--trust-project") == ["--trust-project"]
    guard = write_hook(tmp_path / "g.py", "def register(pi):\n    pass\n")
    assert bridge_modules(["--no-discovery", f"--hook={guard}"], str(tmp_path)) == [
        os.path.realpath(guard)
    ]
