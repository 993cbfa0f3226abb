"""What an author reads when a hook or a settings entry is wrong, through the real CLI:
a did-you-mean for every typo, plain words instead of pydantic's, each failure once."""

from __future__ import annotations

import json
from pathlib import Path

from .helpers import run_cli, write_hook, write_script

TYPO_HOOK = """
    def register(pi):
        @pi.on("tool_call")
        def guard(event, ctx):
            return {"blok": True}
"""
BAD_VALUE_HOOK = """
    def register(pi):
        @pi.on("tool_call")
        def guard(event, ctx):
            return {"block": True, "reason": 5}
"""
CRASH_HOOK = """
    def helper(x):
        return x["nope"]

    def register(pi):
        @pi.on("tool_call")
        def guard(event, ctx):
            return helper({})
"""
RESULT_TYPO = (
    "unknown result key 'blok' for tool_call — did you mean 'block'? "
    "(accepted keys: block, reason, input, permission)"
)
PYDANTIC_WORDS = ("Input should", "Extra inputs", "Field required", "String should")


def _print_run(tmp_path: Path, hook_source: str, *flags: str) -> tuple[Path, str]:
    """``hookline -p`` with one bash call and ``hook_source`` loaded; (hook, stderr)."""
    hook = write_hook(tmp_path / "hook.py", hook_source)
    model = write_script(
        tmp_path / "script.json",
        [
            {"tool_calls": [{"id": "c1", "name": "bash", "arguments": {"command": "echo hi"}}]},
            {"text": "done"},
        ],
    )
    done = run_cli(
        "-p", "go", "--model", model, "--hook", str(hook), "--cwd", str(tmp_path),
        "--no-session", *flags,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout == "done\n"
    return hook, done.stderr


def _assert_once_each_line_one_path(stderr: str, needle: str, hook: Path) -> None:
    assert stderr.count(needle) == 1, stderr
    for line in stderr.splitlines():
        assert line.count(str(hook)) <= 1, line
    assert not any(words in stderr for words in PYDANTIC_WORDS), stderr


def test_a_result_key_typo_gets_did_you_mean_once(tmp_path: Path) -> None:
    hook, stderr = _print_run(tmp_path, TYPO_HOOK)
    assert f"hookline: error: hook {hook} failed on tool_call: {RESULT_TYPO}; " in stderr
    assert "InvalidResultError" not in stderr
    _assert_once_each_line_one_path(stderr, "unknown result key", hook)
    assert (
        f"hookline: 1 tool call denied: bash (c1): its hook {hook} failed (error above)" in stderr
    )


def test_a_result_key_typo_under_verbose_has_no_internal_traceback(tmp_path: Path) -> None:
    """The invalid result is found by hookline, not in the hook's code: nothing to show."""
    hook, stderr = _print_run(tmp_path, TYPO_HOOK, "--verbose")
    assert "Traceback" not in stderr and "InvalidResultError" not in stderr
    _assert_once_each_line_one_path(stderr, "unknown result key", hook)
    assert f"     [x] blocked: its hook {hook} failed (error above)" in stderr


def test_a_result_value_of_the_wrong_type_says_what_was_expected(tmp_path: Path) -> None:
    hook, stderr = _print_run(tmp_path, BAD_VALUE_HOOK)
    assert "invalid tool_call result: reason: expected a string, got int 5" in stderr
    _assert_once_each_line_one_path(stderr, "invalid tool_call result", hook)


def test_a_crashing_hook_is_reported_once_per_call(tmp_path: Path) -> None:
    hook, stderr = _print_run(tmp_path, CRASH_HOOK)
    assert f"hookline: error: hook {hook}:2 failed on tool_call: KeyError: 'nope'" in stderr
    _assert_once_each_line_one_path(stderr, "KeyError", hook)


def test_a_crashing_hook_under_verbose_is_reported_once_with_its_frames(tmp_path: Path) -> None:
    hook, stderr = _print_run(tmp_path, CRASH_HOOK, "--verbose")
    assert stderr.count("KeyError: 'nope'") == 2  # the line, and the traceback's last line
    assert f"     [x] blocked: its hook {hook} failed (error above)" in stderr
    trace = stderr[stderr.index("Traceback") : stderr.index("KeyError: 'nope'\n")]
    assert trace.count(f'File "{hook}"') == 2
    assert "hookline" not in trace.replace(str(tmp_path), "")


def test_hooks_test_says_the_result_typo_once(tmp_path: Path) -> None:
    hook = write_hook(tmp_path / "hook.py", TYPO_HOOK)
    payload = tmp_path / "in.json"
    payload.write_text(json.dumps({"tool_name": "bash", "input": {"command": "ls"}}))
    done = run_cli(
        "hooks", "test", "tool_call", "--input", str(payload), "--hook", str(hook),
        "--cwd", str(tmp_path),
    )  # fmt: skip
    assert done.returncode == 2
    assert f"  error {hook}: {RESULT_TYPO}; the call is blocked" in done.stdout
    assert f"Combined result: blocked: its hook {hook} failed (error above)" in done.stdout
    _assert_once_each_line_one_path(done.stdout, "unknown result key", hook)


def test_hooks_test_suggests_a_payload_field(tmp_path: Path) -> None:
    payload = tmp_path / "in.json"
    payload.write_text(json.dumps({"tool_name": "bash", "inpt": {"command": "ls"}}))
    done = run_cli("hooks", "test", "tool_call", "--input", str(payload), "--cwd", str(tmp_path))
    assert done.returncode == 2
    assert "tool_call: unknown field 'inpt' (did you mean 'input'?)" in done.stderr


SETTINGS_TYPOS = {
    "hookTimeout": "x",
    "hooks": {
        "PreToolUses": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}],
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [
                    {"type": "comand", "command": "true"},
                    {"type": "command", "comand": "true"},
                    {"type": "command", "command": "true", "timeout": "ten"},
                ],
            },
            {"matchr": "Bash", "hooks": []},
        ],
    },
}


def test_settings_typos_are_each_a_warning_with_did_you_mean(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / ".claude").mkdir(parents=True)
    path = project / ".claude" / "settings.json"
    path.write_text(json.dumps(SETTINGS_TYPOS))
    model = write_script(tmp_path / "script.json", [{"text": "done"}])
    done = run_cli(
        "-p", "go", "--model", model, "--cwd", str(project), "--trust-project", "--no-session"
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    where = f"hookline: settings: {path}: hooks.PreToolUse"
    expected = [
        f"{where}s: unknown event 'PreToolUses' (did you mean 'PreToolUse'?); skipped",
        f"{where}[0].hooks[0].type: unknown hook type 'comand' (did you mean 'command'?); "
        "hook skipped",
        f"{where}[0].hooks[1].comand: unknown key 'comand' in a command hook (did you mean "
        "'command'?); hook skipped",
        f"{where}[0].hooks[2].timeout: expected a number, got str 'ten'; hook skipped",
        f"{where}[1].matchr: unknown key 'matchr' in a matcher group (did you mean 'matcher'?); "
        "matcher group skipped",
        f"hookline: settings: {path}: hookTimeout: expected an integer, got str 'x'; ignored",
    ]
    lines = done.stderr.splitlines()
    for line in expected:
        assert lines.count(line) == 1, (line, done.stderr)
    assert not any(words in done.stderr for words in PYDANTIC_WORDS), done.stderr
