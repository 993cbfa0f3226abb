"""Hook output honoured as Claude Code honours it today (real shell-script hooks).

A deny printed before a crash, ``permissionDecision: "defer"``, how several
hooks' ``updatedInput`` combine, PostToolUse ``updatedToolOutput``,
``additionalContext`` on the events that document it, and the 10,000-character
cap on text injected into the model.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from hookline.claude import ClaudeHooks
from hookline.claude.context_cap import MAX_CONTEXT_CHARS, cap_context
from hookline.core.events import NotificationEvent, StopEvent, ToolCallEvent, ToolResultEvent
from hookline.core.runner import HookRunner

from .conftest import ScriptFactory, source
from .test_adapter import StopRecorder, bash_call


def printing(script: ScriptFactory, obj: dict[str, Any], exit_code: int = 0) -> str:
    """A hook that prints ``obj`` as JSON, then exits with ``exit_code``."""
    return script(f"cat > /dev/null\ncat <<'JSON'\n{json.dumps(obj)}\nJSON\nexit {exit_code}")


def install(tmp_path: Path, *sources: Any) -> tuple[ClaudeHooks, HookRunner, StopRecorder]:
    runner = HookRunner(cwd=str(tmp_path))
    hooks = ClaudeHooks(list(sources), project_dir=tmp_path)
    hooks.install(runner)
    host = StopRecorder()
    runner.bind_host(host)
    return hooks, runner, host


def pre(decision: str, **more: Any) -> dict[str, Any]:
    spec = {"hookEventName": "PreToolUse", "permissionDecision": decision, **more}
    return {"hookSpecificOutput": spec}


# -- a deny printed by a hook that then fails ---------------------------------------


async def test_a_deny_printed_before_exit_1_blocks(tmp_path: Path, script: ScriptFactory) -> None:
    deny = pre("deny", permissionDecisionReason="no deploys on Friday")
    _, runner, _ = install(tmp_path, source("PreToolUse", printing(script, deny, 1)))

    result = await runner.emit_tool_call(bash_call("deploy"))

    assert result is not None and result.block
    assert result.reason == "no deploys on Friday"


async def test_an_allow_printed_before_exit_1_is_not_an_allow(
    tmp_path: Path, script: ScriptFactory
) -> None:
    """Only decisions that block survive a crash: a crashed hook never grants anything."""
    hooks, runner, _ = install(tmp_path, source("PreToolUse", printing(script, pre("allow"), 1)))

    result = await runner.emit_tool_call(bash_call("deploy"))

    assert result is None  # no decision: the normal permission flow asks
    run = await hooks.engine.run("PreToolUse", {"tool_name": "Bash", "tool_input": {}})
    assert run.outcomes[0].kind == "non_blocking_error"


async def test_a_block_or_stop_printed_before_a_crash_counts_too(
    tmp_path: Path, script: ScriptFactory
) -> None:
    hooks, _, _ = install(
        tmp_path,
        source("Stop", printing(script, {"decision": "block", "reason": "tests fail"}, 3)),
    )
    run = await hooks.engine.run("Stop", {"stop_hook_active": False})
    [o] = run.outcomes
    assert o.kind == "blocking" and o.reason == "tests fail"
    assert any("then failed" in n for n in o.notes)


# -- defer -----------------------------------------------------------------------------


async def test_defer_beats_allow_and_leaves_the_call_to_the_permission_flow(
    tmp_path: Path, script: ScriptFactory
) -> None:
    rewrite = pre("allow", updatedInput={"command": "echo rewritten"})
    _, runner, _ = install(
        tmp_path,
        source("PreToolUse", printing(script, rewrite), origin="/a.json"),
        source("PreToolUse", printing(script, pre("defer")), origin="/b.json"),
    )

    result = await runner.emit_tool_call(bash_call("ls"))

    assert result is None  # no allow, no rewrite: rules, mode and the user decide


async def test_deny_beats_defer(tmp_path: Path, script: ScriptFactory) -> None:
    _, runner, _ = install(
        tmp_path,
        source("PreToolUse", printing(script, pre("defer")), origin="/a.json"),
        source("PreToolUse", printing(script, pre("deny")), origin="/b.json"),
    )
    result = await runner.emit_tool_call(bash_call("ls"))
    assert result is not None and result.block


# -- updatedInput from several hooks ------------------------------------------------------


async def test_several_rewrites_merge_key_by_key_in_hook_order(
    tmp_path: Path, script: ScriptFactory
) -> None:
    first = pre("allow", updatedInput={"content": "from first", "file_path": "first.txt"})
    second = pre("allow", updatedInput={"content": "from second"})
    _, runner, _ = install(
        tmp_path,
        source("PreToolUse", printing(script, first), origin="/a.json"),
        source("PreToolUse", printing(script, second), origin="/b.json"),
    )
    ev = ToolCallEvent(
        tool_name="write", tool_call_id="w", input={"path": "orig.txt", "content": "orig"}
    )

    result = await runner.emit_tool_call(ev)

    # a key only the first rewrote keeps its value; the key both rewrote is the later one's
    assert result is not None and result.input == {"path": "first.txt", "content": "from second"}


# -- updatedToolOutput ----------------------------------------------------------------


def bash_result() -> ToolResultEvent:
    return ToolResultEvent(
        tool_name="bash",
        tool_call_id="b",
        input={"command": "cat .env"},
        content=[{"type": "text", "text": "API_KEY=secret"}],
    )


def read_result() -> ToolResultEvent:
    return ToolResultEvent(
        tool_name="read",
        tool_call_id="r",
        input={"path": ".env"},
        content=[{"type": "text", "text": "API_KEY=secret"}],
    )


def replacing(value: Any) -> dict[str, Any]:
    return {"hookSpecificOutput": {"hookEventName": "PostToolUse", "updatedToolOutput": value}}


async def test_updated_tool_output_replaces_what_the_model_sees(
    tmp_path: Path, script: ScriptFactory
) -> None:
    hook = printing(script, replacing("API_KEY=[redacted]"))
    _, runner, _ = install(tmp_path, source("PostToolUse", hook))

    result = await runner.emit_tool_result(read_result())

    assert result is not None
    assert result.content == [{"type": "text", "text": "API_KEY=[redacted]"}]


async def test_an_object_tool_output_reaches_the_model_as_json(
    tmp_path: Path, script: ScriptFactory
) -> None:
    replaced = {"type": "text", "file": {"content": "clean"}}
    _, runner, _ = install(tmp_path, source("PostToolUse", printing(script, replacing(replaced))))
    result = await runner.emit_tool_result(read_result())
    assert result is not None and result.content is not None
    assert json.loads(result.content[0]["text"]) == replaced  # type: ignore[typeddict-item]


@pytest.mark.parametrize(
    "value",
    [
        "API_KEY=[redacted]",
        {"stdout": "clean"},
        {"stdout": "clean", "stderr": ""},
        {"stdout": 5, "stderr": "", "interrupted": False},
        ["clean"],
    ],
)
async def test_bash_ignores_an_output_not_in_bashs_shape(
    tmp_path: Path, script: ScriptFactory, value: Any
) -> None:
    """As in Claude Code: a plain string (or a partial object) does not replace Bash's output."""
    _, runner, _ = install(tmp_path, source("PostToolUse", printing(script, replacing(value))))
    result = await runner.emit_tool_result(bash_result())
    assert result is None or result.content is None


@pytest.mark.parametrize(
    ("value", "text", "is_error"),
    [
        ({"stdout": "clean", "stderr": "", "interrupted": False}, "clean", None),
        ({"stdout": "S", "stderr": "E", "interrupted": False, "isImage": False}, "S\nE", None),
        (
            {"stdout": "S", "stderr": "", "interrupted": True},
            "S\n<error>Command was aborted before completion</error>",
            True,
        ),
    ],
)
async def test_bash_takes_an_output_in_bashs_shape(
    tmp_path: Path, script: ScriptFactory, value: Any, text: str, is_error: bool | None
) -> None:
    """stdout and stderr on their own lines; an interrupted command is an error (Claude Code)."""
    _, runner, _ = install(tmp_path, source("PostToolUse", printing(script, replacing(value))))
    result = await runner.emit_tool_result(bash_result())
    assert result is not None
    assert result.content == [{"type": "text", "text": text}]
    assert result.is_error is is_error


# -- additionalContext -----------------------------------------------------------------


def context(event: str, text: str) -> dict[str, Any]:
    return {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}


async def test_pre_tool_use_notification_and_stop_context_reach_the_model(
    tmp_path: Path, script: ScriptFactory
) -> None:
    _, runner, host = install(
        tmp_path,
        source("PreToolUse", printing(script, context("PreToolUse", "ctx pre"))),
        source("Notification", printing(script, context("Notification", "ctx note"))),
        source("Stop", printing(script, context("Stop", "ctx stop"))),
    )
    await runner.emit_tool_call(bash_call("ls"))
    await runner.emit(NotificationEvent(message="hi", notification_type="idle_prompt"))
    await runner.emit(StopEvent())

    assert [m["content"] for m in host.sent] == ["ctx pre", "ctx note", "ctx stop"]
    assert all(m["display"] is False for m in host.sent)


# -- the 10,000-character cap --------------------------------------------------------------


async def test_long_context_is_cut_to_a_preview_naming_a_file_with_all_of_it(
    tmp_path: Path, script: ScriptFactory
) -> None:
    text = "".join(f"line {i}\n" for i in range(4000))  # ~35,000 characters
    assert len(text) > MAX_CONTEXT_CHARS
    out = context("PostToolUse", text)
    _, runner, _ = install(tmp_path, source("PostToolUse", printing(script, out)))

    result = await runner.emit_tool_result(bash_result())

    assert result is not None and result.append is not None
    shown = result.append[0]["text"]  # type: ignore[typeddict-item]
    assert len(shown) <= MAX_CONTEXT_CHARS
    assert shown.startswith("line 0\nline 1\n")
    match = re.search(r"the full text is in (\S+)\]$", shown)
    assert match is not None
    assert Path(match.group(1)).read_text() == text
    Path(match.group(1)).unlink()


def test_short_text_is_left_alone() -> None:
    assert cap_context("x" * MAX_CONTEXT_CHARS) == "x" * MAX_CONTEXT_CHARS
    capped = cap_context("y" * (MAX_CONTEXT_CHARS + 1))
    assert len(capped) <= MAX_CONTEXT_CHARS and "y" * 100 in capped
    path = Path(re.findall(r"in (\S+)\]$", capped)[0])
    assert path.stat().st_mode & 0o077 == 0  # owner-only
    path.unlink()
