"""The CLI face of plugins and model choice: ``--plugin-dir`` and ``HOOKLINE_MODEL``."""

from __future__ import annotations

import json
import os
from pathlib import Path

from .helpers import run_cli, write_script


def test_plugin_dir_relative_to_cwd_runs_its_hooks(tmp_path: Path) -> None:
    project = tmp_path / "project"
    plugin = project / "tools" / "my-plugin"
    (plugin / "hooks").mkdir(parents=True)
    (plugin / ".claude-plugin").mkdir()
    (plugin / ".claude-plugin" / "plugin.json").write_text(json.dumps({"name": "mine"}))
    record = tmp_path / "seen.json"
    hook = plugin / "hooks" / "guard.sh"
    hook.write_text(f"#!/bin/sh\ncat > {record}\necho 'no bash today' >&2\nexit 2\n")
    hook.chmod(0o755)
    (plugin / "hooks" / "hooks.json").write_text(
        json.dumps(
            {
                "hooks": {
                    "PreToolUse": [
                        {
                            "matcher": "Bash",
                            "hooks": [
                                {
                                    "type": "command",
                                    "command": "${CLAUDE_PLUGIN_ROOT}/hooks/guard.sh",
                                }
                            ],
                        }
                    ]
                }
            }
        )
    )
    model = write_script(
        tmp_path / "s.json",
        [
            {"tool_calls": [{"name": "bash", "arguments": {"command": "echo hi"}}]},
            {"text": "done", "expect_tool_result_contains": "no bash today"},
        ],
    )
    done = run_cli(
        "-p", "go", "--model", model, "--cwd", str(project), "--plugin-dir", "tools/my-plugin",
        "--no-session",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "done" in done.stdout
    assert json.loads(record.read_text())["tool_input"] == {"command": "echo hi"}


def test_hookline_model_env_picks_the_model(tmp_path: Path) -> None:
    model = write_script(tmp_path / "env.json", ["FROM-ENV-MODEL"])
    env = {**os.environ, "HOOKLINE_MODEL": model}
    done = run_cli("-p", "hi", "--no-session", "--cwd", str(tmp_path), env=env)
    assert done.returncode == 0, done.stderr
    assert "FROM-ENV-MODEL" in done.stdout


def test_bad_hookline_model_names_its_source(tmp_path: Path) -> None:
    env = {**os.environ, "HOOKLINE_MODEL": "nonsense"}
    done = run_cli("-p", "hi", "--no-session", "--cwd", str(tmp_path), env=env)
    assert done.returncode == 2
    assert "HOOKLINE_MODEL: invalid model 'nonsense'" in done.stderr
