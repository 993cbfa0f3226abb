"""``hookline`` processes and their log: ``-q``, ``--verbose``, ``HOOKLINE_LOG``, a terminal.

Each test runs the real command; the terminal cases give it a pty for stderr.
"""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

HOOK = """\
import logging

log = logging.getLogger(__name__)


def register(pi):
    log.warning("guard ready [bold]not markup[/bold]")
    log.info("guard info")
    log.debug("guard debug")
    log.error("guard error")
    logging.getLogger("somelib").debug("library chatter")
    logging.getLogger("somelib").warning("library warning")
"""


def _hook(tmp_path: Path) -> Path:
    hook = tmp_path / "guard.py"
    hook.write_text(HOOK)
    return hook


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("HOOKLINE_LOG")}
    return {**env, **extra}


def run(
    tmp_path: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hookline.cli", *args],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env or _env(),
        timeout=90,
        check=False,
    )


def test_hookline_log_debug_shows_debug_lines_and_stdout_stays_json(tmp_path: Path) -> None:
    hook = _hook(tmp_path)
    done = run(
        tmp_path,
        *("-p", "hi", "--mode", "json", "--no-session", "--hook", str(hook)),
        env=_env(HOOKLINE_LOG="debug"),
    )
    assert done.returncode == 0, done.stderr
    assert f"hookline: debug: project {tmp_path}: not trusted" in done.stderr
    assert f"hookline: hook {hook}: debug: guard debug" in done.stderr
    # debug implies --verbose's listing
    assert f"hookline: hook {hook} (cli) loaded: no events" in done.stderr
    lines = done.stdout.splitlines()
    assert lines, "the JSON stream is empty"
    assert all(isinstance(json.loads(line), dict) for line in lines)
    for message in ("guard ready", "guard debug", "library", "hookline:"):
        assert message not in done.stdout


def test_a_hooks_warning_is_shown_with_its_file_by_default(tmp_path: Path) -> None:
    hook = _hook(tmp_path)
    done = run(tmp_path, "-p", "hi", "--no-session", "--hook", str(hook))
    assert done.returncode == 0, done.stderr
    err = done.stderr.splitlines()
    assert f"hookline: hook {hook}: warning: guard ready [bold]not markup[/bold]" in err
    assert f"hookline: hook {hook}: error: guard error" in err
    assert "hookline: somelib: warning: library warning" in err
    assert "guard info" not in done.stderr and "guard debug" not in done.stderr
    assert "guard ready" not in done.stdout


def test_hookline_log_info_adds_the_hooks_info_not_a_librarys_debug(tmp_path: Path) -> None:
    hook = _hook(tmp_path)
    done = run(
        tmp_path, "-p", "hi", "--no-session", "--hook", str(hook), env=_env(HOOKLINE_LOG="info")
    )
    assert f"hookline: hook {hook}: info: guard info" in done.stderr
    assert "guard debug" not in done.stderr


def test_verbose_shows_the_hooks_debug_but_not_a_librarys(tmp_path: Path) -> None:
    hook = _hook(tmp_path)
    done = run(tmp_path, "-p", "hi", "--no-session", "--hook", str(hook), "--verbose")
    assert f"hookline: hook {hook}: debug: guard debug" in done.stderr
    assert "library chatter" not in done.stderr


def test_quiet_keeps_errors_only(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / ".hookline" / "hooks").mkdir(parents=True)  # untrusted, with hooks: a warning
    hook = _hook(tmp_path)
    args = ("-p", "hi", "--no-session", "--cwd", str(project), "--hook", str(hook))
    loud = run(tmp_path, *args)
    assert f"hookline: project {project} is not trusted" in loud.stderr
    quiet = run(tmp_path, *args, "-q")
    assert quiet.returncode == 0, quiet.stderr
    assert "is not trusted" not in quiet.stderr
    assert "guard ready" not in quiet.stderr and "library warning" not in quiet.stderr
    assert f"hookline: hook {hook}: error: guard error" in quiet.stderr
    assert quiet.stdout == loud.stdout  # the answer is not a log line


def test_quiet_still_reports_a_failing_hook(tmp_path: Path) -> None:
    hook = tmp_path / "broken.py"
    hook.write_text("def register(pi):\n    raise RuntimeError('nope')\n")
    done = run(tmp_path, "-p", "hi", "--no-session", "--hook", str(hook), "--quiet")
    assert done.returncode == 1
    assert f"hookline: error: hook {hook} (--hook): failed to load: " in done.stderr
    assert "RuntimeError: nope" in done.stderr


def test_quiet_silences_the_audit_log_warning(tmp_path: Path) -> None:
    """Telemetry's warnings travel through logging too."""
    target = tmp_path / "no-such-dir" / "audit.jsonl"
    args = ("-p", "hi", "--no-session", "--audit-log", str(target))
    loud = run(tmp_path, *args)
    assert f"hookline: audit log {target}" in loud.stderr
    assert "running without it" in loud.stderr
    assert "audit log" not in run(tmp_path, *args, "-q").stderr


@pytest.mark.parametrize("value", ["bogus", "verbose"])
def test_a_bad_hookline_log_is_a_usage_error_naming_the_valid_values(
    tmp_path: Path, value: str
) -> None:
    done = run(tmp_path, "-p", "hi", "--no-session", env=_env(HOOKLINE_LOG=value))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == (
        f"hookline: error: HOOKLINE_LOG={value!r} is not a log level; use one of: debug, "
        "info, warning, error (see `hookline --help`)\n"
    )


def test_quiet_and_verbose_together_are_refused(tmp_path: Path) -> None:
    done = run(tmp_path, "-p", "hi", "--no-session", "-q", "--verbose")
    assert done.returncode == 2
    assert "not allowed with" in done.stderr and done.stdout == ""


def test_an_unwritable_log_file_is_a_usage_error(tmp_path: Path) -> None:
    target = tmp_path / "missing" / "hookline.log"
    done = run(tmp_path, "-p", "hi", "--no-session", env=_env(HOOKLINE_LOG_FILE=str(target)))
    assert done.returncode == 2
    assert f"HOOKLINE_LOG_FILE={target}: cannot open it" in done.stderr


def test_the_log_file_gets_the_records(tmp_path: Path) -> None:
    hook = _hook(tmp_path)
    target = tmp_path / "hookline.log"
    done = run(
        tmp_path,
        *("-p", "hi", "--no-session", "--hook", str(hook)),
        env=_env(HOOKLINE_LOG_FILE=str(target), HOOKLINE_LOG="debug"),
    )
    assert done.returncode == 0, done.stderr
    text = target.read_text()
    assert f" DEBUG hook {hook}: guard debug" in text
    assert f" DEBUG hookline.agent: project {tmp_path}: not trusted" in text
    assert "library chatter" not in text


def test_help_documents_the_variables(tmp_path: Path) -> None:
    done = run(tmp_path, "--help")
    assert done.returncode == 0
    for name in ("HOOKLINE_LOG=LEVEL", "HOOKLINE_LOG_FILE=PATH", "-q, --quiet", "--verbose"):
        assert name in done.stdout


# -- a terminal --------------------------------------------------------------


def _on_a_terminal(tmp_path: Path, *args: str) -> tuple[int, str, str]:
    """Run with a pty as stderr (stdout a pipe); its exit code, stdout and terminal text."""
    leader, follower = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "hookline.cli", *args],
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=follower,
        env=_env(TERM="xterm-256color", COLUMNS="200"),
    )
    os.close(follower)
    seen = b""
    while True:  # until the child closes the terminal (EIO on Linux, b"" elsewhere)
        try:
            chunk = os.read(leader, 65536)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    os.close(leader)
    stdout, _ = proc.communicate(timeout=90)
    return proc.returncode, stdout.decode(), seen.decode(errors="replace")


def test_a_terminal_gets_richs_format(tmp_path: Path) -> None:
    hook = _hook(tmp_path)
    code, out, term = _on_a_terminal(tmp_path, "-p", "hi", "--no-session", "--hook", str(hook))
    assert code == 0, term
    assert "\x1b[" in term  # styled
    assert "WARNING" in term and "ERROR" in term  # rich's level column
    assert "guard.py" in term and "guard ready" in term
    assert "[bold]not markup[/bold]" in _plain(term)  # shown as text, never applied
    assert "hookline: hook" not in term  # not the plain form
    assert "\x1b[" not in out


def test_json_mode_keeps_plain_lines_on_a_terminal(tmp_path: Path) -> None:
    """A program reads JSON mode's stderr too: no styling there."""
    hook = _hook(tmp_path)
    args = ("-p", "hi", "--mode", "json", "--no-session", "--hook", str(hook))
    code, out, term = _on_a_terminal(tmp_path, *args)
    assert code == 0, term
    assert f"hookline: hook {hook}: warning: guard ready" in term
    assert "\x1b[" not in term
    assert all(isinstance(json.loads(line), dict) for line in out.splitlines())


def _plain(text: str) -> str:
    """Terminal text without its SGR escapes."""
    import re

    return re.sub(r"\x1b\[[0-9;]*m", "", text)


# -- subcommands -------------------------------------------------------------


def test_a_damaged_trust_file_is_said_once(tmp_path: Path) -> None:
    home = tmp_path / "hookline-home"
    home.mkdir()
    (home / "trust.json").write_text("nope")
    done = run(tmp_path, "trust", "--list", env=_env(HOOKLINE_HOME=str(home)))
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [
        f"hookline: {home / 'trust.json'}:1:1: invalid JSON: Expecting value; "
        "treating no directory as trusted"
    ]


def test_hooks_list_names_a_hooks_warning_and_checks_hookline_log(tmp_path: Path) -> None:
    hook = _hook(tmp_path)
    done = run(tmp_path, "hooks", "list", "--hook", str(hook))
    assert f"hookline: hook {hook}: warning: guard ready" in done.stderr
    bad = run(tmp_path, "hooks", "list", "--hook", str(hook), env=_env(HOOKLINE_LOG="loud"))
    assert bad.returncode == 2
    assert "HOOKLINE_LOG='loud' is not a log level" in bad.stderr
