"""`--verbose`: one line per loaded hook at start-up; hook errors name the hook's file:line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HOOK = """\
def register(pi):
    @pi.on("agent_start")
    def start(event, ctx):
        helper()

    @pi.on("tool_result")
    def result(event, ctx):
        return None


def helper():
    raise RuntimeError("broken on purpose")
"""


def run(tmp_path: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    hook = tmp_path / "noisy.py"
    hook.write_text(HOOK)
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "hookline.cli",
            "-p",
            "hi",
            "--no-session",
            "--hook",
            str(hook),
            *flags,
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_verbose_lists_each_loaded_hook_and_its_events(tmp_path: Path) -> None:
    done = run(tmp_path, "--verbose")
    assert done.returncode == 0, done.stderr
    assert f"hook {tmp_path / 'noisy.py'} (cli) loaded: agent_start, tool_result" in done.stderr


def test_a_hook_error_names_the_line_in_the_hook_file(tmp_path: Path) -> None:
    done = run(tmp_path)
    # helper() raises on line 12; the innermost frame in the hook's own file is named.
    line = f"hook {tmp_path / 'noisy.py'}:12 failed on agent_start: RuntimeError: broken on purpose"
    assert line in done.stderr
    assert "Traceback" not in done.stderr
    assert "loaded:" not in done.stderr


def test_verbose_adds_the_traceback(tmp_path: Path) -> None:
    done = run(tmp_path, "--verbose")
    assert "Traceback (most recent call last)" in done.stderr
    assert 'noisy.py", line 4, in start' in done.stderr


def test_no_location_without_a_frame_in_the_hook_file(tmp_path: Path) -> None:
    from hookline.core.tracebacks import hook_location

    try:
        raise ValueError("x")
    except ValueError as exc:
        assert hook_location(str(tmp_path / "other.py"), exc) is None
        assert hook_location("settings:claude", exc) is None
    assert hook_location(str(tmp_path / "x.py"), None) is None


def test_a_load_error_names_the_line_too(tmp_path: Path) -> None:
    hook = tmp_path / "bad_register.py"
    hook.write_text("def register(pi):\n    x = 1\n    raise RuntimeError('no')\n")
    done = subprocess.run(
        [sys.executable, "-m", "hookline.cli", "-p", "hi", "--no-session", "--hook", str(hook)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (
        f"hook {hook} (--hook): failed to load: register() raised RuntimeError: no (at {hook}:3)"
        in done.stderr
    )
