"""Every current Claude Code event is accepted; those hookline has no moment for say so.

Also the matcher rules of today's reference: comma lists, JavaScript regex
syntax, MCP tool names, and each event's own match field.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hookline.claude import NEVER_FIRES, ClaudeHooks, compile_matcher, match_query
from hookline.settings import load_settings
from hookline.settings.models import CLAUDE_EVENTS

from .conftest import ScriptFactory, hooks_for, source

#: Claude Code's hook events as its current reference lists them.
REFERENCE_EVENTS = (
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PostToolBatch",
    "PermissionRequest",
    "PermissionDenied",
    "UserPromptSubmit",
    "UserPromptExpansion",
    "Notification",
    "Stop",
    "StopFailure",
    "SubagentStart",
    "SubagentStop",
    "SessionStart",
    "SessionEnd",
    "Setup",
    "PreCompact",
    "PostCompact",
    "InstructionsLoaded",
    "ConfigChange",
    "CwdChanged",
    "FileChanged",
    "Elicitation",
    "ElicitationResult",
    "TeammateIdle",
    "TaskCreated",
    "TaskCompleted",
    "WorktreeCreate",
    "WorktreeRemove",
)


def test_every_reference_event_is_known() -> None:
    missing = [e for e in REFERENCE_EVENTS if e not in CLAUDE_EVENTS]
    assert missing == []
    # the never-fires table only names events settings accept
    assert set(NEVER_FIRES) <= set(CLAUDE_EVENTS)


def test_a_settings_file_with_every_event_loads_without_a_warning(
    tmp_path: Path, isolated_home: Path, script: ScriptFactory
) -> None:
    """A ``Setup`` (or any current) key used to drop with a warning; now each one is kept."""
    project = tmp_path / "proj"
    (project / ".claude").mkdir(parents=True)
    log = tmp_path / "log"
    guard = script(f"cat > /dev/null; echo ran >> {log}; echo 'no rm' >&2; exit 2")
    data = {
        "hooks": {
            e: [{"hooks": [{"type": "command", "command": "true"}]}] for e in REFERENCE_EVENTS
        }
    }
    data["hooks"]["PreToolUse"] = [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": guard}]}
    ]
    (project / ".claude" / "settings.json").write_text(json.dumps(data))

    loaded = load_settings(project, managed_paths=[])

    assert loaded.errors == [] and loaded.warnings == []
    hooks = ClaudeHooks.from_settings(loaded)
    for event in REFERENCE_EVENTS:
        assert hooks.engine.has_hooks(event), event
    assert hooks.engine.errors == []


async def test_the_guard_beside_a_setup_key_still_blocks(
    tmp_path: Path, isolated_home: Path, script: ScriptFactory
) -> None:
    project = tmp_path / "proj"
    (project / ".claude").mkdir(parents=True)
    guard = script("cat > /dev/null; echo 'no rm' >&2; exit 2")
    data = {
        "hooks": {
            "Setup": [{"matcher": "init", "hooks": [{"type": "command", "command": "true"}]}],
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": guard}]}],
        }
    }
    (project / ".claude" / "settings.json").write_text(json.dumps(data))
    hooks = ClaudeHooks.from_settings(load_settings(project, managed_paths=[]))

    run = await hooks.engine.run(
        "PreToolUse", {"tool_name": "Bash", "tool_input": {"command": "rm"}}
    )

    assert run.verdict.blocked and run.verdict.reason == "no rm"


def test_events_without_a_moment_are_marked_in_the_diagnostics(tmp_path: Path) -> None:
    hooks = hooks_for(
        tmp_path, source("WorktreeCreate", "true"), source("TeammateIdle", "true"),
        source("PreToolUse", "true"),
    )  # fmt: skip

    sel = hooks.engine.select("WorktreeCreate", None)

    assert sel.never_fires is not None and sel.never_fires.startswith("never fires in hookline")
    assert sel.to_dict()["never_fires"] == sel.never_fires
    assert hooks.engine.select("PreToolUse", "Bash").never_fires is None
    assert "never_fires" not in hooks.engine.select("PreToolUse", "Bash").to_dict()
    assert sorted(hooks.engine.dormant_events()) == ["TeammateIdle", "WorktreeCreate"]


# -- matchers --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("matcher", "query", "hit"),
    [
        ("Bash,Write", "Bash", True),
        ("Bash,Write", "Write", True),
        ("Bash, Write", "Write", True),
        ("Bash,Write", "Edit", False),
        ("Bash,Write", "Bash,Write", False),
        ("Edit|Write,Bash", "Bash", True),
        ("mcp__memory__create_entities", "mcp__memory__create_entities", True),
        ("mcp__memory__create_entities", "mcp__memory__create", False),
        ("mcp__memory__.*", "mcp__memory__read_graph", True),
        ("mcp__.*__write.*", "mcp__fs__write_file", True),
        ("mcp__.*__write.*", "mcp__fs__read_file", False),
        # JavaScript named groups are translated to Python's syntax
        ("^(?<tool>Edit|Write)$", "Write", True),
        ("^(?<tool>Edit|Write)$", "MultiEdit", False),
        ("(?<server>mcp__\\w+)__write", "mcp__fs__write", True),
        # lookbehinds are the same in both; RE2 refuses them, the bounded fallback runs them
        ("(?<!Multi)Edit$", "Edit", True),
        ("(?<!Multi)Edit$", "MultiEdit", False),
        ("(?<=mcp__)fs", "mcp__fs__read", True),
    ],
)
def test_matcher_syntax_of_today(matcher: str, query: str, hit: bool) -> None:
    m = compile_matcher(matcher)
    assert m.error is None
    assert m.matches(query) is hit


def test_an_escaped_paren_or_a_class_is_not_taken_for_a_named_group() -> None:
    from hookline.claude.matchers import js_to_python

    assert js_to_python("(?<a>x)") == "(?P<a>x)"
    assert js_to_python("\\(?<a>x") == "\\(?<a>x"
    assert js_to_python("[(?<]a") == "[(?<]a"
    assert js_to_python("(?<=a)(?<!b)") == "(?<=a)(?<!b)"
    assert js_to_python("[\\]](?<n>x)") == "[\\]](?P<n>x)"


@pytest.mark.parametrize(
    ("event", "payload", "query"),
    [
        ("PermissionDenied", {"tool_name": "Bash"}, "Bash"),
        ("SubagentStart", {"agent_type": "Explore"}, "Explore"),
        ("SubagentStop", {"agent_type": "code-reviewer"}, "code-reviewer"),
        ("PostCompact", {"trigger": "auto"}, "auto"),
        ("Setup", {"trigger": "init"}, "init"),
        ("StopFailure", {"error": "rate_limit"}, "rate_limit"),
        ("InstructionsLoaded", {"load_reason": "session_start"}, "session_start"),
        ("ConfigChange", {"source": "project_settings"}, "project_settings"),
        ("FileChanged", {"file_path": "/p/.envrc"}, ".envrc"),
        ("UserPromptExpansion", {"command_name": "review"}, "review"),
        ("Elicitation", {"mcp_server_name": "github"}, "github"),
        ("SessionEnd", {"reason": "clear"}, "clear"),
        ("PostToolBatch", {"tool_calls": []}, None),
        ("CwdChanged", {"old_cwd": "/a", "new_cwd": "/b"}, None),
    ],
)
def test_each_event_matches_on_its_reference_field(
    event: str, payload: dict[str, object], query: str | None
) -> None:
    assert match_query(event, payload) == query


async def test_subagent_hooks_select_by_agent_type(tmp_path: Path, script: ScriptFactory) -> None:
    log = tmp_path / "log"
    hooks = hooks_for(
        tmp_path,
        source("SubagentStart", script(f"cat > /dev/null; echo explore >> {log}"),
               matcher="Explore", origin="/a.json"),
        source("SubagentStart", script(f"cat > /dev/null; echo review >> {log}"),
               matcher="code-reviewer,security-reviewer", origin="/b.json"),
    )  # fmt: skip

    await hooks.engine.run("SubagentStart", {"agent_id": "a1", "agent_type": "security-reviewer"})

    assert log.read_text().split() == ["review"]


async def test_file_changed_matches_the_watched_file_name(
    tmp_path: Path, script: ScriptFactory
) -> None:
    log = tmp_path / "log"
    hooks = hooks_for(
        tmp_path,
        source("FileChanged", script(f"cat > /dev/null; echo env >> {log}"),
               matcher=".envrc|.env"),
    )  # fmt: skip

    await hooks.engine.run(
        "FileChanged", {"file_path": str(tmp_path / "x.env.bak"), "event": "change"}
    )
    assert not log.exists()
    await hooks.engine.run(
        "FileChanged", {"file_path": str(tmp_path / ".envrc"), "event": "change"}
    )
    assert log.read_text().split() == ["env"]


async def test_instructions_loaded_payload_and_load_reason_matcher(
    tmp_path: Path, script: ScriptFactory
) -> None:
    from hookline.claude import payloads

    captured = tmp_path / "stdin.json"
    hooks = hooks_for(
        tmp_path, source("InstructionsLoaded", f"cat > {captured}", matcher="include")
    )
    fields = payloads.instructions_loaded(
        "/p/docs/style.md", "Project", "include", parent_file_path="/p/CLAUDE.md"
    )
    await hooks.engine.run("InstructionsLoaded", {**fields, "load_reason": "session_start"})
    assert not captured.exists()
    await hooks.engine.run("InstructionsLoaded", fields)

    data = json.loads(captured.read_text())
    assert data["hook_event_name"] == "InstructionsLoaded"
    assert (data["file_path"], data["memory_type"], data["load_reason"]) == (
        "/p/docs/style.md",
        "Project",
        "include",
    )
    assert data["parent_file_path"] == "/p/CLAUDE.md"
    assert "globs" not in data and "trigger_file_path" not in data
