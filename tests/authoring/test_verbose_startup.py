"""`--verbose`: one line per loaded hook at start-up; hook errors name the hook's file:line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

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


def test_verbose_shows_only_the_hooks_own_frames(tmp_path: Path) -> None:
    done = run(tmp_path, "--verbose")
    trace = done.stderr[done.stderr.index("Traceback") :]
    assert 'noisy.py", line 4, in start' in trace and 'noisy.py", line 12, in helper' in trace
    assert "hookline" not in trace.split("RuntimeError: broken on purpose")[0].replace(
        str(tmp_path), ""
    )


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("def register(pi)\n    pass\n", "syntax error at line 1: expected ':' (at {hook}:1)"),
        ("import no_such_module_here\n", "import error: No module named 'no_such_module_here'"),
        (
            "def register(pi):\n    pi.on('tool_cal', lambda e, c: None)\n",
            "unknown event 'tool_cal' (did you mean 'tool_call'?) (at {hook}:2)",
        ),
    ],
    ids=["syntax", "import", "registration"],
)
def test_verbose_adds_no_traceback_under_a_complete_load_error(
    tmp_path: Path, source: str, message: str
) -> None:
    hook = tmp_path / "broken.py"
    hook.write_text(source)
    done = subprocess.run(
        [sys.executable, "-m", "hookline.cli", "-p", "hi", "--no-session", "--verbose",
         "--hook", str(hook)],
        cwd=tmp_path, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 1
    (line,) = [x for x in done.stderr.splitlines() if "failed to load" in x]
    assert message.format(hook=hook) in line
    assert "Traceback" not in done.stderr
    assert "importlib" not in done.stderr and "discovery" not in done.stderr


def test_verbose_shows_the_frames_of_a_register_that_crashes_in_a_helper(tmp_path: Path) -> None:
    hook = tmp_path / "deep.py"
    hook.write_text("def helper():\n    return {}['k']\n\ndef register(pi):\n    helper()\n")
    done = subprocess.run(
        [sys.executable, "-m", "hookline.cli", "-p", "hi", "--no-session", "--verbose",
         "--hook", str(hook)],
        cwd=tmp_path, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert f"register() raised KeyError: 'k' (at {hook}:2)" in done.stderr
    trace = done.stderr[done.stderr.index("Traceback") :]
    assert 'deep.py", line 5, in register' in trace and 'deep.py", line 2, in helper' in trace
    assert "loader.py" not in trace
