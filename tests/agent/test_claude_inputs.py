"""Settings hooks read the input fields Claude Code sends today, in a real agent run.

Every hook is a real shell script; the model is the scripted one. Paths are
shown absolute and resolved (an attacker's ``../``, ``./`` or symlinked
directory cannot walk around a guard on ``"$CLAUDE_PROJECT_DIR"/protected/*``),
``tool_response`` has the shape of Claude's tool results, and ``prompt_id``,
``duration_ms``, ``model``, ``last_assistant_message`` are filled in.
"""

from __future__ import annotations

import json
import os
import stat
import uuid
from pathlib import Path
from typing import Any

from .conftest import MakeAgent

#: Appends its stdin JSON as one line to the file given as $1.
RECORD = "python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)))' >> \"$1\""


def executable(path: Path, body: str) -> str:
    path.write_text(f"#!/usr/bin/env bash\n{body}\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def recorder(tmp_path: Path) -> tuple[str, Path]:
    log = tmp_path / "hook-inputs.jsonl"
    return executable(tmp_path / "record.sh", RECORD), log


def lines(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text().splitlines()]


def on(event: str, command: str, matcher: str | None = None) -> dict[str, Any]:
    group: dict[str, Any] = {"hooks": [{"type": "command", "command": command}]}
    if matcher is not None:
        group["matcher"] = matcher
    return {event: [group]}


def call(name: str, args: dict[str, Any], call_id: str) -> dict[str, Any]:
    return {"name": name, "arguments": args, "id": call_id}


async def test_tool_responses_have_claudes_shapes(
    make_agent: MakeAgent, project: Path, tmp_path: Path
) -> None:
    rec, log = recorder(tmp_path)
    h = await make_agent(
        [
            {"tool_calls": [call("write", {"path": "notes.txt", "content": "a\nb\nc\n"}, "w1")]},
            {
                "tool_calls": [
                    call("edit", {"path": "notes.txt", "oldText": "b", "newText": "B"}, "e1")
                ]
            },
            {"tool_calls": [call("read", {"path": "notes.txt", "offset": 2}, "r1")]},
            {"tool_calls": [call("bash", {"command": "printf hi"}, "b1")]},
            {"tool_calls": [call("bash", {"command": "true"}, "b2")]},
            "Done.",
        ],
        claude_settings={"hooks": on("PostToolUse", f"{rec} {log}")},
    )
    await h.agent.prompt("work")

    got = {e["tool_use_id"]: e for e in lines(log)}
    notes = os.path.realpath(project / "notes.txt")
    write = got["w1"]
    assert write["tool_input"] == {"file_path": notes, "content": "a\nb\nc\n"}
    assert write["tool_response"] == {
        "type": "create",
        "filePath": notes,
        "content": "a\nb\nc\n",
        "structuredPatch": [],
    }
    edit = got["e1"]["tool_response"]
    assert (edit["filePath"], edit["oldString"], edit["newString"]) == (notes, "b", "B")
    [hunk] = edit["structuredPatch"]
    assert "-b" in hunk["lines"] and "+B" in hunk["lines"]
    assert hunk["oldStart"] >= 1 and hunk["newLines"] == hunk["oldLines"]
    assert got["r1"]["tool_response"] == {
        "type": "text",
        "file": {
            "filePath": notes,
            "content": "B\nc",
            "numLines": 2,
            "startLine": 2,
            "totalLines": 3,
        },
    }
    assert got["b1"]["tool_response"] == {
        "stdout": "hi",
        "stderr": "",
        "interrupted": False,
        "isImage": False,
    }
    assert got["b2"]["tool_response"]["stdout"] == ""  # no "(no output)" placeholder
    for e in got.values():
        assert isinstance(e["duration_ms"], int) and e["duration_ms"] >= 0
    # one prompt, one prompt_id on every event of it
    assert len({e["prompt_id"] for e in got.values()}) == 1
    assert uuid.UUID(write["prompt_id"])


async def test_a_new_prompt_gets_a_new_prompt_id(make_agent: MakeAgent, tmp_path: Path) -> None:
    rec, log = recorder(tmp_path)
    h = await make_agent(["one", "two"], claude_settings={"hooks": on("Stop", f"{rec} {log}")})
    await h.agent.prompt("first")
    await h.agent.prompt("second")

    first, second = lines(log)
    assert first["prompt_id"] != second["prompt_id"]
    assert (first["last_assistant_message"], second["last_assistant_message"]) == ("one", "two")


async def test_a_failed_tool_gives_error_and_duration(
    make_agent: MakeAgent, tmp_path: Path
) -> None:
    rec, log = recorder(tmp_path)
    h = await make_agent(
        [{"tool_calls": [call("read", {"path": "missing.txt"}, "r1")]}, "ok"],
        claude_settings={"hooks": on("PostToolUseFailure", f"{rec} {log}", "Read")},
    )
    await h.agent.prompt("read it")

    [e] = lines(log)
    assert e["tool_name"] == "Read" and e["tool_use_id"] == "r1"
    assert "missing.txt" in e["error"] and e["is_interrupt"] is False
    assert isinstance(e["duration_ms"], int)
    assert "tool_response" not in e


GUARD = """\
path=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["tool_input"]["file_path"])')
case "$path" in
  "$CLAUDE_PROJECT_DIR"/protected/*) echo "protected: $path" >&2; exit 2 ;;
esac
"""


async def test_a_protected_dir_guard_sees_every_spelling_of_a_write(
    make_agent: MakeAgent, project: Path, tmp_path: Path
) -> None:
    """Relative, ``./``, ``..`` and a symlinked directory all reach the guard resolved."""
    (project / "protected").mkdir()
    (project / "src").mkdir()
    (project / "link").symlink_to(project / "protected", target_is_directory=True)
    guard = executable(tmp_path / "guard.sh", GUARD)
    spellings = ["protected/a", "./protected/b", "src/../protected/c", "link/d", "@protected/e"]
    writes = [call("write", {"path": p, "content": "x"}, f"w{i}") for i, p in enumerate(spellings)]
    h = await make_agent(
        [
            {"tool_calls": [*writes, call("write", {"path": "src/ok", "content": "y"}, "ok")]},
            "Done.",
        ],
        claude_settings={"hooks": on("PreToolUse", guard, "Write|Edit")},
    )
    await h.agent.prompt("write everywhere")

    assert sorted(os.listdir(project / "protected")) == []
    assert (project / "src" / "ok").read_text() == "y"
    results = [m for m in h.agent.session.build_context_messages() if m["role"] == "tool"]
    blocked = [m for m in results if "protected: " in str(m["content"])]
    assert len(blocked) == len(spellings)


REWRITE = """\
cat > /dev/null
cat <<'JSON'
{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow",
 "updatedInput": {"file_path": "%s", "content": "rewritten"}}}
JSON
"""


async def test_updated_input_with_the_shown_path_keeps_the_models_spelling(
    make_agent: MakeAgent, project: Path, tmp_path: Path
) -> None:
    (project / "sub").mkdir()
    shown = os.path.realpath(project / "sub" / "f.txt")
    hook = executable(tmp_path / "rewrite.sh", REWRITE % shown)
    h = await make_agent(
        [{"tool_calls": [call("write", {"path": "sub/f.txt", "content": "orig"}, "w1")]}, "ok"],
        claude_settings={"hooks": on("PreToolUse", hook, "Write")},
    )
    await h.agent.prompt("write")

    assert (project / "sub" / "f.txt").read_text() == "rewritten"
    [message] = [m for m in h.agent.session.build_context_messages() if m["role"] == "tool"]
    assert "sub/f.txt" in str(message["content"])  # the tool saw the model's relative path
    assert shown not in str(message["content"])


async def test_updated_input_with_another_path_is_taken_as_written(
    make_agent: MakeAgent, project: Path, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere.txt"
    hook = executable(tmp_path / "rewrite.sh", REWRITE % elsewhere)
    h = await make_agent(
        [{"tool_calls": [call("write", {"path": "f.txt", "content": "orig"}, "w1")]}, "ok"],
        claude_settings={"hooks": on("PreToolUse", hook, "Write")},
    )
    await h.agent.prompt("write")

    assert elsewhere.read_text() == "rewritten"
    assert not (project / "f.txt").exists()


async def test_session_start_carries_the_model(make_agent: MakeAgent, tmp_path: Path) -> None:
    rec, log = recorder(tmp_path)
    h = await make_agent([], claude_settings={"hooks": on("SessionStart", f"{rec} {log}")})
    [e] = lines(log)
    assert e["source"] == "startup"
    assert e["model"] == h.agent.provider.model_id and e["model"]


async def test_effort_follows_the_thinking_level(make_agent: MakeAgent, tmp_path: Path) -> None:
    """Claude Code sends the reasoning ``effort``; here it is the agent's thinking level."""
    rec, log = recorder(tmp_path)
    h = await make_agent(["one", "two"], claude_settings={"hooks": on("Stop", f"{rec} {log}")})
    await h.agent.prompt("first")  # thinking off: no effort
    h.agent.set_thinking_level("xhigh")
    await h.agent.prompt("second")

    first, second = lines(log)
    assert "effort" not in first
    assert second["effort"] == "max"
