"""A hook named with ``--hook``/``--extension`` that does not load stops the start (exit 1)
in every mode, before any hook event, model call or session file; hooks found in folders
that fail to load are reported and the rest run."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from .helpers import CLI, TIMEOUT, run_cli, session_files, write_hook, write_script

#: A hook that would leave a mark if the agent ever started.
WITNESS = """
from pathlib import Path

def register(pi):
    @pi.on("session_start")
    def started(event, ctx):
        Path({mark!r}).write_text("started")
"""

MODES = {
    "print": ("-p", "hi"),
    "json": ("--mode", "json", "-p", "hi"),
    "rpc": ("--mode", "rpc"),
    "lines": (),  # interactive mode on a pipe: one prompt per line (the app is under tmux)
}


def _witness(tmp_path: Path) -> tuple[Path, Path]:
    mark = tmp_path / "started"
    return write_hook(tmp_path / "witness.py", WITNESS.format(mark=str(mark))), mark


def _assert_nothing_ran(tmp_path: Path, mark: Path, stdout: str) -> None:
    assert not mark.exists()  # no session_start: nothing was started
    assert session_files(Path(os.environ["HOOKLINE_HOME"]).parent) == []
    assert stdout == ""


@pytest.mark.parametrize("mode", sorted(MODES))
@pytest.mark.parametrize("flag", ["--hook", "--extension"])
def test_a_missing_named_hook_stops_every_mode_with_exit_1(
    tmp_path: Path, mode: str, flag: str
) -> None:
    witness, mark = _witness(tmp_path)
    model = write_script(tmp_path / "s.json", ["answer"])
    done = run_cli(
        *MODES[mode], "--model", model, "--hook", str(witness), flag, "./gaurd.py", cwd=tmp_path,
        stdin="hi\n",
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    assert done.stderr == (
        f"hookline: error: hook {tmp_path / 'gaurd.py'} (--hook): no such file; "
        "the agent does not start without a hook it was given\n"
    )
    _assert_nothing_ran(tmp_path, mark, done.stdout)


@pytest.mark.parametrize("mode", sorted(MODES))
def test_a_named_hook_that_fails_to_load_stops_the_start(tmp_path: Path, mode: str) -> None:
    witness, mark = _witness(tmp_path)
    broken = write_hook(tmp_path / "guard.py", "def register(pi):\n    raise RuntimeError('no')\n")
    model = write_script(tmp_path / "s.json", ["answer"])
    done = run_cli(
        *MODES[mode], "--model", model, "--hook", str(witness), "--hook", str(broken), cwd=tmp_path,
        stdin="hi\n",
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    assert (
        f"hookline: error: hook {broken} (--hook): failed to load: register() raised "
        f"RuntimeError: no (at {broken}:2); the agent does not start without a hook it was given"
    ) in done.stderr
    assert len(done.stderr.splitlines()) == 1
    _assert_nothing_ran(tmp_path, mark, done.stdout)


def test_a_broken_module_in_a_named_folder_stops_the_start(tmp_path: Path) -> None:
    folder = tmp_path / "guards"
    write_hook(folder / "ok.py", "def register(pi):\n    pass\n")
    broken = write_hook(folder / "typo.py", "def register(pi):\n    pi.on('tool_cal', print)\n")
    model = write_script(tmp_path / "s.json", ["answer"])
    done = run_cli("-p", "hi", "--model", model, "--hook", str(folder), cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert f"hook {broken} (--hook): failed to load: unknown event 'tool_cal'" in done.stderr
    assert done.stdout == ""


def test_several_named_hooks_that_fail_are_each_named(tmp_path: Path) -> None:
    broken = write_hook(tmp_path / "bad.py", "x = (\n")
    model = write_script(tmp_path / "s.json", ["answer"])
    done = run_cli(
        "-p", "hi", "--model", model, "--hook", str(broken), "--hook", "nope.py", cwd=tmp_path
    )
    assert done.returncode == 1
    lines = done.stderr.splitlines()
    assert lines[0] == "hookline: error: the agent does not start without the hooks it was given:"
    assert lines[1].startswith(f"hook {broken} (--hook): failed to load: syntax error")
    assert lines[2] == f"hook {tmp_path / 'nope.py'} (--hook): no such file"


def test_a_broken_hook_found_in_a_folder_is_reported_and_the_others_run(tmp_path: Path) -> None:
    project = tmp_path / "project"
    broken = write_hook(project / ".hookline" / "hooks" / "a_broken.py", "x = (\n")
    write_hook(project / ".hookline" / "hooks" / "b_witness.py", WITNESS.format(mark="started"))
    model = write_script(tmp_path / "s.json", ["answer"])
    done = run_cli("-p", "hi", "--model", model, "--trust-project", "--no-session", cwd=project)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "answer\n"
    assert f"hook {broken} failed to load: syntax error" in done.stderr
    assert (project / "started").exists()


def test_require_hook_keeps_exit_2_and_the_same_wording(tmp_path: Path) -> None:
    model = write_script(tmp_path / "s.json", ["answer"])
    done = run_cli("-p", "hi", "--model", model, "--require-hook", "gaurd.py", cwd=tmp_path)
    assert done.returncode == 2
    assert "required hook gaurd.py (--require-hook): no such file" in done.stderr


def test_an_rpc_host_gets_no_line_before_the_exit(tmp_path: Path) -> None:
    """The host sees the process end (exit 1), never a ``session_start`` first."""

    async def scenario() -> tuple[int, bytes, bytes]:
        proc = await asyncio.create_subprocess_exec(
            *CLI, "--mode", "rpc", "--hook", "gaurd.py", cwd=tmp_path,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        out, err = await asyncio.wait_for(proc.communicate(b'{"type": "get_state"}\n'), TIMEOUT)
        return await proc.wait(), out, err

    code, out, err = asyncio.run(scenario())
    assert code == 1 and out == b""
    assert b"gaurd.py (--hook): no such file" in err
