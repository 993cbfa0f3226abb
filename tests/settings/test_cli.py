"""Settings through the real ``hookline`` CLI: untrusted projects, broken files, evil matchers.

Every test runs ``hookline -p`` as a subprocess against real files; attacks
leave a marker file when they succeed, and each test asserts there is none.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

from tests.modes.helpers import CLI, TIMEOUT, run_cli, write_hook, write_script


def _write(path: Path, data: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def _bash_script(tmp_path: Path, command: str) -> str:
    """A scripted model that runs one bash command and then answers ``done``."""
    return write_script(
        tmp_path / "script.json",
        [
            {"text": "", "tool_calls": [{"name": "bash", "arguments": {"command": command}}]},
            {"text": "done"},
        ],
    )


def _run(project: Path, model: str, *extra: str) -> subprocess.CompletedProcess[str]:
    return run_cli("-p", "go", "--model", model, "--no-session", "--cwd", str(project), *extra)


# -- an untrusted project restricts, never loosens ------------------------------------


def test_untrusted_local_allow_and_bypass_mode_do_not_let_bash_run(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    local = {"permissions": {"allow": ["Bash"], "defaultMode": "bypassPermissions"}}
    _write(project / ".claude" / "settings.local.json", local)
    marker = tmp_path / "ran"

    done = _run(project, _bash_script(tmp_path, f"touch {marker}"))

    assert done.returncode == 0, done.stderr
    assert not marker.exists()
    notice = [line for line in done.stderr.splitlines() if "is not trusted" in line]
    assert notice == [
        f"hookline: project {project} is not trusted: its hooks and settings hooks are "
        "skipped; ignored from .claude/settings.local.json: permissions.allow "
        f"(run `hookline trust {project}` or pass --trust-project)"
    ]


def test_the_same_settings_apply_once_trusted(tmp_path: Path) -> None:
    """Not vacuous: a trusted project's allow rule does let the command run."""
    project = tmp_path / "proj"
    _write(project / ".claude" / "settings.local.json", {"permissions": {"allow": ["Bash"]}})
    marker = tmp_path / "ran"

    done = _run(project, _bash_script(tmp_path, f"touch {marker}"), "--trust-project")

    assert done.returncode == 0, done.stderr
    assert marker.exists()


def test_untrusted_disable_all_hooks_and_hook_timeout_do_not_touch_the_users_hooks(
    tmp_path: Path, isolated_home: Path
) -> None:
    marker = tmp_path / "user-hook-ran"
    write_hook(
        isolated_home / ".hookline" / "hooks" / "guard.py",
        f"""
        import asyncio
        from pathlib import Path

        def register(pi):
            @pi.on("turn_start")
            async def slow(event, ctx):
                await asyncio.sleep(0.05)  # longer than the project's 1 ms hookTimeout
                Path({str(marker)!r}).write_text("ran")
        """,
    )
    project = tmp_path / "proj"
    _write(project / ".claude" / "settings.local.json", {"disableAllHooks": True, "hookTimeout": 1})

    done = _run(project, write_script(tmp_path / "s.json", ["answer"]))

    assert done.returncode == 0, done.stderr
    assert marker.exists(), done.stderr
    assert "ignored from .claude/settings.local.json: hookTimeout, disableAllHooks" in done.stderr


def test_untrusted_deny_rule_still_applies(tmp_path: Path, isolated_home: Path) -> None:
    """The user allows bash; the untrusted project's deny rule still forbids touch."""
    _write(isolated_home / ".claude" / "settings.json", {"permissions": {"allow": ["Bash"]}})
    project = tmp_path / "proj"
    _write(project / ".claude" / "settings.json", {"permissions": {"deny": ["Bash"]}})
    marker = tmp_path / "ran"

    done = _run(project, _bash_script(tmp_path, f"touch {marker}"))

    assert done.returncode == 0, done.stderr
    assert not marker.exists()


# -- settings that cannot be read stop the agent before it acts -------------------------


def test_a_settings_file_with_a_syntax_error_stops_the_agent(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    path = _write(project / ".claude" / "settings.json", '{\n  "permissions": {"deny": [}\n}')
    marker = tmp_path / "ran"

    done = _run(project, _bash_script(tmp_path, f"touch {marker}"))

    assert done.returncode == 2
    assert done.stdout == ""
    assert f"{path}:2:28: invalid JSON: Expecting value" in done.stderr
    assert "Traceback" not in done.stderr
    assert not marker.exists()


def test_an_unknown_event_or_hook_type_is_a_warning_and_the_deny_rules_hold(
    tmp_path: Path, isolated_home: Path
) -> None:
    _write(isolated_home / ".claude" / "settings.json", {"permissions": {"allow": ["Bash"]}})
    project = tmp_path / "proj"
    settings = {
        "permissions": {"deny": ["Bash"]},
        "hooks": {
            "AfterCompact": [{"hooks": [{"type": "command", "command": "true"}]}],
            "PreToolUse": [{"hooks": [{"type": "websocket", "url": "ws://127.0.0.1:9"}]}],
        },
    }
    path = _write(project / ".claude" / "settings.json", settings)
    marker = tmp_path / "ran"

    done = _run(project, _bash_script(tmp_path, f"touch {marker}"), "--trust-project")

    assert done.returncode == 0, done.stderr
    assert not marker.exists()
    assert f"{path}: hooks.AfterCompact: unknown event 'AfterCompact'" in done.stderr
    assert (
        f"{path}: hooks.PreToolUse[0].hooks[0].type: unknown hook type 'websocket'" in done.stderr
    )


def test_a_wrong_typed_deny_rule_stops_the_agent(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    path = _write(project / ".claude" / "settings.json", {"permissions": {"deny": "Bash"}})

    done = _run(project, write_script(tmp_path / "s.json", ["answer"]))

    assert done.returncode == 2
    assert f"{path}: permissions.deny: must be a list of strings" in done.stderr


def test_settings_linked_to_dev_stdin_exit_2_without_reading_stdin(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    (project / ".claude").mkdir(parents=True)
    (project / ".claude" / "settings.json").symlink_to("/dev/stdin")
    model = write_script(tmp_path / "s.json", ["answer"])
    child = subprocess.Popen(
        [*CLI, "-p", "go", "--model", model, "--no-session", "--cwd", str(project)],
        stdin=subprocess.PIPE,  # left open: a read of /dev/stdin would wait forever
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        out, err = child.communicate(timeout=TIMEOUT)
    finally:
        child.kill()
    assert child.returncode == 2, err
    assert "not a regular file" in err and out == ""


# -- matchers never stall a tool call ---------------------------------------------------


EVIL = "(.?){2000}z"


def _evil_matcher_project(tmp_path: Path) -> tuple[Path, Path]:
    project = tmp_path / "proj"
    marker = tmp_path / "matcher-hook-ran"
    hooks = {
        "PreToolUse": [
            {"matcher": EVIL, "hooks": [{"type": "command", "command": f"touch {marker}"}]}
        ]
    }
    _write(project / ".claude" / "settings.json", {"hooks": hooks})
    return project, marker


def test_untrusted_evil_matcher_is_never_run(tmp_path: Path) -> None:
    project, marker = _evil_matcher_project(tmp_path)

    done = _run(project, _bash_script(tmp_path, "echo hi"))

    assert done.returncode == 0, done.stderr
    assert done.stdout.endswith("done\n")
    assert not marker.exists()


def test_trusted_evil_matcher_cannot_stall_a_tool_call(tmp_path: Path) -> None:
    project, marker = _evil_matcher_project(tmp_path)

    done = _run(project, _bash_script(tmp_path, "echo hi"), "--trust-project")

    assert done.returncode == 0, done.stderr
    assert done.stdout.endswith("done\n")
    assert f"invalid matcher regex '{EVIL}'" in done.stderr
    assert not marker.exists()  # an invalid matcher matches nothing


def test_trusted_lookahead_matcher_runs_on_the_bounded_fallback(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    marker = tmp_path / "matcher-hook-ran"
    hooks = {
        "PreToolUse": [
            {"matcher": "^(?!Edit)Ba", "hooks": [{"type": "command", "command": f"touch {marker}"}]}
        ]
    }
    _write(project / ".claude" / "settings.json", {"hooks": hooks})

    done = _run(project, _bash_script(tmp_path, "echo hi"), "--trust-project")

    assert done.returncode == 0, done.stderr
    assert marker.exists()


# -- required hooks ---------------------------------------------------------------------


GUARD = """
    from pathlib import Path

    def register(pi):
        Path(MARKER).write_text("loaded")
"""


def test_require_hook_missing_refuses_to_start(tmp_path: Path) -> None:
    missing = tmp_path / "guard.py"

    done = _run(
        tmp_path, write_script(tmp_path / "s.json", ["answer"]), "--require-hook", str(missing)
    )

    assert done.returncode == 2
    assert done.stdout == ""
    assert f"required hook {missing} (--require-hook): no such file" in done.stderr


def test_require_hook_that_fails_to_load_refuses_to_start(tmp_path: Path) -> None:
    guard = write_hook(tmp_path / "guard.py", "def register(pi):\n    raise RuntimeError('no')\n")

    done = _run(
        tmp_path, write_script(tmp_path / "s.json", ["answer"]), "--require-hook", str(guard)
    )

    assert done.returncode == 2
    assert "(--require-hook): failed to load: register() raised RuntimeError: no" in done.stderr


def test_require_hook_that_loads_runs(tmp_path: Path) -> None:
    marker = tmp_path / "loaded"
    guard = write_hook(tmp_path / "guard.py", GUARD.replace("MARKER", repr(str(marker))))

    done = _run(
        tmp_path, write_script(tmp_path / "s.json", ["answer"]), "--require-hook", str(guard)
    )

    assert done.returncode == 0, done.stderr
    assert marker.exists()


def test_settings_required_hooks_are_relative_to_the_home_for_user_settings(
    tmp_path: Path, isolated_home: Path
) -> None:
    _write(isolated_home / ".hookline" / "settings.json", {"requiredHooks": ["guards/g.py"]})
    project = tmp_path / "proj"
    project.mkdir()
    model = write_script(tmp_path / "s.json", ["answer"])

    done = _run(project, model)
    assert done.returncode == 2
    assert "required hook guards/g.py (requiredHooks in " in done.stderr
    assert "no such file" in done.stderr

    marker = tmp_path / "loaded"
    write_hook(isolated_home / "guards" / "g.py", GUARD.replace("MARKER", repr(str(marker))))
    done = _run(project, model)
    assert done.returncode == 0, done.stderr
    assert marker.exists()


def test_required_hook_disabled_by_disable_all_hooks_refuses_to_start(
    tmp_path: Path, isolated_home: Path
) -> None:
    guard = write_hook(tmp_path / "guard.py", "def register(pi):\n    pass\n")
    _write(isolated_home / ".claude" / "settings.json", {"disableAllHooks": True})

    done = _run(
        tmp_path, write_script(tmp_path / "s.json", ["answer"]), "--require-hook", str(guard)
    )

    assert done.returncode == 2
    assert "not loaded: hooks are disabled (disableAllHooks)" in done.stderr


def test_untrusted_project_required_hooks_are_ignored_and_said(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    _write(project / ".claude" / "settings.json", {"requiredHooks": ["missing.py"]})

    done = _run(project, write_script(tmp_path / "s.json", ["answer"]))

    assert done.returncode == 0, done.stderr
    assert "ignored from .claude/settings.json: requiredHooks" in done.stderr


def test_a_guard_hook_that_fails_to_load_without_being_required_is_reported(
    tmp_path: Path,
) -> None:
    # found in the user's hooks folder, not named on the command line: reported only
    guard = write_hook(
        Path(os.environ["HOOKLINE_HOME"]) / "hooks" / "guard.py",
        "def register(pi):\n    raise RuntimeError('no')\n",
    )

    done = _run(tmp_path, write_script(tmp_path / "s.json", ["answer"]))

    assert done.returncode == 0, done.stderr
    assert done.stdout == "answer\n"
    assert f"hook {guard} failed to load: register() raised RuntimeError: no" in done.stderr


# -- an unwritable home: one clear line, never a traceback -------------------------------


def _blocked_home(tmp_path: Path) -> dict[str, str]:
    """HOOKLINE_HOME below a regular file: nothing can be created there (even as root)."""
    blocker = tmp_path / "blocker"
    blocker.write_text("a file in the way")
    return {**os.environ, "HOOKLINE_HOME": str(blocker / "home")}


def test_trust_with_an_unwritable_home_is_one_clear_error(tmp_path: Path) -> None:
    env = _blocked_home(tmp_path)
    for args in (("trust", str(tmp_path)), ("untrust", str(tmp_path))):
        done = run_cli(*args, env=env)
        assert "Traceback" not in done.stderr
        if args[0] == "trust":
            assert done.returncode == 1
            [line] = done.stderr.splitlines()
            assert line.startswith("hookline: error: cannot write ")
            assert "trust.json" in line
        else:
            assert done.returncode == 0  # nothing recorded, nothing to write
            assert "was not recorded as trusted" in done.stdout


def test_trust_list_and_settings_schema_with_an_unwritable_home(tmp_path: Path) -> None:
    env = _blocked_home(tmp_path)
    listed = run_cli("trust", "--list", env=env)
    assert listed.returncode == 0 and "Traceback" not in listed.stderr
    assert "no trusted directories" in listed.stdout
    schema = run_cli("settings", "schema", env=env)
    assert schema.returncode == 0 and "Traceback" not in schema.stderr
    assert json.loads(schema.stdout)["title"] == "hookline settings"


def test_print_run_with_sessions_and_an_unwritable_home(tmp_path: Path) -> None:
    env = _blocked_home(tmp_path)
    model = write_script(tmp_path / "s.json", ["answer"])
    done = run_cli("-p", "go", "--model", model, "--cwd", str(tmp_path), env=env)
    assert "Traceback" not in done.stderr
    assert done.returncode == 2
    [line] = done.stderr.strip().splitlines()
    assert line.startswith("hookline: error: ")


def test_trust_list_shows_what_is_trusted_and_covers_below(tmp_path: Path) -> None:
    project = tmp_path / "work"
    project.mkdir()
    trusted = run_cli("trust", str(project))
    assert trusted.returncode == 0
    assert "everything below it, including folders cloned there later" in trusted.stdout
    listed = run_cli("trust", "--list")
    assert listed.stdout.splitlines() == [f"{project.resolve()}  (and everything below it)"]
    clone = project / "later-clone"
    (clone / ".claude").mkdir(parents=True)
    _write(clone / ".claude" / "settings.json", {"permissions": {"allow": ["Bash"]}})
    done = _run(clone, write_script(tmp_path / "s.json", ["answer"]))
    assert "is not trusted" not in done.stderr


# -- the bypass flags ---------------------------------------------------------------------


def test_dangerously_skip_permissions_runs_in_bypass_and_clashes_with_another_mode(
    tmp_path: Path,
) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    marker = tmp_path / "ran"
    model = _bash_script(tmp_path, f"touch {marker}")

    clash = _run(project, model, "--dangerously-skip-permissions", "--permission-mode", "plan")
    assert clash.returncode == 2
    assert "--dangerously-skip-permissions and --permission-mode plan" in clash.stderr
    assert not marker.exists()

    done = _run(project, model, "--dangerously-skip-permissions")
    assert done.returncode == 0, done.stderr
    assert marker.exists()


def test_allow_dangerously_skip_permissions_does_not_start_in_bypass(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    marker = tmp_path / "ran"
    done = _run(
        project, _bash_script(tmp_path, f"touch {marker}"), "--allow-dangerously-skip-permissions"
    )
    assert done.returncode == 0, done.stderr
    assert not marker.exists()  # default mode: no UI to ask, so denied
