"""The harness itself: the real Claude Code runs a scripted conversation with a real hook."""

from __future__ import annotations

from pathlib import Path

from harness import Call, Turn, hook_command, run_claude, run_hookline


def _settings() -> dict[str, object]:
    hook = {"type": "command", "command": hook_command("pre", exit=2, stderr="no bash today")}
    return {
        "permissions": {"allow": ["Bash"]},
        "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [hook]}]},
    }


TURNS = [Turn(calls=[Call("Bash", {"command": "touch ran.txt", "description": "x"})]), Turn("done")]


def test_claude_code_runs_a_hook_that_blocks_bash(claude: Path, tmp_path: Path) -> None:
    run = run_claude(claude, tmp_path, settings=_settings(), turns=TURNS)
    assert run.returncode == 0, run.describe()
    assert not (run.project / "ran.txt").exists()
    [result] = run.tool_results()
    assert result.is_error and "no bash today" in result.text
    [seen] = run.hook_inputs("pre")
    assert seen["tool_name"] == "Bash" and seen["tool_input"]["command"] == "touch ran.txt"


def test_hookline_runs_the_same_case(tmp_path: Path) -> None:
    run = run_hookline(tmp_path, settings=_settings(), turns=TURNS)
    assert run.returncode == 0, run.describe()
    assert not (run.project / "ran.txt").exists()
    [result] = run.tool_results()
    assert result.is_error and "no bash today" in result.text
    [seen] = run.hook_inputs("pre")
    assert seen["tool_name"] == "Bash" and seen["tool_input"]["command"] == "touch ran.txt"
