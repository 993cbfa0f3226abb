"""`hookline claude-hook` inside the real Claude Code: a Python hook governs Claude's tools."""

from __future__ import annotations

import sys
from pathlib import Path

from harness import Call, Turn, run_claude, serve_http

HOOKLINE_BIN = str(Path(sys.executable).parent / "hookline")

GUARD = """
def register(pi):
    @pi.on("tool_call")
    def guard(event, ctx):
        command = event.input.get("command", "")
        if event.tool_name == "bash" and command.startswith("rm "):
            return {"block": True, "reason": "python guard: no rm"}
        if event.tool_name == "bash" and command.startswith("echo old"):
            return {"input": {**event.input, "command": "echo new > rewritten.txt"}}
"""


def _bridge_settings(*extra: str) -> dict[str, object]:
    command = f"{HOOKLINE_BIN} claude-hook --no-discovery --hook guard.py {' '.join(extra)}"
    return {
        "permissions": {"allow": ["Bash"]},
        "hooks": {
            "PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": command}]}]
        },
    }


def test_a_python_hook_blocks_claude_codes_bash_call(claude: Path, tmp_path: Path) -> None:
    (tmp_path / "claude" / "project").mkdir(parents=True)
    turns = [
        Turn(calls=[Call("Bash", {"command": "rm victim.txt", "description": "remove"})]),
        Turn("done"),
    ]
    run = run_claude(
        claude,
        tmp_path,
        settings=_bridge_settings(),
        turns=turns,
        files={"guard.py": GUARD, "victim.txt": "keep me"},
    )
    assert run.returncode == 0, run.describe()
    assert (run.project / "victim.txt").read_text() == "keep me"
    [result] = run.tool_results()
    assert result.is_error, result
    assert "python guard: no rm" in result.text


def test_a_python_hook_rewrites_claude_codes_bash_input(claude: Path, tmp_path: Path) -> None:
    turns = [
        Turn(calls=[Call("Bash", {"command": "echo old > original.txt", "description": "w"})]),
        Turn("done"),
    ]
    run = run_claude(
        claude,
        tmp_path,
        settings=_bridge_settings(),
        turns=turns,
        files={"guard.py": GUARD},
    )
    assert run.returncode == 0, run.describe()
    assert not (run.project / "original.txt").exists()
    assert (run.project / "rewritten.txt").read_text() == "new\n"
    [result] = run.tool_results()
    assert not result.is_error, result


COUNTING_GUARD = """
calls = []

def register(pi):
    @pi.on("tool_call")
    def guard(event, ctx):
        calls.append(event.input.get("command"))
        if event.tool_name == "bash" and event.input.get("command", "").startswith("rm "):
            return {"block": True, "reason": f"served guard: no rm (call {len(calls)})"}
"""


def test_claude_codes_http_hook_calls_hookline_serve(claude: Path, tmp_path: Path) -> None:
    """Claude Code POSTs each PreToolUse to `hookline serve`; the module stays loaded."""
    with serve_http(tmp_path, COUNTING_GUARD, token="tok-123") as url:
        hook = {
            "type": "http",
            "url": f"{url}/claude",
            "headers": {"Authorization": "Bearer $HOOKLINE_SERVE_TOKEN"},
            "allowedEnvVars": ["HOOKLINE_SERVE_TOKEN"],
        }
        settings = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [hook]}]}}
        turns = [
            Turn(calls=[Call("Bash", {"command": "echo one > one.txt", "description": "a"})]),
            Turn(calls=[Call("Bash", {"command": "rm one.txt", "description": "b"})]),
            Turn("done"),
        ]
        run = run_claude(
            claude,
            tmp_path,
            settings=settings,
            turns=turns,
            extra_env={"HOOKLINE_SERVE_TOKEN": "tok-123"},
        )
    assert run.returncode == 0, run.describe()
    assert (run.project / "one.txt").read_text() == "one\n"
    first, second = run.tool_results()
    assert not first.is_error
    assert second.is_error
    # The second call is the module's second: it stayed loaded between Claude's events.
    assert "served guard: no rm (call 2)" in second.text


REDACT_AND_BRIEF = """
def register(pi):
    @pi.on("session_start")
    def brief(event, ctx):
        pi.send_message({"custom_type": "brief", "content": "BRIEFING-" + event.source})

    @pi.on("tool_result")
    def redact(event, ctx):
        text = event.content[0]["text"]
        if "sk-live-" in text:
            return {"content": [{"type": "text", "text": text.replace("sk-live-123", "[KEY]")}]}
"""


def test_a_python_hook_briefs_the_model_and_redacts_a_tool_result(
    claude: Path, tmp_path: Path
) -> None:
    command = f"{HOOKLINE_BIN} claude-hook --no-discovery --hook hooks.py"
    bridge = [{"hooks": [{"type": "command", "command": command}]}]
    settings = {"hooks": {"SessionStart": bridge, "PostToolUse": bridge}}
    turns = [
        Turn(calls=[Call("Bash", {"command": "echo token=sk-live-123", "description": "e"})]),
        Turn("done"),
    ]
    run = run_claude(
        claude, tmp_path, settings=settings, turns=turns, files={"hooks.py": REDACT_AND_BRIEF}
    )
    assert run.returncode == 0, run.describe()
    [result] = run.tool_results()
    assert result.text == "token=[KEY]"
    sent = "\n".join(run.user_texts())
    assert "BRIEFING-startup" in sent
    assert "sk-live-123" not in sent


# -- never answering nothing: what the real Claude Code does with each answer ------------

PROJECT_GUARD = """
def register(pi):
    pi.on("tool_call", lambda event, ctx: {"block": True, "reason": "project guard"})
"""

STUCK_GUARD = """
def register(pi):
    @pi.on("tool_call")
    def guard(event, ctx):
        while True:
            try:
                while True:
                    pass
            except BaseException:
                pass
"""

AGENT_GUARD = """
def register(pi):
    @pi.on("tool_call")
    def guard(event, ctx):
        if event.tool_name == "task":
            return {"block": True, "reason": "python guard: no sub-agents"}
"""

RM = Turn(calls=[Call("Bash", {"command": "rm victim.txt", "description": "remove"})])


def _claude_hook_settings(args: str) -> dict[str, object]:
    command = f"{HOOKLINE_BIN} claude-hook {args}"
    return {
        "permissions": {"allow": ["Bash"]},
        "hooks": {
            "PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": command}]}]
        },
    }


def test_an_untrusted_projects_hooks_deny_claude_codes_call(claude: Path, tmp_path: Path) -> None:
    """Claude-hook with discovery in a project never `hookline trust`ed: the project's
    guard is not loaded, so the call is denied with what to run (it used to run)."""
    run = run_claude(
        claude,
        tmp_path,
        settings=_claude_hook_settings(""),
        turns=[RM, Turn("done")],
        files={".hookline/hooks/guard.py": PROJECT_GUARD, "victim.txt": "keep me"},
    )
    assert run.returncode == 0, run.describe()
    assert (run.project / "victim.txt").read_text() == "keep me"
    [result] = run.tool_results()
    assert result.is_error and "hookline trust" in result.text, result


def test_a_stuck_python_hook_is_denied_before_claudes_timeout(claude: Path, tmp_path: Path) -> None:
    run = run_claude(
        claude,
        tmp_path,
        settings=_claude_hook_settings("--no-discovery --hook guard.py --timeout 2"),
        turns=[RM, Turn("done")],
        files={"guard.py": STUCK_GUARD, "victim.txt": "keep me"},
    )
    assert run.returncode == 0, run.describe()
    assert (run.project / "victim.txt").read_text() == "keep me"
    [result] = run.tool_results()
    assert result.is_error and "no answer within 2 s" in result.text, result


def test_claude_codes_agent_tool_is_hooklines_task(claude: Path, tmp_path: Path) -> None:
    spawn = Call(
        "Agent",
        {"description": "sub", "prompt": "touch sub-ran", "subagent_type": "general-purpose"},
    )
    run = run_claude(
        claude,
        tmp_path,
        settings=_claude_hook_settings("--no-discovery --hook guard.py"),
        turns=[Turn(calls=[spawn]), Turn("done")],
        files={"guard.py": AGENT_GUARD},
    )
    assert run.returncode == 0, run.describe()
    [result] = run.tool_results()
    assert result.is_error and "python guard: no sub-agents" in result.text, result
