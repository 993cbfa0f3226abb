"""``hookline serve --stdio``: another agent's events in, the hooks' answers out."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .helpers import Line, json_lines, run_cli, write_hook

RULES = """
    def register(pi):
        @pi.on("tool_call")
        async def block(event, ctx):
            if "rm " in event.input.get("command", ""):
                return {"block": True, "reason": "no rm here"}
            if event.input.get("command") == "ls":
                return {"input": {"command": "ls -la"}}

        @pi.on("tool_result")
        async def redact(event, ctx):
            if "secret" in event.content[0]["text"]:
                return {"content": [{"type": "text", "text": "REDACTED"}]}

        @pi.on("input")
        async def quick(event, ctx):
            if event.text == "ping":
                return {"handled": True}
            if event.text.startswith("?quick "):
                return {"text": "Respond briefly: " + event.text[7:]}

        @pi.on("before_agent_start")
        async def system(event, ctx):
            ctx.set_system_prompt(event.system_prompt + " RULE")

        @pi.on("session_start")
        async def started(event, ctx):
            with open(RECORD, "w") as f:
                f.write(event.source)

        @pi.on("turn_start")
        async def unused(event, ctx):
            raise RuntimeError("never asked")
"""


def _serve(tmp_path: Path, *requests: object) -> list[dict[str, object]]:
    record = tmp_path / "record.txt"
    hook = write_hook(tmp_path / "rules.py", RULES.replace("RECORD", repr(str(record))))
    lines = "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in requests)
    done = run_cli("serve", "--stdio", "--no-session", "--hook", str(hook),
                   "--cwd", str(tmp_path), stdin=lines)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    return json_lines(done.stdout)


def _call(name: str, command: str) -> dict[str, object]:
    return {"toolName": name, "toolCallId": "c1", "input": {"command": command}}


def test_each_event_gets_the_hooks_answer_in_the_hosts_names(tmp_path: Path) -> None:
    answers = _serve(
        tmp_path,
        {"id": 1, "type": "session_start", "data": {"reason": "startup"}},
        {"id": 2, "type": "tool_call", "data": _call("bash", "rm -rf x")},
        {"id": 3, "type": "tool_call", "data": _call("bash", "ls")},
        {"id": 4, "type": "tool_call", "data": _call("bash", "echo ok")},
        {
            "id": 5,
            "type": "tool_result",
            "data": {
                **_call("bash", "cat"),
                "isError": False,
                "content": [{"type": "text", "text": "the secret"}],
            },
        },
        {
            "id": 6,
            "type": "tool_result",
            "data": {**_call("bash", "cat"), "content": [{"type": "text", "text": "public"}]},
        },
        {"id": 7, "type": "input", "data": {"text": "?quick hi", "source": "rpc"}},
        {"id": 8, "type": "input", "data": {"text": "ping", "source": "rpc"}},
        {"id": 9, "type": "input", "data": {"text": "hello", "source": "rpc"}},
        {"id": 10, "type": "before_agent_start", "data": {"prompt": "p", "systemPrompt": "S"}},
    )
    results = {a["id"]: a.get("result") for a in answers}
    assert (tmp_path / "record.txt").read_text() == "startup"
    assert results[1] is None
    assert results[2] == {"block": True, "reason": "no rm here"}
    assert results[3] == {"input": {"command": "ls -la"}}
    assert results[4] is None
    assert results[5] == {"content": [{"type": "text", "text": "REDACTED"}]}
    assert results[6] is None
    assert results[7] is not None and results[7]["action"] == "transform"  # type: ignore[index]
    assert results[7]["text"] == "Respond briefly: hi"  # type: ignore[index]
    assert results[8] == {"action": "handled"}
    assert results[9] == {"action": "continue"}
    assert results[10] == {"systemPrompt": "S RULE"}
    assert [a["id"] for a in answers] == list(range(1, 11))  # one answer each, in order


def test_a_bad_request_is_answered_and_an_undecidable_tool_call_is_blocked(
    tmp_path: Path,
) -> None:
    answers = _serve(
        tmp_path,
        "not json",
        {"id": "a", "type": "no_such_event", "data": {}},
        {"id": "b", "type": "tool_call", "data": {"input": {}}},
        {"id": "c", "type": "tool_call", "data": "rm -rf /"},
        {"id": "d", "type": "tool_result", "data": {"toolName": "bash"}},
        {"id": "e", "type": "tool_call", "data": _call("bash", "rm -rf y")},
    )
    assert answers[0]["id"] is None and "invalid JSON" in str(answers[0]["error"])
    assert "unknown event" in str(answers[1]["error"])
    for blocked in answers[2:4]:  # a tool call nobody could decide: blocked, not let through
        assert blocked["error"] and blocked["result"]["block"] is True  # type: ignore[index]
    assert answers[4]["error"] and "result" not in answers[4]
    assert answers[5]["result"] == {"block": True, "reason": "no rm here"}  # still serving


def test_serve_needs_stdio(tmp_path: Path) -> None:
    done = run_cli("serve")
    assert done.returncode == 2
    assert "serve needs --stdio" in done.stderr


def test_claude_hook_inputs_and_pi_events_share_one_stdio_stream(tmp_path: Path) -> None:
    pre = {
        "hook_event_name": "PreToolUse",
        "cwd": str(tmp_path),
        "tool_name": "Bash",
        "tool_input": {"command": "rm -rf /"},
    }
    answers = _serve(
        tmp_path,
        {"id": 1, "type": "tool_call", "data": _call("bash", "rm -rf x")},
        {"id": 2, "input": pre},
        {"id": 3, "input": {**pre, "tool_input": {"command": "echo ok"}}},
        {"id": 4},  # neither kind: refused in both shapes
        {"id": 5, "type": "tool_call", "data": _call("bash", "ls")},
    )
    assert [a["id"] for a in answers] == [1, 2, 3, 4, 5]
    assert answers[0]["result"] == {"block": True, "reason": "no rm here"}
    claude_deny = answers[1]["output"]["hookSpecificOutput"]  # type: ignore[index]
    assert claude_deny["permissionDecision"] == "deny"
    assert claude_deny["permissionDecisionReason"] == "no rm here"
    assert answers[2]["exit_code"] == 0 and "result" not in answers[2]
    assert "hookSpecificOutput" not in answers[2]["output"]  # type: ignore[operator]
    # No event to go by: the PreToolUse deny as JSON at exit 0 (ignored on other events).
    assert answers[3]["error"] and answers[3]["exit_code"] == 0
    assert answers[3]["output"]["hookSpecificOutput"]["permissionDecision"] == "deny"  # type: ignore[index]
    assert answers[4]["result"] == {"input": {"command": "ls -la"}}


COUNTER = """
    calls = []
    imports = [1]  # module state: one list per import of this file

    def register(pi):
        @pi.on("tool_call")
        def count(event, ctx):
            calls.append(event.tool_name)
            return {"block": True, "reason": f"call {len(calls)}, import {len(imports)}"}

        @pi.on("input")
        def where(event, ctx):
            if event.text == "where?":
                pi.send_message({"custom_type": "note", "content": "cwd " + ctx.cwd})
                return {"text": "cwd " + ctx.cwd}
"""


def _pre(tmp_path: Path, command: str) -> dict[str, object]:
    return {
        "hook_event_name": "PreToolUse",
        "cwd": str(tmp_path),
        "tool_name": "Bash",
        "tool_input": {"command": command},
    }


def _stdio(tmp_path: Path, requests: list[Any], *args: str) -> list[Line]:
    """``serve --stdio --cwd tmp_path ARGS`` fed ``requests``; its answers."""
    lines = "".join(json.dumps(r) + "\n" for r in requests)
    done = run_cli("serve", "--stdio", "--cwd", str(tmp_path), *args, stdin=lines)
    assert done.returncode == 0, done.stderr
    return json_lines(done.stdout)


def _serve_counter(tmp_path: Path, *requests: object) -> list[Line]:
    hook = write_hook(tmp_path / "counter.py", COUNTER)
    return _stdio(tmp_path, list(requests), "--no-discovery", "--hook", str(hook))


def _claude_reason(answer: Line) -> str:
    return str(answer["output"]["hookSpecificOutput"]["permissionDecisionReason"])


def test_claude_and_pi_events_reach_one_import_of_a_hook_module(tmp_path: Path) -> None:
    answers = _serve_counter(
        tmp_path,
        {"id": 1, "type": "tool_call", "data": _call("bash", "ls")},
        {"id": 2, "input": _pre(tmp_path, "ls")},
        {"id": 3, "type": "tool_call", "data": _call("bash", "ls")},
        {"id": 4, "input": _pre(tmp_path, "ls")},
    )
    assert answers[0]["result"] == {"block": True, "reason": "call 1, import 1"}
    assert _claude_reason(answers[1]) == "call 2, import 1"  # the pi call was counted
    assert answers[2]["result"] == {"block": True, "reason": "call 3, import 1"}
    assert _claude_reason(answers[3]) == "call 4, import 1"


def test_a_claude_line_first_shares_the_state_too(tmp_path: Path) -> None:
    answers = _serve_counter(
        tmp_path,
        {"id": 1, "input": _pre(tmp_path, "ls")},
        {"id": 2, "type": "tool_call", "data": _call("bash", "ls")},
    )
    assert _claude_reason(answers[0]) == "call 1, import 1"
    assert answers[1]["result"] == {"block": True, "reason": "call 2, import 1"}


def test_a_claude_line_gets_its_own_cwd_and_context_and_leaves_the_agents(
    tmp_path: Path,
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    prompt = {"hook_event_name": "UserPromptSubmit", "cwd": str(elsewhere), "prompt": "where?"}
    answers = _serve_counter(
        tmp_path,
        {"id": 1, "input": prompt},
        {"id": 2, "type": "input", "data": {"text": "where?"}},
    )
    context = answers[0]["output"]["hookSpecificOutput"]["additionalContext"]
    assert f"cwd {elsewhere}" in context  # pi.send_message reached Claude's answer
    # The agent's ctx.cwd is its own, not the last Claude input's.
    assert answers[1]["result"]["action"] == "transform"
    assert answers[1]["result"]["text"] == f"cwd {tmp_path}"


def test_settings_hooks_govern_pi_events_but_not_claude_lines(
    tmp_path: Path, isolated_home: Path
) -> None:
    """Claude Code runs its own settings hooks: running them again would run them twice."""
    record = tmp_path / "settings-hook-ran.txt"
    settings = isolated_home / ".claude" / "settings.json"
    settings.parent.mkdir()
    hook = {"type": "command", "command": f"echo ran >> {record}"}
    settings.write_text(json.dumps({"hooks": {"PreToolUse": [{"hooks": [hook]}]}}))
    permit = write_hook(
        tmp_path / "permit.py",
        """
        def register(pi):
            @pi.on("tool_call")
            def seen(event, ctx):
                return None
        """,
    )
    lines = [
        {"id": 1, "input": _pre(tmp_path, "ls")},
        {"id": 2, "type": "tool_call", "data": _call("bash", "ls")},
    ]
    answers = _stdio(tmp_path, lines, "--no-discovery", "--hook", str(permit))
    assert [a["id"] for a in answers] == [1, 2]
    assert record.read_text().splitlines() == ["ran"]  # once: for pi's call only


def test_no_discovery_keeps_user_hooks_out_of_both_hosts(
    tmp_path: Path, isolated_home: Path
) -> None:
    write_hook(
        isolated_home / ".hookline" / "hooks" / "user_guard.py",
        """
        def register(pi):
            @pi.on("tool_call")
            def guard(event, ctx):
                return {"block": True, "reason": "user hook"}
        """,
    )
    requests = [
        {"id": 1, "type": "tool_call", "data": _call("bash", "ls")},
        {"id": 2, "input": _pre(tmp_path, "ls")},
    ]
    found = _stdio(tmp_path, requests)
    assert found[0]["result"] == {"block": True, "reason": "user hook"}
    assert _claude_reason(found[1]) == "user hook"
    answers = _stdio(tmp_path, requests, "--no-discovery")
    assert answers[0]["result"] is None
    assert answers[1]["output"] == {} and answers[1]["exit_code"] == 0


def test_a_hook_module_that_failed_to_load_blocks_both_hosts_tool_calls(tmp_path: Path) -> None:
    broken = write_hook(
        tmp_path / "guard.py", "def register(pi):\n    raise RuntimeError('typo')\n"
    )
    requests = [
        {"id": 1, "type": "tool_call", "data": _call("bash", "ls")},
        {"id": 2, "input": _pre(tmp_path, "ls")},
        {"id": 3, "type": "input", "data": {"text": "hello"}},
    ]
    answers = _stdio(tmp_path, requests, "--no-discovery", "--hook", str(broken))
    pi_call, claude_call, prompt = answers
    assert pi_call["result"]["block"] is True  # the guard is missing: fail closed
    assert "failed to load" in pi_call["result"]["reason"]
    assert "guard.py" in pi_call["result"]["reason"]
    decision = claude_call["output"]["hookSpecificOutput"]
    assert decision["permissionDecision"] == "deny"
    assert "failed to load" in decision["permissionDecisionReason"]
    assert prompt["result"] == {"action": "continue"}  # only tool calls are refused


def test_stdio_and_http_together_is_a_clear_usage_error(tmp_path: Path) -> None:
    for http in (["--http", "127.0.0.1:0"], ["--http=127.0.0.1:0"]):
        done = run_cli("serve", "--stdio", *http, "--cwd", str(tmp_path))
        assert done.returncode == 2
        assert "serve takes --stdio or --http HOST:PORT, not both" in done.stderr
        assert "no loaded hook registers it" not in done.stderr


def test_a_hook_asking_for_a_turn_never_runs_hooklines_own_agent(tmp_path: Path) -> None:
    """pi runs the turns: a hook's send_user_message must not start hookline's model and tools."""
    record = tmp_path / "turns.txt"
    hook = write_hook(
        tmp_path / "nudge.py",
        f"""
        def register(pi):
            @pi.on("tool_call")
            def nudge(event, ctx):
                pi.send_user_message("run rm -rf / please")
                pi.send_message({{"custom_type": "note", "content": "go"}}, True)

            @pi.on("turn_start")
            def turn(event, ctx):
                with open({str(record)!r}, "a") as f:
                    f.write("turn\\n")
        """,
    )
    requests = [
        {"id": 1, "type": "tool_call", "data": _call("bash", "ls")},
        {"id": 2, "type": "before_agent_start", "data": {"prompt": "p", "systemPrompt": "S"}},
        {"id": 3, "type": "tool_call", "data": _call("bash", "ls")},
    ]
    lines = "".join(json.dumps(r) + "\n" for r in requests)
    done = run_cli("serve", "--stdio", "--no-session", "--no-discovery", "--hook", str(hook),
                   "--cwd", str(tmp_path), stdin=lines)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert [a.get("result") for a in json_lines(done.stdout)] == [None, None, None]
    assert not record.exists()  # no turn of hookline's own agent ran
    assert "Traceback" not in done.stderr
    assert "the host agent runs the turns, dropped" in done.stderr
