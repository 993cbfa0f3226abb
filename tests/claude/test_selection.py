"""Matchers (every kind), match queries per event, dedupe, policy/trust skips, diagnostics."""

from __future__ import annotations

from pathlib import Path

import pytest

from hookline.claude import ClaudeHooks, compile_matcher, match_query
from hookline.claude.config import build_table
from hookline.settings import HookPolicy
from hookline.settings.models import (
    AgentHookConfig,
    HttpHookConfig,
    MatcherConfig,
    PromptHookConfig,
)

from .conftest import command, source


@pytest.mark.parametrize(
    ("matcher", "query", "hit"),
    [
        (None, "Bash", True),
        ("", "Bash", True),
        ("*", "Anything", True),
        ("Bash", "Bash", True),
        ("Bash", "BashOutput", False),
        ("Bash", "bash", False),
        ("Edit|Write", "Edit", True),
        ("Edit|Write", "Write", True),
        ("Edit|Write", "MultiEdit", False),
        ("Edit | Write", "Write", True),
        ("Notebook.*", "NotebookEdit", True),
        ("^Bash", "BashOutput", True),
        ("^Write$", "TodoWrite", False),
        ("mcp__memory__.*", "mcp__memory__store", True),
        ("mcp__memory__.*", "mcp__fs__read", False),
        (".*Edit", "MultiEdit", True),
    ],
)
def test_matcher_kinds(matcher: str | None, query: str, hit: bool) -> None:
    assert compile_matcher(matcher).matches(query) is hit


def test_matcher_kind_names() -> None:
    assert compile_matcher(None).kind == "all"
    assert compile_matcher("*").kind == "all"
    assert compile_matcher("Edit|Write").kind == "exact"
    assert compile_matcher("Notebook.*").kind == "regex"
    bad = compile_matcher("Bash(")
    assert bad.kind == "invalid"
    assert bad.error and "Bash(" in bad.error
    assert not bad.matches("Bash")


@pytest.mark.parametrize(
    ("event", "payload", "query"),
    [
        ("PreToolUse", {"tool_name": "Bash"}, "Bash"),
        ("PostToolUse", {"tool_name": "Read"}, "Read"),
        ("PostToolUseFailure", {"tool_name": "Edit"}, "Edit"),
        ("PermissionRequest", {"tool_name": "Write"}, "Write"),
        ("SessionStart", {"source": "resume"}, "resume"),
        ("PreCompact", {"trigger": "auto"}, "auto"),
        ("Notification", {"notification_type": "idle_prompt"}, "idle_prompt"),
        ("SessionEnd", {"reason": "clear"}, "clear"),
        ("Stop", {"stop_hook_active": False}, None),
        ("UserPromptSubmit", {"prompt": "hi"}, None),
    ],
)
def test_match_query_per_event(event: str, payload: dict[str, object], query: str | None) -> None:
    assert match_query(event, payload) == query


def test_events_without_query_ignore_matchers(tmp_path: Path) -> None:
    hooks = ClaudeHooks([source("Stop", "echo a", matcher="Nothing")], project_dir=tmp_path)
    assert [h.describe() for h in hooks.engine.select("Stop", None).hooks] == ["echo a"]


def test_session_start_matches_source(tmp_path: Path) -> None:
    hooks = ClaudeHooks(
        [
            source("SessionStart", "echo startup", matcher="startup"),
            source("SessionStart", "echo resume", matcher="resume|compact", origin="/u.json"),
        ],
        project_dir=tmp_path,
    )
    assert [h.describe() for h in hooks.engine.select("SessionStart", "compact").hooks] == [
        "echo resume"
    ]


@pytest.mark.parametrize("event", ["SessionStart", "Setup"])
def test_http_hooks_on_session_start_and_setup_are_skipped(tmp_path: Path, event: str) -> None:
    """As in Claude Code: an http hook there is skipped, saying why; a command hook runs."""
    http = HttpHookConfig(type="http", url="http://127.0.0.1:9/hook")
    hooks = ClaudeHooks([source(event, "echo a", http)], project_dir=tmp_path)  # type: ignore[arg-type]
    sel = hooks.engine.select(event, "startup")
    assert [h.type for h in sel.hooks] == ["command"]
    assert [(s.hook.type, s.reason) for s in sel.skipped] == [
        ("http", f"HTTP hooks are not supported for {event}")
    ]
    other = ClaudeHooks([source("Stop", http)], project_dir=tmp_path)  # type: ignore[arg-type]
    assert [h.type for h in other.engine.select("Stop", None).hooks] == ["http"]


def test_invalid_regex_is_a_config_error_and_a_diagnostic(tmp_path: Path) -> None:
    hooks = ClaudeHooks(
        [
            source("PreToolUse", "echo bad", matcher="Bash("),
            source("PreToolUse", "echo ok", origin="/other.json"),
        ],
        project_dir=tmp_path,
    )
    assert any("invalid matcher regex 'Bash('" in e for e in hooks.engine.errors)
    sel = hooks.engine.select("PreToolUse", "Bash")
    assert [h.describe() for h in sel.hooks] == ["echo ok"]
    bad = [m for m in sel.matchers if m.kind == "invalid"]
    assert bad and not bad[0].matched and bad[0].error
    assert sel.errors
    assert sel.to_dict()["matchers"][0]["error"]


def test_diagnostics_say_which_matchers_matched(tmp_path: Path) -> None:
    hooks = ClaudeHooks(
        [
            source("PreToolUse", "echo e", matcher="Edit|Write"),
            source("PreToolUse", "echo b", matcher="Bash", origin="/b.json"),
        ],
        project_dir=tmp_path,
    )
    sel = hooks.engine.select("PreToolUse", "Bash")
    assert [(m.matcher, m.matched) for m in sel.matchers] == [("Edit|Write", False), ("Bash", True)]


def test_dedupe_command_prompt_agent_and_callbacks_appended(tmp_path: Path) -> None:
    groups = [
        MatcherConfig(
            matcher="*",
            hooks=[
                command("echo same"),
                command("echo same", timeout=5),
                PromptHookConfig(type="prompt", prompt="is it ok?"),
                PromptHookConfig(type="prompt", prompt="is it ok?"),
                AgentHookConfig(type="agent", prompt="check $ARGUMENTS"),
                AgentHookConfig(type="agent", prompt="check "),
            ],
        )
    ]
    from hookline.claude import HookSource

    hooks = ClaudeHooks(
        [
            HookSource("user", Path("/home/u/.claude/settings.json"), {"PreToolUse": groups}),
            source("PreToolUse", "echo same"),
        ],
        project_dir=tmp_path,
    )

    async def cb(data: dict[str, object], tid: str | None, ctx: object) -> dict[str, object]:
        return {}

    hooks.add_callback("PreToolUse", cb)
    hooks.add_callback("PreToolUse", cb)
    sel = hooks.engine.select("PreToolUse", "Bash")
    assert [h.type for h in sel.hooks] == ["command", "prompt", "agent", "callback", "callback"]
    assert len(sel.deduped) == 4
    kinds = sorted(d.key[0] for d in sel.deduped)
    assert kinds == ["agent", "command", "command", "prompt"]
    assert all(d.kept.scope == "user" for d in sel.deduped)
    assert "duplicate command 'echo same'" in sel.deduped[0].reason


def test_untrusted_project_hooks_are_skipped_with_reason(tmp_path: Path) -> None:
    hooks = ClaudeHooks(
        [
            source("PreToolUse", "echo project", scope="project"),
            source(
                "PreToolUse",
                "echo local",
                scope="local",
                origin="/proj/.claude/settings.local.json",
            ),
            source("PreToolUse", "echo user", scope="user", origin="/home/u/.claude/settings.json"),
        ],
        project_dir=tmp_path,
        project_trusted=False,
    )
    sel = hooks.engine.select("PreToolUse", "Bash")
    assert [h.describe() for h in sel.hooks] == ["echo user"]
    assert len(sel.skipped) == 2
    assert all("not trusted" in s.reason for s in sel.skipped)
    assert sel.to_dict()["skipped"][0]["reason"].startswith("the project directory is not trusted")


def test_disable_all_hooks_skips_everything(tmp_path: Path) -> None:
    hooks = ClaudeHooks(
        [
            source("PreToolUse", "echo a", scope="managed", origin="/etc/m.json"),
            source("PreToolUse", "echo b"),
        ],
        project_dir=tmp_path,
        policy=HookPolicy(disable_all=True),
    )
    hooks.add_callback("PreToolUse", lambda d, t, c: None)
    sel = hooks.engine.select("PreToolUse", "Bash")
    assert sel.hooks == []
    assert [s.reason for s in sel.skipped] == [
        "all hooks are disabled (disableAllHooks in the managed settings)"
    ] * 3


def test_managed_only_keeps_managed_and_callbacks(tmp_path: Path) -> None:
    hooks = ClaudeHooks(
        [
            source("PreToolUse", "echo managed", scope="managed", origin="/etc/m.json"),
            source("PreToolUse", "echo user", scope="user", origin="/u.json"),
            source("PreToolUse", "echo plugin", scope="plugin", origin="/p/hooks/hooks.json"),
        ],
        project_dir=tmp_path,
        policy=HookPolicy(managed_only=True),
    )
    hooks.add_callback("PreToolUse", lambda d, t, c: None)
    sel = hooks.engine.select("PreToolUse", "Bash")
    assert [h.type + ":" + h.scope for h in sel.hooks] == ["command:managed", "callback:callback"]
    assert {s.hook.scope for s in sel.skipped} == {"user", "plugin"}
    assert all("allowManagedHooksOnly" in s.reason for s in sel.skipped)


def test_matchers_of_hooks_that_may_not_run_are_never_compiled(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An untrusted project's matcher is attacker text: it is not even compiled."""
    import hookline.claude.matchers as matchers
    import hookline.claude.selection as selection

    def refuse(source: str | None) -> object:
        raise AssertionError(f"compiled {source!r}")

    monkeypatch.setattr(matchers, "compile_matcher", refuse)
    monkeypatch.setattr(selection, "compile_matcher", refuse)
    evil = source("PreToolUse", "echo a", matcher="(.?){2000}z", scope="project")
    table = build_table([evil], project_trusted=False)
    sel = selection.select_hooks("PreToolUse", "a" * 50, table.by_event["PreToolUse"])
    assert sel.hooks == [] and [s.hook.matcher for s in sel.skipped] == ["(.?){2000}z"]


def test_unknown_event_is_a_config_error() -> None:
    from hookline.claude import HookSource

    table = build_table([HookSource("user", Path("/u.json"), {"PreToolUze": []})])
    assert table.errors == [
        "/u.json: hooks.PreToolUze: unknown event 'PreToolUze' (did you mean 'PreToolUse'?); "
        "skipped"
    ]


def test_add_callback_rejects_unknown_event(tmp_path: Path) -> None:
    hooks = ClaudeHooks(project_dir=tmp_path)
    with pytest.raises(ValueError, match="unknown Claude hook event"):
        hooks.add_callback("PreTool", lambda d, t, c: None)


# -- matchers run on RE2, or on a bounded fallback ----------------------------------------


def test_regex_matchers_run_on_re2() -> None:
    import re2

    m = compile_matcher("^(Bash|Edit)$")
    assert m.kind == "regex" and isinstance(m.regex, re2._Regexp) and not m.bounded
    assert m.matches("Bash") and not m.matches("Bashful")


@pytest.mark.parametrize(
    "pattern",
    ["(.?){2000}z", "(a+)+$x(?=y)", "(a|aa)*(?=b)", "(?<=x)(\\w+)*", "(a)\\1*(b+)+"],
)
def test_patterns_that_could_backtrack_are_refused_not_run(pattern: str) -> None:
    m = compile_matcher(pattern)
    assert m.kind == "invalid" and m.error is not None and "could stall" in m.error
    assert not m.matches("a" * 40)


@pytest.mark.parametrize(
    ("pattern", "query", "hit"),
    [
        ("^(?!Edit)\\w+", "Bash", True),
        ("^(?!Edit)\\w+", "Edit", False),
        ("(?<=mcp__)memory", "mcp__memory__x", True),
        ("(a)b\\1", "xaba", True),
    ],
)
def test_lookarounds_and_backrefs_use_the_bounded_fallback(
    pattern: str, query: str, hit: bool
) -> None:
    m = compile_matcher(pattern)
    assert m.kind == "regex" and m.bounded
    assert m.matches(query) is hit


def test_fallback_is_bounded_in_pattern_and_query_length() -> None:
    from hookline.claude.matchers import MAX_FALLBACK_PATTERN, MAX_FALLBACK_QUERY

    long_pattern = "(?=x)" + "a" * MAX_FALLBACK_PATTERN
    assert compile_matcher(long_pattern).kind == "invalid"
    m = compile_matcher("^(?!Edit)Bash$")
    assert m.matches("x" * (MAX_FALLBACK_QUERY + 1))  # too long to test: the hook runs
