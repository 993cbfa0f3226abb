"""The line-based interactive mode, driven through its stdin: prompts, dialogs, commands."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from .helpers import CLI, TIMEOUT, write_hook, write_script

GATE = """
from hookline import HookAPI


def register(pi: HookAPI) -> None:
    @pi.on("tool_call")
    async def gate(event, ctx):
        if event.tool_name == "bash" and ctx.has_ui:
            ok = await ctx.ui.confirm("Run it?", event.input["command"])
            if not ok:
                return {"block": True, "reason": "the user said no"}

    @pi.register_command("hello", description="say hello")
    async def hello(args, ctx):
        ctx.ui.notify(f"hello {args}")
"""


def _run(tmp_path: Path, stdin: str, *extra: str) -> subprocess.CompletedProcess[str]:
    call = {"tool_calls": [{"name": "bash", "arguments": {"command": "echo ran-it"}}]}
    model = write_script(tmp_path / "script.json", [call, "first done", call, "second done"])
    hook = write_hook(tmp_path / "gate.py", GATE)
    return subprocess.run(
        [
            *CLI,
            "--model",
            model,
            "--hook",
            str(hook),
            "--no-session",
            "--permission-mode",
            "bypassPermissions",
            "--cwd",
            str(tmp_path),
            *extra,
        ],
        input=stdin,
        capture_output=True,
        text=True,
        env=os.environ.copy(),
        timeout=TIMEOUT,
        check=False,
    )


def test_prompts_dialogs_and_commands_over_stdin(tmp_path: Path) -> None:
    # prompt 1: confirm "y" → the command runs; prompt 2: confirm "n" → blocked
    done = _run(tmp_path, "do it\ny\nagain\nn\n/hello world\n/nope\n/quit\n")
    assert done.returncode == 0, done.stderr
    assert "first done" in done.stdout and "second done" in done.stdout
    assert "hello world" in done.stderr  # notify goes to stderr
    assert "no command /nope" in done.stdout
    assert done.stdout.count("Run it?") == 2


def test_user_bash_and_eof_exit(tmp_path: Path) -> None:
    done = _run(tmp_path, "!echo from-user-shell\n$print(6 * 7)\n")
    assert done.returncode == 0, done.stderr
    assert "from-user-shell" in done.stdout
    assert "42" in done.stdout


MARKER_HOOK = """
from pathlib import Path

Path(__file__).with_name("imported.marker").write_text("yes")


def register(pi):
    pass
"""


def _project_with_hook(root: Path) -> Path:
    project = root / "project"
    hook = project / ".hookline" / "hooks" / "marker.py"
    hook.parent.mkdir(parents=True)
    hook.write_text(MARKER_HOOK)
    return hook.with_name("imported.marker")


def _interactive(root: Path, stdin: str) -> subprocess.CompletedProcess[str]:
    model = write_script(root / "script.json", ["ok"])
    return subprocess.run(
        [*CLI, "--model", model, "--no-session", "--cwd", str(root / "project")],
        input=stdin,
        capture_output=True,
        text=True,
        env=os.environ.copy(),
        timeout=TIMEOUT,
        check=False,
    )


def test_interactive_mode_asks_before_trusting_a_project(tmp_path: Path) -> None:
    marker = _project_with_hook(tmp_path)
    refused = _interactive(tmp_path, "n\n/quit\n")
    assert refused.returncode == 0, refused.stderr
    assert "Trust the project" in refused.stdout
    assert "not trusted" in refused.stderr
    assert not marker.exists()  # the project's hook was never imported

    accepted = _interactive(tmp_path, "y\n/quit\n")
    assert accepted.returncode == 0, accepted.stderr
    assert marker.exists()
    marker.unlink()
    again = _interactive(tmp_path, "/quit\n")  # remembered: no question the second time
    assert "Trust the project" not in again.stdout
    assert marker.exists()
