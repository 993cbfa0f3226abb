"""What Claude Code's own marks look like in ``hookline -p`` and json mode: ``CLAUDECODE=1``
and ``CLAUDE_CODE_ENTRYPOINT=sdk-cli`` reach settings hooks and bash, and no Notification
announces a prompt that is never shown."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from hookline.core.host import RunMode, agent_env

from .helpers import run_cli, write_script

MARKS = ("CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT")


def unmarked_env(**extra: str) -> dict[str, str]:
    """This process's environment without Claude Code's marks (a test may run inside it)."""
    env = {k: v for k, v in os.environ.items() if k not in MARKS}
    return {**env, **extra}


def env_dump_hook(out: Path) -> dict[str, object]:
    """A command hook that writes its environment as JSON to ``out``."""
    py = f"import json,os; json.dump(dict(os.environ), open({str(out)!r}, 'w'))"
    return {"type": "command", "command": "python3", "args": ["-c", py]}


def write_settings(path: Path, hooks: dict[str, object]) -> str:
    path.write_text(json.dumps({"hooks": hooks}), encoding="utf-8")
    return str(path)


def bash_reads_the_marks(expect: str) -> list[dict[str, object]]:
    command = 'echo "[$CLAUDECODE|$CLAUDE_CODE_ENTRYPOINT]"'
    return [
        {"tool_calls": [{"name": "bash", "arguments": {"command": command}}]},
        {"text": "done", "expect_tool_result_contains": expect},
    ]


@pytest.mark.parametrize("mode", [("-p",), ("--mode", "json", "-p")], ids=["print", "json"])
def test_hooks_and_bash_are_marked_sdk_cli(tmp_path: Path, mode: tuple[str, ...]) -> None:
    seen = tmp_path / "hook-env.json"
    settings = write_settings(
        tmp_path / "settings.json", {"UserPromptSubmit": [{"hooks": [env_dump_hook(seen)]}]}
    )
    model = write_script(tmp_path / "script.json", bash_reads_the_marks("[1|sdk-cli]"))

    done = run_cli(*mode, "go", "--model", model, "--cwd", str(tmp_path), "--settings", settings,
                   "--permission-mode", "bypassPermissions", env=unmarked_env())  # fmt: skip

    assert done.returncode == 0, done.stderr
    hook_env = json.loads(seen.read_text())
    assert (hook_env["CLAUDECODE"], hook_env["CLAUDE_CODE_ENTRYPOINT"]) == ("1", "sdk-cli")


def test_bash_is_marked_without_settings_hooks(tmp_path: Path) -> None:
    model = write_script(tmp_path / "script.json", bash_reads_the_marks("[1|sdk-cli]"))
    done = run_cli("-p", "go", "--model", model, "--cwd", str(tmp_path),
                   "--permission-mode", "bypassPermissions", env=unmarked_env())  # fmt: skip
    assert done.returncode == 0, done.stderr


def test_an_entrypoint_set_by_whoever_started_hookline_is_kept(tmp_path: Path) -> None:
    model = write_script(tmp_path / "script.json", bash_reads_the_marks("[1|sdk-py]"))
    done = run_cli("-p", "go", "--model", model, "--cwd", str(tmp_path),
                   "--permission-mode", "bypassPermissions",
                   env=unmarked_env(CLAUDE_CODE_ENTRYPOINT="sdk-py"))  # fmt: skip
    assert done.returncode == 0, done.stderr


def test_no_permission_prompt_notification_where_no_prompt_is_shown(tmp_path: Path) -> None:
    noted = tmp_path / "notification.json"
    settings = write_settings(
        tmp_path / "settings.json", {"Notification": [{"hooks": [env_dump_hook(noted)]}]}
    )
    model = write_script(
        tmp_path / "script.json",
        [
            {"tool_calls": [{"name": "write", "arguments": {"path": "new.txt", "content": "x"}}]},
            {"text": "denied", "expect_tool_result_contains": "there is no UI to ask"},
        ],
    )

    done = run_cli("-p", "go", "--model", model, "--cwd", str(tmp_path), "--settings", settings,
                   "--permission-mode", "default")  # fmt: skip

    assert done.returncode == 0, done.stderr
    assert done.stdout == "denied\n"
    assert not (tmp_path / "new.txt").exists()
    assert not noted.exists()


@pytest.mark.parametrize(
    ("mode", "entrypoint"),
    [("interactive", "cli"), ("print", "sdk-cli"), ("json", "sdk-cli"), ("rpc", "sdk-cli"),
     ("serve", "sdk-cli")],
)  # fmt: skip
def test_the_entrypoint_of_each_run_mode(mode: RunMode, entrypoint: str) -> None:
    env = agent_env(mode, {"PATH": "/bin", "CLAUDECODE": "0"})
    assert env == {"PATH": "/bin", "CLAUDECODE": "1", "CLAUDE_CODE_ENTRYPOINT": entrypoint}
