"""pi's notify example (``examples/pi/notify.py``): at the end of a real ``-p`` run the
terminal gets the notification in its protocol (OSC 777, Kitty's OSC 99, a Windows toast)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from tests.examples.harness import PI_EXAMPLES
from tests.modes.helpers import run_cli, write_script

TERMINALS = ("WT_SESSION", "KITTY_WINDOW_ID")


def _run(tmp_path: Path, *args: str, **env: str) -> tuple[str, str]:
    model = write_script(tmp_path / "script.json", ["All done."])
    environ = {k: v for k, v in os.environ.items() if k not in TERMINALS} | env
    done = run_cli(
        *("-p", "hi", "--model", model, "--no-session", "--cwd", str(tmp_path), *args),
        *("--hook", str(PI_EXAMPLES / "notify.py")),
        env=environ,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout, done.stderr


def test_osc_777_by_default(tmp_path: Path) -> None:
    stdout, terminal = _run(tmp_path)
    assert stdout == "All done.\n"  # -p keeps stdout for the answer: a hook's stdout is stderr
    assert terminal.endswith("\x1b]777;notify;Pi;Ready for input\x07")


def test_osc_99_in_kitty(tmp_path: Path) -> None:
    _, terminal = _run(tmp_path, KITTY_WINDOW_ID="1")
    assert terminal.endswith("\x1b]99;i=1:d=0;Pi\x1b\\\x1b]99;i=1:p=body;Ready for input\x1b\\")


def test_a_windows_toast_in_windows_terminal(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    record = tmp_path / "powershell-args"
    fake = bin_dir / "powershell.exe"
    fake.write_text(f'#!/bin/sh\nprintf "%s\\n" "$@" > {record}\n')
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    path = f"{bin_dir}{os.pathsep}{os.environ['PATH']}"
    stdout, terminal = _run(tmp_path, WT_SESSION="abc", PATH=path)
    assert "\x1b]" not in stdout + terminal  # no escape sequence: the toast says it
    flag, command, script = record.read_text().splitlines()
    assert (flag, command) == ("-NoProfile", "-Command")
    assert "CreateTextNode('Ready for input')" in script
    assert "CreateToastNotifier('Pi').Show(" in script


def test_the_json_stream_stays_clean(tmp_path: Path) -> None:
    stdout, terminal = _run(tmp_path, "--mode", "json")
    assert "\x1b]" not in stdout
    assert "\x1b]777;notify;Pi;Ready for input\x07" in terminal
