"""`hookline hooks replay` on a real session file, and `hookline hooks new`'s skeleton and test."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from hookline.session import SessionManager


def hooks(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hookline.cli", "hooks", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )


def record(path: Path, project: Path, calls: list[tuple[str, str, dict[str, object], str]]) -> Path:
    """A session file holding each call and its result, as the agent records them."""
    session = SessionManager.create(project, session_dir=path)
    for name, call_id, args, output in calls:
        session.append_message(
            {
                "role": "assistant",
                "content": [{"type": "tool_call", "id": call_id, "name": name, "arguments": args}],
            }
        )
        session.append_message(
            {
                "role": "tool",
                "tool_call_id": call_id,
                "tool_name": name,
                "content": [{"type": "text", "text": output}],
                "is_error": False,
            }
        )
    session.flush()
    file = session.get_session_file()
    session.close()
    assert file is not None
    return Path(file)


def test_replay_reports_what_would_now_be_blocked_or_changed(project: Path, tmp_path: Path) -> None:
    marker = project / "ran.txt"
    session = record(
        tmp_path / "sessions",
        project,
        [
            ("bash", "c1", {"command": "ls"}, "a\nb"),
            ("bash", "c2", {"command": f"rm -rf / ; touch {marker}"}, "gone"),
            ("read", "c3", {"path": "old.txt"}, "old"),
        ],
    )
    done = hooks(project, "replay", str(session), "--json", "--trust-project")
    assert done.returncode == 1, done.stderr  # a call would now be blocked, as `hooks test`
    calls = {c["tool_call_id"]: c for c in json.loads(done.stdout)["calls"]}
    assert calls["c1"]["blocked"] is None and calls["c1"]["new_input"] is None
    assert calls["c2"]["blocked"] == "no rm -rf"
    assert calls["c3"]["new_input"] == {"path": "new.txt"}
    assert not marker.exists()  # nothing was executed
    text = hooks(project, "replay", str(session), "--trust-project")
    assert text.returncode == 1, text.stderr
    assert text.stdout.splitlines()[-1] == (
        "3 recorded tool calls: 1 would now be blocked (bash c2), 1 changed"
    )
    assert "BLOCKED  bash c2 " in text.stdout and text.stdout.count("BLOCKED") == 1


def test_replay_without_execute_runs_no_tool(project: Path, tmp_path: Path) -> None:
    marker = project / "made.txt"
    session = record(tmp_path / "s", project, [("bash", "c1", {"command": f"touch {marker}"}, "")])
    done = hooks(project, "replay", str(session), "--trust-project")
    assert done.returncode == 0, done.stderr
    last = done.stdout.splitlines()[-1]
    assert last == "1 recorded tool call: 0 would now be blocked, 0 changed"
    assert not marker.exists()
    allow = '{"permissions": {"allow": ["Bash(touch *)"]}}'
    (project / ".hookline" / "settings.json").write_text(allow)
    done = hooks(project, "replay", str(session), "--execute", "--trust-project")
    assert done.returncode == 0, done.stderr
    assert marker.exists()


def test_replay_execute_runs_only_what_the_permission_rules_allow(
    project: Path, tmp_path: Path
) -> None:
    """No one is asked during a replay: a call that would ask is denied and does not run."""
    asked = project / "asked.txt"
    denied = project / "denied.txt"
    rules = '{"permissions": {"deny": ["Bash(touch denied.txt)"]}}'
    (project / ".hookline" / "settings.json").write_text(rules)
    session = record(
        tmp_path / "s",
        project,
        [
            ("bash", "c1", {"command": f"touch {asked.name}"}, ""),
            ("bash", "c2", {"command": f"touch {denied.name}"}, ""),
        ],
    )
    done = hooks(project, "replay", str(session), "--execute", "--json", "--trust-project")
    assert done.returncode == 1, done.stderr
    calls = {c["tool_call_id"]: c for c in json.loads(done.stdout)["calls"]}
    assert calls["c1"]["blocked"] and calls["c2"]["blocked"]
    assert not asked.exists() and not denied.exists()


def test_replay_a_missing_file_is_a_clear_error(project: Path) -> None:
    done = hooks(project, "replay", "nope.jsonl")
    assert done.returncode == 2
    assert done.stderr == f"hookline hooks replay: error: no session file {project}/nope.jsonl\n"


def test_new_writes_a_typed_hook_whose_test_passes(tmp_path: Path) -> None:
    done = hooks(tmp_path, "new", "no_todo", "--event", "PreToolUse", "--dir", "hooks")
    assert done.returncode == 0, done.stderr
    hook = tmp_path / "hooks" / "no_todo.py"
    test = tmp_path / "hooks" / "tests" / "test_no_todo.py"
    assert '@pi.on("tool_call")' in hook.read_text()
    assert "ToolCallResult | None" in hook.read_text()
    # It ends with the command that runs the test: the Python hookline runs on.
    python, run_line = done.stdout.splitlines()[-1].removeprefix("run: ").split(" -m pytest ")
    assert run_line == str(test) and python in ("python", sys.executable)
    # The generated test runs through the plugin with no async plugin configured.
    run = subprocess.run(
        [
            python,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:asyncio",
            "-p",
            "no:xdist",
            str(test),
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 passed" in run.stdout


def test_new_never_overwrites_and_rejects_bad_names(tmp_path: Path) -> None:
    assert hooks(tmp_path, "new", "gate", "--dir", "h").returncode == 0
    again = hooks(tmp_path, "new", "gate", "--dir", "h")
    assert again.returncode == 2 and "exists" in again.stderr
    bad = hooks(tmp_path, "new", "my-hook", "--dir", "h")
    assert bad.returncode == 2 and "not a Python identifier" in bad.stderr
    wrong = hooks(tmp_path, "new", "x", "--event", "Stopp", "--dir", "h")
    assert wrong.returncode == 2 and "unknown event" in wrong.stderr


def test_new_says_how_to_get_pytest_when_it_is_missing(tmp_path: Path) -> None:
    code = (
        "import sys; sys.modules['pytest'] = None\n"
        "from hookline.cli import main\n"
        "sys.exit(main(['hooks', 'new', 'gate', '--dir', 'h']))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == (
        "pytest is not installed here: pip install '.[test]' in a clone of hookline "
        "(the README's Install section has the wheel, pipx and uv forms)"
    )
