"""`hookline claude-hook`: Claude hook input in, hookline module hooks run, Claude answer out.

Every test starts the real command as a subprocess with the JSON on stdin, as
Claude Code does.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .helpers import pre_tool_use as _pre
from .helpers import run_claude_hook

GUARD = """
def register(pi):
    @pi.on("tool_call")
    def guard(event, ctx):
        command = event.input.get("command", "")
        if event.tool_name == "bash" and command.startswith("rm "):
            return {"block": True, "reason": "no rm here"}
        if event.tool_name == "bash" and command.startswith("npm "):
            return {"input": {**event.input, "command": "pnpm " + command[4:]}}
        if event.tool_name == "edit":
            return {"input": {**event.input, "newText": event.input["newText"].upper()}}
        if event.tool_name == "read":
            return {"permission": "allow"}
"""


def test_a_block_is_a_deny_decision_with_the_reason(tmp_path: Path, hook_file: Any) -> None:
    hook = hook_file(GUARD)
    payload = _pre(tmp_path, "Bash", {"command": "rm -rf build"})
    answer = run_claude_hook(payload, "--hook", str(hook), cwd=tmp_path)
    assert answer.code == 0, answer.stderr
    assert answer.output == {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": "no rm here",
        }
    }


def test_a_rewrite_goes_back_in_claude_keys_keeping_unknown_ones(
    tmp_path: Path, hook_file: Any
) -> None:
    hook = hook_file(GUARD)
    payload = _pre(
        tmp_path, "Bash", {"command": "npm install", "timeout": 60000, "description": "d"}
    )
    answer = run_claude_hook(payload, "--hook", str(hook), cwd=tmp_path)
    updated = answer.output["hookSpecificOutput"]["updatedInput"]
    # timeout: Claude's milliseconds → hookline's seconds → Claude's milliseconds again.
    assert updated == {"command": "pnpm install", "timeout": 60000, "description": "d"}
    assert "permissionDecision" not in answer.output["hookSpecificOutput"]


def test_edit_input_is_seen_in_hooklines_vocabulary(tmp_path: Path, hook_file: Any) -> None:
    hook = hook_file(GUARD)
    claude_input = {"file_path": "/p/a.txt", "old_string": "a", "new_string": "b"}
    answer = run_claude_hook(
        _pre(tmp_path, "Edit", claude_input), "--hook", str(hook), cwd=tmp_path
    )
    updated = answer.output["hookSpecificOutput"]["updatedInput"]
    assert updated == {"file_path": "/p/a.txt", "old_string": "a", "new_string": "B"}


def test_permission_allow_becomes_a_permission_decision(tmp_path: Path, hook_file: Any) -> None:
    hook = hook_file(GUARD)
    payload = _pre(tmp_path, "Read", {"file_path": "/etc/hosts"})
    answer = run_claude_hook(payload, "--hook", str(hook), cwd=tmp_path)
    assert answer.output["hookSpecificOutput"]["permissionDecision"] == "allow"


def test_no_opinion_is_an_empty_answer(tmp_path: Path, hook_file: Any) -> None:
    hook = hook_file(GUARD)
    payload = _pre(tmp_path, "Bash", {"command": "ls"})
    answer = run_claude_hook(payload, "--hook", str(hook), cwd=tmp_path)
    assert (answer.code, answer.output, answer.stderr) == (0, {}, "")


def test_a_raising_tool_call_hook_denies(tmp_path: Path, hook_file: Any) -> None:
    hook = hook_file(
        "def register(pi):\n"
        "    @pi.on('tool_call')\n"
        "    def boom(event, ctx):\n"
        "        raise RuntimeError('kaput')\n"
    )
    answer = run_claude_hook(
        _pre(tmp_path, "Bash", {"command": "ls"}), "--hook", str(hook), cwd=tmp_path
    )
    decision = answer.output["hookSpecificOutput"]
    assert decision["permissionDecision"] == "deny"
    assert "kaput" in answer.stderr


def test_a_hook_that_fails_to_load_denies_tool_calls(tmp_path: Path, hook_file: Any) -> None:
    hook = hook_file("def register(pi):\n    pi.on('no_such_event', lambda e, c: None)\n")
    answer = run_claude_hook(
        _pre(tmp_path, "Bash", {"command": "ls"}), "--hook", str(hook), cwd=tmp_path
    )
    assert answer.code == 2
    assert answer.output["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "no_such_event" in answer.stderr


def test_a_missing_hook_file_denies_tool_calls(tmp_path: Path) -> None:
    missing = str(tmp_path / "nope.py")
    answer = run_claude_hook(
        _pre(tmp_path, "Bash", {"command": "ls"}), "--hook", missing, cwd=tmp_path
    )
    assert answer.code == 2
    assert "nope.py" in answer.stderr


def test_a_hook_that_fails_to_load_does_not_block_a_stop(tmp_path: Path, hook_file: Any) -> None:
    hook = hook_file("raise SyntaxError('bad')\n")
    payload = {"hook_event_name": "Stop", "cwd": str(tmp_path), "stop_hook_active": False}
    answer = run_claude_hook(payload, "--hook", str(hook), cwd=tmp_path)
    assert answer.code == 1  # a non-blocking error: shown to the user, the agent stops
    assert answer.output == {}


def test_input_that_is_not_claudes_json_denies(tmp_path: Path) -> None:
    """No event name to go by: a PreToolUse deny as JSON at exit 0, which Claude Code reads
    as a deny for a PreToolUse and ignores on any other event (exit 2 would not be)."""
    for bad in ("not json", "[1, 2]", '{"tool_name": "Bash"}'):
        answer = run_claude_hook(bad, "--no-discovery", cwd=tmp_path)
        assert answer.code == 0, bad
        specific = answer.output["hookSpecificOutput"]
        assert (specific["hookEventName"], specific["permissionDecision"]) == ("PreToolUse", "deny")


def test_a_wrongly_typed_field_denies(tmp_path: Path, hook_file: Any) -> None:
    hook = hook_file(GUARD)
    payload = _pre(tmp_path, "Bash", {"command": "ls"})
    payload["tool_input"] = "rm -rf /"
    answer = run_claude_hook(payload, "--hook", str(hook), cwd=tmp_path)
    assert answer.code == 2
    assert "tool_input" in answer.stderr


def test_stop_block_asks_claude_to_continue(tmp_path: Path, hook_file: Any) -> None:
    hook = hook_file(
        "def register(pi):\n"
        "    @pi.on('stop')\n"
        "    def keep_going(event, ctx):\n"
        "        if not event.stop_hook_active:\n"
        "            return {'block': True, 'reason': 'run the tests first'}\n"
    )
    payload = {"hook_event_name": "Stop", "cwd": str(tmp_path), "stop_hook_active": False}
    answer = run_claude_hook(payload, "--hook", str(hook), cwd=tmp_path)
    assert answer.output == {"decision": "block", "reason": "run the tests first"}
    payload["stop_hook_active"] = True
    assert run_claude_hook(payload, "--hook", str(hook), cwd=tmp_path).output == {}


def test_user_prompt_handled_is_a_block(tmp_path: Path, hook_file: Any) -> None:
    hook = hook_file(
        "def register(pi):\n"
        "    @pi.on('input')\n"
        "    def secret(event, ctx):\n"
        "        if 'password' in event.text:\n"
        "            return {'handled': True}\n"
    )
    payload = {"hook_event_name": "UserPromptSubmit", "cwd": str(tmp_path), "prompt": "my password"}
    answer = run_claude_hook(payload, "--hook", str(hook), cwd=tmp_path)
    assert answer.output["decision"] == "block"
    payload["prompt"] = "hello"
    assert run_claude_hook(payload, "--hook", str(hook), cwd=tmp_path).output == {}


def test_post_tool_use_override_and_append(tmp_path: Path, hook_file: Any) -> None:
    hook = hook_file(
        "def register(pi):\n"
        "    @pi.on('tool_result')\n"
        "    def redact(event, ctx):\n"
        "        text = event.content[0]['text']\n"
        "        return {'content': [{'type': 'text', 'text': text.replace('sk-123', '[key]')}],\n"
        "                'append': [{'type': 'text', 'text': 'note: redacted'}]}\n"
    )
    payload = {
        "hook_event_name": "PostToolUse",
        "cwd": str(tmp_path),
        "tool_name": "Bash",
        "tool_input": {"command": "env"},
        "tool_use_id": "t",
        "tool_response": {"stdout": "KEY=sk-123", "stderr": "", "interrupted": False},
    }
    answer = run_claude_hook(payload, "--hook", str(hook), cwd=tmp_path)
    specific = answer.output["hookSpecificOutput"]
    assert specific["updatedToolOutput"] == {
        "stdout": "KEY=[key]",
        "stderr": "",
        "interrupted": False,
    }
    assert specific["additionalContext"] == "note: redacted"


def test_post_tool_use_is_error_is_a_block_decision(tmp_path: Path, hook_file: Any) -> None:
    hook = hook_file(
        "def register(pi):\n"
        "    @pi.on('tool_result')\n"
        "    def fail(event, ctx):\n"
        "        return {'is_error': True, 'content': [{'type': 'text', 'text': 'lint failed'}]}\n"
    )
    payload = {
        "hook_event_name": "PostToolUse",
        "cwd": str(tmp_path),
        "tool_name": "Write",
        "tool_input": {"file_path": "/p/x.py", "content": "x"},
        "tool_response": {"type": "create", "filePath": "/p/x.py"},
    }
    answer = run_claude_hook(payload, "--hook", str(hook), cwd=tmp_path)
    assert answer.output == {"decision": "block", "reason": "lint failed"}


def test_events_without_a_moment_answer_nothing(tmp_path: Path, hook_file: Any) -> None:
    hook = hook_file(GUARD)
    payload = {"hook_event_name": "WorktreeCreate", "cwd": str(tmp_path)}
    answer = run_claude_hook(payload, "--hook", str(hook), cwd=tmp_path)
    assert (answer.code, answer.output) == (0, {})


def test_session_start_runs_the_hook(tmp_path: Path, hook_file: Any) -> None:
    marker = tmp_path / "started.txt"
    hook = hook_file(
        "def register(pi):\n"
        "    @pi.on('session_start')\n"
        "    def started(event, ctx):\n"
        f"        open({str(marker)!r}, 'w').write(event.source + ' ' + ctx.cwd)\n"
    )
    payload = {"hook_event_name": "SessionStart", "cwd": str(tmp_path), "source": "resume"}
    answer = run_claude_hook(payload, "--hook", str(hook), cwd=tmp_path)
    assert answer.code == 0, answer.stderr
    assert marker.read_text() == f"resume {tmp_path}"


def test_untrusted_project_hooks_load_only_when_trusted(tmp_path: Path) -> None:
    hooks = tmp_path / ".hookline" / "hooks"
    hooks.mkdir(parents=True)
    (hooks / "deny.py").write_text(
        "def register(pi):\n"
        "    pi.on('tool_call', lambda e, c: {'block': True, 'reason': 'project hook'})\n"
    )
    payload = _pre(tmp_path, "Bash", {"command": "ls"})
    skipped = run_claude_hook(payload, "--allow-untrusted-skip", cwd=tmp_path)
    assert (skipped.code, skipped.output) == (0, {})
    trusted = run_claude_hook(payload, "--trust-project", cwd=tmp_path)
    assert trusted.output["hookSpecificOutput"]["permissionDecisionReason"] == "project hook"


def test_a_hook_printing_to_stdout_cannot_forge_the_answer(tmp_path: Path, hook_file: Any) -> None:
    allow = '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}'
    hook = hook_file(
        "import subprocess\n"
        "def register(pi):\n"
        f"    print({allow!r})\n"
        "    @pi.on('tool_call')\n"
        "    def deny(event, ctx):\n"
        f"        print({allow!r})\n"
        f"        subprocess.run(['echo', {allow!r}])\n"
        "        return {'block': True, 'reason': 'no'}\n"
    )
    answer = run_claude_hook(
        _pre(tmp_path, "Bash", {"command": "ls"}), "--hook", str(hook), cwd=tmp_path
    )
    assert answer.output["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "permissionDecision" in answer.stderr  # what the hook printed went to stderr


def test_hook_paths_are_relative_to_where_the_hook_starts(tmp_path: Path, hook_file: Any) -> None:
    """Claude's `cwd` follows the agent's `cd`; `--hook guard.py` still means the project's."""
    hook_file(GUARD, "guard.py")
    elsewhere = tmp_path / "sub" / "dir"
    elsewhere.mkdir(parents=True)
    payload = _pre(elsewhere, "Bash", {"command": "rm x"})
    answer = run_claude_hook(payload, "--no-discovery", "--hook", "guard.py", cwd=tmp_path)
    assert answer.code == 0, answer.stderr
    assert answer.output["hookSpecificOutput"]["permissionDecisionReason"] == "no rm here"


_PROBE = """
import io, json, sys
payload, hook, out = sys.argv[1:]
sys.stdin = io.TextIOWrapper(io.BytesIO(payload.encode()))
import os
real_exit = os._exit

def report(code):  # the hooks run in a forked child: its modules are the ones that count
    if not os.path.exists(out):  # the parent, which waits for the child, leaves this way too
        with open(out, "x") as f:
            json.dump({"code": code, "modules": sorted(sys.modules)}, f)
    real_exit(code)

os._exit = report
from hookline.cli import main
main(["claude-hook", "--no-discovery", "--hook", hook])
"""

#: What one event must not pay for: the agent, sessions, tools, settings models, the TUI,
#: the SDKs, YAML. (importlib.metadata, and shutil through it, are not listed: pydantic
#: imports them to look for its plugins the first time a hook's dict result is validated.)
_HEAVY = (
    "hookline.agent",
    "hookline.session",
    "hookline.tools.builtin",
    "hookline.settings.loader",
    "hookline.claude.adapter",
    "hookline.modes.tui",
    "anthropic",
    "openai",
    "rich",
    "prompt_toolkit",
    "yaml",
)


def test_claude_hook_imports_only_what_one_event_needs(tmp_path: Path, hook_file: Any) -> None:
    import json
    import subprocess
    import sys

    hook = hook_file(GUARD)
    out = tmp_path / "probe.json"
    payload = json.dumps(_pre(tmp_path, "Bash", {"command": "rm x"}))
    subprocess.run(
        [sys.executable, "-c", _PROBE, payload, str(hook), str(out)],
        check=True,
        capture_output=True,
        cwd=tmp_path,
        timeout=60,
    )
    probe = json.loads(out.read_text())
    assert probe["code"] == 0
    heavy = [m for m in probe["modules"] if m.startswith(_HEAVY)]
    assert heavy == []
    assert "hookline.bridge.engine" in probe["modules"]  # the probe saw a real run


def test_a_hook_answering_in_claudes_vocabulary_is_denied_with_the_hint(
    tmp_path: Path, hook_file: Any
) -> None:
    """``tool_input`` in a result is no rewrite: the call is blocked, the error names ``input``."""
    hook = hook_file(
        """
def register(pi):
    @pi.on("tool_call")
    def rewrite(event, ctx):
        return {"tool_input": {"command": "ls -la"}}
"""
    )
    answer = run_claude_hook(
        _pre(tmp_path, "Bash", {"command": "ls"}), "--hook", str(hook), cwd=tmp_path
    )
    decision = answer.output["hookSpecificOutput"]
    assert decision["permissionDecision"] == "deny"
    assert "updatedInput" not in decision
    assert "in hookline this is 'input'" in decision["permissionDecisionReason"]
    assert "in hookline this is 'input'" in answer.stderr


def test_a_long_answer_arrives_whole(tmp_path: Path, hook_file: Any) -> None:
    """The process Claude started leaves without tearing the interpreter down (the hooks
    ran in its child): what it wrote is flushed first, however long, on both streams."""
    hook = hook_file(
        "import sys\n"
        "def register(pi):\n"
        "    @pi.on('tool_call')\n"
        "    def guard(event, ctx):\n"
        "        print('x' * 300_000, file=sys.stderr)\n"
        "        return {'block': True, 'reason': 'r' * 300_000 + '.'}\n"
    )
    answer = run_claude_hook(
        _pre(tmp_path, "Bash", {"command": "ls"}), "--no-discovery", "--hook", str(hook),
        cwd=tmp_path,
    )  # fmt: skip
    assert answer.code == 0
    reason = answer.output["hookSpecificOutput"]["permissionDecisionReason"]
    assert reason == "r" * 300_000 + "."
    assert "x" * 300_000 in answer.stderr
