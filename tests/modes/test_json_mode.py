"""JSON mode (``--mode json -p``): every event one JSON line on stdout, in order."""

from __future__ import annotations

import subprocess
from pathlib import Path

from .helpers import (
    CLI,
    TIMEOUT,
    assert_in_order,
    json_lines,
    run_cli,
    types_of,
    write_hook,
    write_script,
)

NOTIFY_HOOK = """
    def register(pi):
        @pi.on("agent_start")
        def hello(event, ctx):
            ctx.ui.notify("from a hook", "info")
"""


def test_every_line_is_an_event_and_the_lifecycle_is_in_order(tmp_path: Path) -> None:
    hook = write_hook(tmp_path / "notify.py", NOTIFY_HOOK)
    model = write_script(
        tmp_path / "script.json",
        [
            {
                "text": "Looking.",
                "tool_calls": [{"id": "call_ls", "name": "ls", "arguments": {"path": "."}}],
            },
            {"text": "All done."},
        ],
    )
    (tmp_path / "a.txt").write_text("a")

    done = run_cli(
        "--mode", "json", "-p", "hello", "--model", model, "--hook", str(hook),
        "--cwd", str(tmp_path),
    )  # fmt: skip

    assert done.returncode == 0, done.stderr
    events = json_lines(done.stdout)  # fails on any non-JSON line
    assert all(isinstance(e.get("type"), str) for e in events)
    names = types_of(events)
    assert names[0] == "session_start"
    assert names[-1] == "session_shutdown"
    assert_in_order(
        names,
        [
            "session_start",
            "input",
            "before_agent_start",
            "agent_start",
            "turn_start",
            "context",
            "tool_execution_start",
            "tool_call",
            "tool_result",
            "tool_execution_end",
            "turn_end",
            "turn_start",
            "turn_end",
            "agent_end",
            "session_shutdown",
        ],
    )
    by_type = {e["type"]: e for e in reversed(events)}  # first occurrence of each
    assert by_type["session_start"]["source"] == "startup"
    assert by_type["session_start"]["session_file"]
    assert by_type["input"]["text"] == "hello"
    assert by_type["input"]["source"] == "print"
    assert by_type["before_agent_start"]["prompt"] == "hello"
    assert "system_prompt" in by_type["before_agent_start"]
    assert by_type["turn_start"]["turn_index"] == 0
    call = by_type["tool_call"]
    assert call["tool_name"] == "ls"
    assert call["tool_call_id"] == "call_ls"
    assert call["input"] == {"path": "."}
    result = by_type["tool_result"]
    assert result["tool_call_id"] == "call_ls"
    assert result["is_error"] is False
    assert "a.txt" in result["content"][0]["text"]
    end = by_type["tool_execution_end"]
    assert end["tool_call_id"] == "call_ls" and end["is_error"] is False
    turn_ends = [e for e in events if e["type"] == "turn_end"]
    assert [e["turn_index"] for e in turn_ends] == [0, 1]
    assert turn_ends[0]["tool_call_ids"] == ["call_ls"]
    assert [e["stop_reason"] for e in turn_ends] == ["tool_use", "stop"]
    # lists already sent as `message` lines are referred to, not repeated
    agent_end = by_type["agent_end"]
    assert agent_end["message_count"] == 4 and "messages" not in agent_end
    roles = [e["message"]["role"] for e in events if e["type"] == "message"]
    assert roles == ["user", "assistant", "tool", "assistant"]
    assert by_type["session_shutdown"]["reason"] == "quit"
    # the answer is inside the events, never printed as text; notifications go to stderr
    assert "All done." not in [line.strip() for line in done.stdout.splitlines()]
    assert "[info] from a hook" in done.stderr


def test_json_mode_exits_1_when_the_model_errors(tmp_path: Path) -> None:
    model = write_script(tmp_path / "script.json", [{"error": "bad request"}])

    done = run_cli(
        "--mode", "json", "-p", "hello", "--model", model, "--no-session", "--cwd", str(tmp_path)
    )  # fmt: skip

    assert done.returncode == 1
    events = json_lines(done.stdout)
    assert types_of(events)[-1] == "session_shutdown"
    final = [e for e in events if e["type"] == "turn_end"][-1]
    assert final["stop_reason"] == "error"
    assert "bad request" in done.stderr


def test_a_reader_that_goes_away_is_no_crash(tmp_path: Path) -> None:
    # `hookline --mode json -p ... | head -1`: the rest of the run goes on, quietly.
    marker = tmp_path / "shutdown-ran"
    hook = write_hook(
        tmp_path / "bye.py",
        f"""
        def register(pi):
            @pi.on("session_shutdown")
            def bye(event, ctx):
                open({str(marker)!r}, "w").close()
        """,
    )
    model = write_script(tmp_path / "script.json", [{"text": "late", "delay_ms": 300}])
    proc = subprocess.Popen(
        [*CLI, "--mode", "json", "-p", "hi", "--model", model, "--hook", str(hook),
         "--no-session", "--cwd", str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        assert proc.stdout is not None and proc.stderr is not None
        assert json_lines(proc.stdout.readline().decode())[0]["type"] == "session_start"
        proc.stdout.close()  # before the delayed answer is written
        err = proc.stderr.read().decode()
        assert proc.wait(TIMEOUT) == 0, err
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert "Traceback" not in err and "BrokenPipe" not in err, err
    assert marker.exists()
