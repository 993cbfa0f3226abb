"""The pytest plugin's fixtures and harness: scripted UI, emitting, assertions that can fail."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hookline.authoring import HookHarness, HookLoadFailed
from hookline.core.api import HookAPI
from hookline.core.context import HookContext
from hookline.core.events import ToolCallEvent, ToolResultEvent

ASKING = """\
def register(pi):
    @pi.on("tool_call")
    async def ask(event, ctx):
        if not ctx.has_ui:
            return {"block": True, "reason": "no UI"}
        if not await ctx.ui.confirm("Run?", event.input.get("command", ""), timeout=5):
            return {"block": True, "reason": "refused"}
        choice = await ctx.ui.select("Which?", ["a", "b"])
        if choice == "b":
            return {"input": {"command": "echo b"}}
        return None
"""


@pytest.fixture
def asking(tmp_path: Path) -> Path:
    path = tmp_path / "ask.py"
    path.write_text(ASKING)
    return path


async def test_scripted_answers_drive_the_dialogs(hook_harness: HookHarness, asking: Path) -> None:
    hook_harness.load(asking)
    hook_harness.ui.answer("confirm", True).answer("select", "b")
    emitted = await hook_harness.tool_call("bash", {"command": "ls"})
    emitted.assert_input({"command": "echo b"})
    [confirm, select] = hook_harness.ui.asked
    assert (confirm.kind, confirm.detail, confirm.timeout, confirm.answer) == (
        "confirm",
        "ls",
        5,
        True,
    )
    assert (select.kind, select.detail, select.answer) == ("select", ["a", "b"], "b")
    assert hook_harness.ui.pending() == {}


async def test_a_timed_out_dialog_answers_its_default(
    hook_harness: HookHarness, asking: Path
) -> None:
    hook_harness.load(asking)
    hook_harness.ui.time_out("confirm")
    (await hook_harness.tool_call("bash", {"command": "ls"})).assert_blocked("refused")
    assert hook_harness.ui.asked[0].timed_out is True


async def test_without_a_ui_has_ui_is_false(
    make_harness: Callable[..., HookHarness], asking: Path
) -> None:
    harness = make_harness(asking, has_ui=False)
    (await harness.tool_call("bash", {"command": "ls"})).assert_blocked("no UI")


async def test_a_select_answer_must_be_offered(hook_harness: HookHarness, asking: Path) -> None:
    """A scripted answer the dialog did not offer fails the hook (so the call is blocked)."""
    hook_harness.load(asking)
    hook_harness.ui.answer("confirm", True).answer("select", "c")
    emitted = await hook_harness.tool_call("bash", {"command": "ls"})
    emitted.assert_blocked()
    assert "not among ['a', 'b']" in emitted.errors[0].error


def test_a_confirm_answer_must_be_a_bool(hook_harness: HookHarness) -> None:
    with pytest.raises(TypeError):
        hook_harness.ui.answer("confirm", "yes")
    with pytest.raises(ValueError, match="unknown dialog"):
        hook_harness.ui.answer("prompt", "x")  # type: ignore[arg-type]


async def test_assertions_fail_when_they_should(hook_harness: HookHarness, asking: Path) -> None:
    hook_harness.load(asking)
    hook_harness.ui.answer("confirm", True, False).answer("select", "a")
    allowed = await hook_harness.tool_call("bash", {"command": "ls"})
    allowed.assert_allowed()
    with pytest.raises(AssertionError, match="was not blocked"):
        allowed.assert_blocked()
    with pytest.raises(AssertionError):
        allowed.assert_input({"command": "ls"})
    with pytest.raises(AssertionError, match="not patched"):
        allowed.assert_patched("x")
    refused = await hook_harness.tool_call("bash", {"command": "ls"})
    with pytest.raises(AssertionError, match="reason"):
        refused.assert_blocked("something else")
    with pytest.raises(AssertionError, match="was blocked"):
        refused.assert_allowed()


def test_a_hook_that_fails_to_load_raises_with_the_reason(
    hook_harness: HookHarness, tmp_path: Path
) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("def register(pi):\n    pi.on('PostToolUse', print)\n")
    with pytest.raises(HookLoadFailed, match="in hookline this is 'tool_result'"):
        hook_harness.load(bad)


async def test_messages_prompts_and_entries_sent_are_recorded(hook_harness: HookHarness) -> None:
    def hook(pi: HookAPI) -> None:
        @pi.on("agent_end")
        def done(event: Any, ctx: HookContext) -> None:
            pi.send_message({"custom_type": "note", "content": "done"})
            pi.send("next prompt")
            pi.append_entry("state", {"n": 1})

    hook_harness.register(hook)
    emitted = await hook_harness.emit("agent_end")
    assert emitted.result is None and emitted.errors == []
    assert [m["content"] for m in hook_harness.host.messages] == ["done"]
    assert hook_harness.host.prompts == ["next prompt"]
    assert hook_harness.host.entries == [("state", {"n": 1})]


async def test_tool_result_patches_and_the_pipeline(hook_harness: HookHarness) -> None:
    def hook(pi: HookAPI) -> None:
        @pi.on("tool_call")
        def rewrite(event: ToolCallEvent, ctx: HookContext) -> Any:
            return {"input": {"command": "ls -a"}} if event.input == {"command": "ls"} else None

        @pi.on("tool_result")
        def redact(event: ToolResultEvent, ctx: HookContext) -> Any:
            text = event.content[0]["text"]  # type: ignore[typeddict-item]
            return {"content": [{"type": "text", "text": text.replace("secret", "[x]")}]}

    hook_harness.register(hook)
    (await hook_harness.tool_result("read", {"path": "a"}, "a secret")).assert_patched("a [x]")
    outcome = await hook_harness.run_tool("bash", {"command": "ls"}, output="the secret")
    assert outcome.input == {"command": "ls -a"}
    assert outcome.result.content == [{"type": "text", "text": "the [x]"}]


async def test_a_late_handler_blocks_and_is_reported(tmp_path: Path) -> None:
    harness = HookHarness(tmp_path, timeout=0.2)

    def hook(pi: HookAPI) -> None:
        @pi.on("tool_call")
        async def stuck(event: ToolCallEvent, ctx: HookContext) -> None:
            await asyncio.Event().wait()

    harness.register(hook)
    emitted = await harness.tool_call("bash", {"command": "ls"})
    emitted.assert_blocked("timed out")
    assert [c.finished for c in emitted.calls] == [False]
    assert "did not finish" in emitted.calls[0].describe()
    assert len(emitted.errors) == 1


async def test_settings_hooks_run_after_module_hooks(
    make_harness: Callable[..., HookHarness], tmp_path: Path
) -> None:
    seen = tmp_path / "seen.json"
    settings = tmp_path / "settings.json"
    command = f"cat > {seen}; echo 'nope' >&2; exit 2"
    settings.write_text(
        json.dumps(
            {
                "hooks": {
                    "PreToolUse": [
                        {"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}
                    ]
                }
            }
        )
    )
    rewrite = tmp_path / "rewrite.py"
    rewrite.write_text(
        "def register(pi):\n"
        "    pi.on('tool_call', lambda e, c: {'input': {'command': 'echo rewritten'}})\n"
    )
    harness = make_harness(rewrite, settings=settings)
    emitted = await harness.tool_call("Bash", {"command": "ls"})
    emitted.assert_blocked("nope")
    assert [o.kind for o in emitted.outcomes] == ["blocking"]
    # The command hook saw the input the module hook rewrote, in Claude's vocabulary.
    assert json.loads(seen.read_text())["tool_input"] == {"command": "echo rewritten"}
    with pytest.raises(RuntimeError, match="before settings hooks"):
        harness.load(rewrite)


async def test_emit_fills_ids_and_timestamps(hook_harness: HookHarness) -> None:
    got: list[Any] = []
    hook_harness.register(lambda pi: pi.on("turn_start", lambda e, c: got.append(e)))
    await hook_harness.emit("turn_start")
    await hook_harness.tool_call("bash", {"command": "ls"})
    assert got[0].turn_index == 0 and got[0].timestamp > 0


async def test_a_hook_calls_a_scripted_model_through_the_harness(
    hook_harness: HookHarness, tmp_path: Path
) -> None:
    script = tmp_path / "judge.json"
    script.write_text(json.dumps({"turns": ["yes"]}))

    def judge(pi: HookAPI) -> None:
        from hookline import complete
        from hookline.core.messages import content_text, user_message

        @pi.on("tool_call")
        async def ask_the_model(event: ToolCallEvent, ctx: HookContext) -> object:
            reply = await complete(
                f"scripted:{script}", [user_message("safe?")], registry=ctx.model_registry
            )
            return None if content_text(reply["content"]) == "yes" else {"block": True}

    hook_harness.register(judge, "judge.py")
    outcome = await hook_harness.emit("tool_call", tool_name="bash", input={"command": "ls"})
    outcome.assert_allowed()


async def test_cwd_is_the_tests_tmp_path_as_a_path(
    hook_harness: HookHarness, tmp_path: Path
) -> None:
    """``hook_harness.cwd / "x"`` works: the folder is a ``Path``, the test's ``tmp_path``."""
    assert isinstance(hook_harness.cwd, Path) and hook_harness.cwd == tmp_path
    (hook_harness.cwd / "guard.py").write_text(
        "def register(pi):\n    pi.on('tool_call', lambda e, c: {'block': True, 'reason': c.cwd})\n"
    )
    hook_harness.load("guard.py")  # relative to cwd, as a str still
    (await hook_harness.tool_call("bash", {"command": "ls"})).assert_blocked(str(tmp_path))


def test_a_str_cwd_is_accepted_and_made_a_path(tmp_path: Path) -> None:
    harness = HookHarness(str(tmp_path))
    assert harness.cwd == tmp_path and isinstance(harness.cwd, Path)
