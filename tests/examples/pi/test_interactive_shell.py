"""pi's interactive-shell example in Python (``examples/pi/interactive_shell.py``): an
interactive ``!command`` gets the terminal to itself; others run as usual."""

from __future__ import annotations

from pathlib import Path

import pytest

from hookline import BashOutput, UserBashEvent, UserBashResult
from tests.examples.harness import PI_EXAMPLES, Example
from tests.modes.helpers import RpcClient, write_script
from tests.modes.tui.helpers import app

EXAMPLE = PI_EXAMPLES / "interactive_shell.py"


def _output(result: object) -> BashOutput | None:
    return result.result if isinstance(result, UserBashResult) else None


@pytest.mark.parametrize(
    ("command", "interactive"),
    [
        ("vim notes.txt", True),
        ("git rebase -i HEAD~3", True),
        ("git status", False),
        ("cat log.txt | less", True),
        ("htop", True),
        ("ls -la", False),
        ("vimdiff a b", False),  # a name must end where the program's does
    ],
)
async def test_which_commands_take_the_terminal(
    example: Example, command: str, interactive: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SHELL", "/bin/true")  # the hand-over without the program
    harness = example("interactive_shell", answers={})
    emitted = await harness.emit(UserBashEvent(command=command, cwd=str(harness.cwd)))
    assert emitted.errors == []
    shown = harness.ui.components
    assert bool(shown) is interactive, command
    if interactive:
        assert shown[0].stops == shown[0].starts == 1  # handed over, then taken back
    else:
        assert emitted.result is None  # ordinary: bash runs it as usual


async def test_the_exit_code_is_the_answer(
    example: Example, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SHELL", "/bin/sh")
    harness = example("interactive_shell", tmp_path, answers={})
    done = _output((await harness.emit(UserBashEvent(command="i true", cwd=str(tmp_path)))).result)
    assert done == BashOutput(output="(interactive command completed successfully)", exit_code=0)
    forced = "i echo hi > out.txt; exit 3"  # !i forces any command
    failed = _output((await harness.emit(UserBashEvent(command=forced, cwd=str(tmp_path)))).result)
    assert failed == BashOutput(output="(interactive command exited with code 3)", exit_code=3)
    assert (tmp_path / "out.txt").read_text() == "hi\n"  # run in the command's folder


async def test_the_environment_adds_and_excludes(
    example: Example, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("INTERACTIVE_COMMANDS", "mytui, other")
    monkeypatch.setenv("INTERACTIVE_EXCLUDE", "VIM")
    monkeypatch.setenv("SHELL", "/bin/true")
    harness = example("interactive_shell", answers={"custom": 0})
    assert _output((await harness.emit(UserBashEvent(command="mytui --x", cwd="."))).result)
    assert (await harness.emit(UserBashEvent(command="vim x", cwd="."))).result is None


async def test_without_a_terminal_nothing_runs(example: Example) -> None:
    harness = example("interactive_shell")  # no UI: print mode
    done = _output((await harness.emit(UserBashEvent(command="vim x", cwd="."))).result)
    assert done == BashOutput(output="(interactive commands require TUI)", exit_code=1)
    assert harness.ui.components == []


async def test_rpc_does_not_run_it(tmp_path: Path) -> None:
    model = write_script(tmp_path / "script.json", [])
    marker = tmp_path / "ran.txt"
    async with RpcClient("--model", model, "--hook", str(EXAMPLE), "--no-session") as rpc:
        data = await rpc.ok({"type": "bash", "command": f"i touch {marker}"})
    assert data["output"] == "(interactive commands require TUI)" and data["exitCode"] == 1
    assert not marker.exists()


def test_in_the_terminal_app_the_program_reads_the_keys(tmp_path: Path) -> None:
    answer = tmp_path / "project" / "answer.txt"
    command = "!i printf 'name? '; read n; echo \"hi $n\" > answer.txt"
    with app(tmp_path, [], None, "--hook", str(EXAMPLE)) as pane:
        pane.ready()
        pane.type(command)
        pane.keys("Enter")
        pane.wait_for(lambda s: s.rstrip().endswith("name?"))  # the app is gone
        pane.type("bob")
        pane.keys("Enter")
        pane.wait_for("(interactive command completed successfully)")
        pane.wait_for("msgs · ctx")  # the app is back, its footer drawn
        assert answer.read_text() == "hi bob\n"


def test_in_the_terminal_app_a_pager_comes_and_goes(tmp_path: Path) -> None:
    (tmp_path / "project").mkdir(exist_ok=True)
    (tmp_path / "project" / "notes.txt").write_text("first note\nsecond note\n")
    with app(tmp_path, [], None, "--hook", str(EXAMPLE)) as pane:
        pane.ready()
        pane.type("!less notes.txt")
        pane.keys("Enter")
        pane.wait_for(lambda s: "second note" in s and "msgs · ctx" not in s)
        pane.keys("q")
        pane.wait_for("(interactive command completed successfully)")
        pane.type("still here")
        pane.wait_for("still here")


def test_in_the_terminal_app_ctrl_c_stops_the_program_not_the_app(tmp_path: Path) -> None:
    with app(tmp_path, [], None, "--hook", str(EXAMPLE)) as pane:
        pane.ready()
        pane.type("!i printf 'waiting '; sleep 30")
        pane.keys("Enter")
        pane.wait_for(lambda s: s.rstrip().endswith("waiting"))
        pane.keys("C-c")
        pane.wait_for("(interactive command exited with code -2)")  # killed by SIGINT
        pane.type("still here")
        pane.wait_for("still here")
        assert not pane.dead()
