"""Errors bridge vocabularies: Claude Code names in a module hook say what hookline calls them."""

from __future__ import annotations

from pathlib import Path

import pytest

from hookline.core.api import HookAPI, LoadedHook, UnknownEventError
from hookline.core.events import ToolCallEvent, ToolResultEvent
from hookline.core.results import InvalidResultError, coerce_result
from hookline.discovery import LoadError, load_hook_file


@pytest.mark.parametrize(
    ("claude", "ours"),
    [("PreToolUse", "tool_call"), ("PostToolUse", "tool_result"), ("UserPromptSubmit", "input")],
)
def test_on_with_a_claude_event_name_names_hooklines(claude: str, ours: str) -> None:
    api = HookAPI(LoadedHook("x.py"))
    with pytest.raises(UnknownEventError, match=f"in hookline this is '{ours}'"):
        api.on(claude)


def test_a_typo_still_gets_did_you_mean() -> None:
    with pytest.raises(UnknownEventError, match="did you mean 'tool_call'"):
        HookAPI(LoadedHook("x.py")).on("tool_cal")


def test_a_hook_file_using_pretooluse_fails_to_load_with_the_hint(tmp_path: Path) -> None:
    hook = tmp_path / "claude_style.py"
    hook.write_text("def register(pi):\n    pi.on('PreToolUse', lambda e, c: None)\n")
    loaded = load_hook_file(str(hook))
    assert isinstance(loaded, LoadError)
    assert "in hookline this is 'tool_call'" in loaded.reason


@pytest.mark.parametrize(
    ("field", "ours"), [("tool_input", "input"), ("tool_use_id", "tool_call_id")]
)
def test_a_claude_field_on_a_tool_call_event_names_hooklines(field: str, ours: str) -> None:
    event = ToolCallEvent(tool_name="bash", tool_call_id="c", input={"command": "ls"})
    with pytest.raises(AttributeError, match=f"in hookline this is '{ours}'") as info:
        getattr(event, field)
    assert info.value.name == field


def test_tool_response_on_a_result_event_names_content() -> None:
    event = ToolResultEvent(tool_name="bash", tool_call_id="c", input={}, content=[])
    with pytest.raises(AttributeError, match="'content'"):
        _ = event.tool_response  # type: ignore[attr-defined]


def test_real_fields_and_hasattr_are_unchanged() -> None:
    event = ToolCallEvent(tool_name="bash", tool_call_id="c", input={"command": "ls"})
    assert event.input == {"command": "ls"}
    assert not hasattr(event, "nonsense")
    assert getattr(event, "nonsense", 5) == 5


def test_a_claude_output_key_in_a_result_gets_a_hint() -> None:
    with pytest.raises(InvalidResultError) as info:
        coerce_result("tool_call", {"decision": "block", "reason": "x"})
    assert "'decision' is Claude Code's output" in str(info.value)
    assert "`block: True`" in str(info.value)


def test_an_unknown_key_that_is_not_claudes_gets_no_hint() -> None:
    with pytest.raises(InvalidResultError) as info:
        coerce_result("tool_call", {"blok": True})
    assert "Claude Code" not in str(info.value)


@pytest.mark.parametrize(
    ("claude", "ours"),
    [
        ("PostCompact", "session_compact"),
        ("InstructionsLoaded", "instructions_loaded"),
        ("pre_tool_use", "tool_call"),  # any spelling of Claude's name
        ("preToolUse", "tool_call"),
        ("user_prompt_submit", "input"),
    ],
)
def test_other_claude_events_and_spellings_name_hooklines(claude: str, ours: str) -> None:
    with pytest.raises(UnknownEventError, match=f"in hookline this is '{ours}'"):
        HookAPI(LoadedHook("x.py")).on(claude)


@pytest.mark.parametrize("claude", ["PermissionDenied", "StopFailure", "PostToolBatch", "Setup"])
def test_a_claude_event_without_a_counterpart_says_so_not_a_look_alike(claude: str) -> None:
    with pytest.raises(UnknownEventError) as info:
        HookAPI(LoadedHook("x.py")).on(claude)
    assert "no counterpart in hookline" in str(info.value)
    assert ".claude/settings.json" in str(info.value)
    assert "did you mean" not in str(info.value)  # not 'permission_request' for PermissionDenied


def test_the_claude_event_lists_cover_every_event_claude_settings_accept() -> None:
    from hookline.core.events import EVENT_NAMES
    from hookline.core.vocabulary import CLAUDE_ONLY_EVENTS, HOOKLINE_EVENT_NAMES
    from hookline.settings.models import CLAUDE_EVENTS

    assert set(HOOKLINE_EVENT_NAMES) | CLAUDE_ONLY_EVENTS == set(CLAUDE_EVENTS)
    assert not set(HOOKLINE_EVENT_NAMES) & CLAUDE_ONLY_EVENTS
    assert set(HOOKLINE_EVENT_NAMES.values()) <= EVENT_NAMES


def test_the_decorator_form_in_a_hook_file_fails_to_load_with_the_hint(tmp_path: Path) -> None:
    hook = tmp_path / "claude_style.py"
    hook.write_text(
        "def register(pi):\n"
        "    @pi.on('PreToolUse')\n"
        "    def guard(event, ctx):\n"
        "        return None\n"
    )
    loaded = load_hook_file(str(hook))
    assert isinstance(loaded, LoadError)
    assert "unknown event 'PreToolUse'" in loaded.reason
    assert "in hookline this is 'tool_call'" in loaded.reason


@pytest.mark.parametrize(
    ("event", "result", "ours"),
    [
        ("tool_call", {"tool_input": {"command": "ls -la"}}, "input"),
        ("tool_result", {"tool_response": "redacted"}, "content"),
        ("input", {"prompt": "new text"}, "text"),
    ],
)
def test_a_claude_field_name_in_a_result_names_hooklines(
    event: str, result: dict[str, object], ours: str
) -> None:
    with pytest.raises(InvalidResultError) as info:
        coerce_result(event, result)
    field = next(iter(result))
    assert f"that is Claude Code's field name: in hookline this is '{ours}'" in str(info.value)
    assert f"unknown result key {field!r} for {event}" in str(info.value)


@pytest.mark.parametrize(
    ("key", "ours"),
    [
        ("permissionDecision", "`block: True` denies"),
        ("permissionDecisionReason", "`reason`"),
        ("updatedInput", "`input`"),
        ("hookSpecificOutput", "return the fields themselves"),
    ],
)
def test_a_claude_output_key_in_a_tool_call_result_names_hooklines(key: str, ours: str) -> None:
    with pytest.raises(InvalidResultError) as info:
        coerce_result("tool_call", {key: "deny"})
    assert f"'{key}' is Claude Code's output: in hookline, {ours}" in str(info.value)
