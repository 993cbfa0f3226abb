"""Claude events whose moment hookline has, fired in a real agent run with shell-script hooks.

SessionStart's ``source`` (startup, resume for ``--continue``/``--session``,
clear, compact after a compaction, fork), PostCompact, PostToolBatch and
StopFailure.
"""

from __future__ import annotations

import json
import stat
from pathlib import Path
from typing import Any

from .conftest import MakeAgent

RECORD = "python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)))' >> \"$1\""


def executable(path: Path, body: str) -> str:
    path.write_text(f"#!/usr/bin/env bash\n{body}\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def lines(log: Path) -> list[dict[str, Any]]:
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text().splitlines()]


def recording(tmp_path: Path, *events: str) -> tuple[dict[str, Any], Path]:
    """Settings whose hooks append every listed event's input to one log."""
    log = tmp_path / "inputs.jsonl"
    rec = executable(tmp_path / "record.sh", RECORD)
    hooks = {e: [{"hooks": [{"type": "command", "command": f"{rec} {log}"}]}] for e in events}
    return {"hooks": hooks}, log


def sources(log: Path) -> list[str]:
    return [e["source"] for e in lines(log) if e["hook_event_name"] == "SessionStart"]


async def test_session_start_says_resume_for_a_continued_or_named_session(
    make_agent: MakeAgent, tmp_path: Path
) -> None:
    settings, log = recording(tmp_path, "SessionStart", "SessionEnd")
    first = await make_agent(["hello"], claude_settings=settings)
    await first.agent.prompt("hi")
    session_file = first.agent.session.get_session_file()
    assert session_file is not None
    await first.agent.shutdown()

    resumed = await make_agent([], claude_settings=settings, resume=True)
    assert resumed.agent.session.get_session_file() == session_file
    await resumed.agent.shutdown()
    await make_agent([], claude_settings=settings, session_file=session_file)

    assert sources(log) == ["startup", "resume", "resume"]
    # SessionEnd fired on each exit: prompt_input_exit in Claude's vocabulary
    assert [e["reason"] for e in lines(log) if e["hook_event_name"] == "SessionEnd"] == [
        "prompt_input_exit",
        "prompt_input_exit",
    ]


async def test_continue_with_nothing_to_continue_is_a_startup(
    make_agent: MakeAgent, tmp_path: Path
) -> None:
    settings, log = recording(tmp_path, "SessionStart")
    await make_agent([], claude_settings=settings, resume=True)
    assert sources(log) == ["startup"]


RESTORE = """\
cat > /dev/null
echo "Restored after compaction: the build uses make."
"""


async def test_compaction_fires_pre_and_post_compact_then_session_start_compact(
    make_agent: MakeAgent, tmp_path: Path
) -> None:
    """The "restore context after compaction" recipe: SessionStart matcher ``compact``."""
    settings, log = recording(tmp_path, "PreCompact", "PostCompact", "SessionStart")
    restore = executable(tmp_path / "restore.sh", RESTORE)
    settings["hooks"]["SessionStart"].append(
        {"matcher": "compact", "hooks": [{"type": "command", "command": restore}]}
    )
    h = await make_agent(
        ["one", "two", {"text": "ok", "expect_user_contains": "the build uses make"}],
        claude_settings=settings,
    )
    await h.agent.prompt("a small question")
    await h.agent.prompt("x" * 100_000)  # big enough that the first run is compacted away
    assert await h.agent.compact(trigger="manual")
    await h.agent.prompt("go on")

    events = [(e["hook_event_name"], e.get("source") or e.get("trigger")) for e in lines(log)]
    assert events == [
        ("SessionStart", "startup"),
        ("PreCompact", "manual"),
        ("PostCompact", "manual"),
        ("SessionStart", "compact"),
    ]
    post = next(e for e in lines(log) if e["hook_event_name"] == "PostCompact")
    assert post["compact_summary"]
    assert h.provider.remaining == 0  # the last turn saw the restored context


async def test_clear_and_fork_start_sessions_with_their_source(
    make_agent: MakeAgent, tmp_path: Path
) -> None:
    settings, log = recording(tmp_path, "SessionStart", "SessionEnd")
    h = await make_agent(["one"], claude_settings=settings)
    await h.agent.prompt("a")
    assert await h.agent.new_session(reason="clear")
    assert await h.agent.fork()
    await h.agent.shutdown()

    assert sources(log) == ["startup", "clear", "fork"]
    ends = [e for e in lines(log) if e["hook_event_name"] == "SessionEnd"]
    assert [e["reason"] for e in ends] == ["clear", "prompt_input_exit"]
    # /clear ends the session it leaves (its id), before the new one's SessionStart
    order = [(e["hook_event_name"], e.get("source") or e.get("reason")) for e in lines(log)]
    assert order[:3] == [
        ("SessionStart", "startup"),
        ("SessionEnd", "clear"),
        ("SessionStart", "clear"),
    ]
    first_start, clear_end, clear_start = lines(log)[:3]
    assert clear_end["session_id"] == first_start["session_id"] != clear_start["session_id"]


async def test_switching_sessions_ends_the_one_left_with_reason_resume(
    make_agent: MakeAgent, tmp_path: Path
) -> None:
    settings, log = recording(tmp_path, "SessionStart", "SessionEnd")
    h = await make_agent(["one", "two"], claude_settings=settings)
    await h.agent.prompt("a")
    first = h.agent.session.get_session_file()
    assert await h.agent.new_session(reason="new")
    await h.agent.prompt("b")
    assert first is not None and await h.agent.switch_session(first)
    await h.agent.shutdown()

    order = [(e["hook_event_name"], e.get("source") or e.get("reason")) for e in lines(log)]
    assert order == [
        ("SessionStart", "startup"),
        ("SessionEnd", "clear"),
        ("SessionStart", "clear"),
        ("SessionEnd", "resume"),
        ("SessionStart", "resume"),
        ("SessionEnd", "prompt_input_exit"),
    ]


CONTEXT = """\
cat > /dev/null
echo '{"hookSpecificOutput": {"hookEventName": "PostToolBatch", "additionalContext": "batch ok"}}'
"""


async def test_post_tool_batch_sees_one_turns_calls_and_feeds_the_next_request(
    make_agent: MakeAgent, tmp_path: Path
) -> None:
    settings, log = recording(tmp_path, "PostToolBatch")
    ctx = executable(tmp_path / "ctx.sh", CONTEXT)
    settings["hooks"]["PostToolBatch"].append({"hooks": [{"type": "command", "command": ctx}]})
    h = await make_agent(
        [
            {
                "tool_calls": [
                    {"name": "bash", "arguments": {"command": "echo one"}, "id": "b1"},
                    {"name": "bash", "arguments": {"command": "echo two"}, "id": "b2"},
                ]
            },
            {"text": "done", "expect_user_contains": "batch ok"},
        ],
        claude_settings=settings,
    )
    await h.agent.prompt("run both")

    [batch] = lines(log)  # once for the turn with tools, not for the final text turn
    calls = batch["tool_calls"]
    assert [c["tool_use_id"] for c in calls] == ["b1", "b2"]
    assert [c["tool_input"]["command"] for c in calls] == ["echo one", "echo two"]
    assert [c["tool_response"]["stdout"] for c in calls] == ["one\n", "two\n"]
    assert h.provider.remaining == 0


async def test_stop_failure_fires_when_the_api_ends_the_turn(
    make_agent: MakeAgent, tmp_path: Path
) -> None:
    settings, log = recording(tmp_path, "StopFailure", "Stop")
    h = await make_agent(
        [{"error": {"message": "authentication failed: invalid x-api-key", "status": 401}}],
        claude_settings=settings,
    )
    await h.agent.prompt("hi")

    [e] = lines(log)
    assert e["hook_event_name"] == "StopFailure"
    assert e["error"] == "authentication_failed"
    assert "invalid x-api-key" in e["error_details"]


RETRY = """\
cat > /dev/null
echo '{"hookSpecificOutput": {"hookEventName": "PermissionDenied", "retry": true}}'
"""


async def test_permission_denied_fires_with_the_reason_and_retry_reaches_the_model(
    make_agent: MakeAgent, project: Path, tmp_path: Path
) -> None:
    settings, log = recording(tmp_path, "PermissionDenied")
    retry = executable(tmp_path / "retry.sh", RETRY)
    settings["hooks"]["PermissionDenied"].append(
        {"matcher": "Bash", "hooks": [{"type": "command", "command": retry}]}
    )
    settings["permissions"] = {"deny": ["Bash(rm *)"]}
    h = await make_agent(
        [
            {"tool_calls": [{"name": "bash", "arguments": {"command": "rm x"}, "id": "b1"}]},
            {"text": "ok", "expect_tool_result_contains": "you may retry this tool call"},
        ],
        claude_settings=settings,
    )
    (project / "x").write_text("keep")
    await h.agent.prompt("remove x")

    [e] = lines(log)
    assert (e["tool_name"], e["tool_use_id"]) == ("Bash", "b1")
    assert e["tool_input"] == {"command": "rm x"}
    assert "rm" in e["reason"]
    assert (project / "x").read_text() == "keep"
    assert h.provider.remaining == 0


async def test_without_retry_the_denied_result_is_unchanged(
    make_agent: MakeAgent, project: Path, tmp_path: Path
) -> None:
    settings, log = recording(tmp_path, "PermissionDenied")
    settings["permissions"] = {"deny": ["Bash(rm *)"]}
    h = await make_agent(
        [
            {"tool_calls": [{"name": "bash", "arguments": {"command": "rm x"}, "id": "b1"}]},
            "ok",
        ],
        claude_settings=settings,
    )
    await h.agent.prompt("remove x")

    assert len(lines(log)) == 1
    results = [m for m in h.agent.session.build_context_messages() if m["role"] == "tool"]
    assert "you may retry" not in str(results[0]["content"])


async def test_a_settings_file_edited_between_turns_fires_config_change(
    make_agent: MakeAgent, project: Path, tmp_path: Path
) -> None:
    settings, log = recording(tmp_path, "ConfigChange")
    h = await make_agent(["one", "two", "three"], claude_settings=settings)
    await h.agent.prompt("a")
    assert lines(log) == []  # nothing changed yet

    path = project / ".claude" / "settings.json"
    path.write_text(json.dumps({**settings, "model": "other"}))
    await h.agent.prompt("b")
    await h.agent.prompt("c")  # reported once

    [e] = lines(log)
    assert (e["source"], e["file_path"]) == ("project_settings", str(path))


async def test_files_a_file_changed_matcher_names_are_watched(
    make_agent: MakeAgent, project: Path, tmp_path: Path
) -> None:
    settings, log = recording(tmp_path, "FileChanged")
    settings["hooks"]["FileChanged"][0]["matcher"] = ".envrc|.env"
    h = await make_agent(["1", "2", "3", "4"], claude_settings=settings)
    envrc = project / ".envrc"
    envrc.write_text("export A=1\n")
    (project / "x.envrc").write_text("not watched\n")
    await h.agent.prompt("a")
    envrc.write_text("export A=22\n")
    await h.agent.prompt("b")
    envrc.unlink()
    await h.agent.prompt("c")
    await h.agent.prompt("d")

    got = [(e["file_path"], e["event"]) for e in lines(log)]
    assert got == [(str(envrc), "add"), (str(envrc), "change"), (str(envrc), "unlink")]
