"""The command line's prompt and typos: ``hookline "..."`` and "did you mean"."""

from __future__ import annotations

from pathlib import Path

import pytest

from .helpers import run_cli, write_hook, write_script

FLAG_HOOK = """\
import sys


def register(pi):
    pi.register_flag("plan", description="start in plan mode")
    pi.register_flag("preset", type="string", default="fast", description="a preset name")

    @pi.on("input")
    def said(event, ctx):
        print(f"prompt={event.text!r} plan={pi.get_flag('plan')!r} "
              f"preset={pi.get_flag('preset')!r}", file=sys.stderr)
"""


def _error(stderr: str) -> str:
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("hookline: error: ") and "(see `hookline --help`)" in lines[0]
    return lines[0]


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--modle", "x"], "unknown option --modle: no loaded hook registers it; did you mean"),
        (["--modle", "x"], "--model"),
        (["--no-sesion"], "did you mean --no-session?"),
        (["hoks"], "unknown command 'hoks'; did you mean hooks?"),
        (["sandbx"], "did you mean sandbox?"),
    ],
)
def test_a_mistyped_flag_or_command_is_named_with_a_guess(args: list[str], says: str) -> None:
    done = run_cli(*args)

    assert done.returncode == 2
    assert says in _error(done.stderr)
    assert done.stdout == ""


@pytest.mark.parametrize("args", [["--zzzzzz"], ["-p", "hi", "--xq"]])
def test_a_flag_like_none_gets_no_guess(args: list[str]) -> None:
    done = run_cli(*args)

    assert done.returncode == 2
    line = _error(done.stderr)
    assert "unknown option" in line and "did you mean" not in line


def test_a_mistyped_hook_flag_is_guessed_among_the_hook_flags(tmp_path: Path) -> None:
    hook = write_hook(tmp_path / "flags_hook.py", FLAG_HOOK)

    done = run_cli("--hook", str(hook), "-p", "hi", "--presett=x", cwd=tmp_path)

    assert done.returncode == 2
    assert "did you mean --preset?" in _error(done.stderr)


def test_a_one_word_prompt_like_a_command_goes_after_dashes(tmp_path: Path) -> None:
    model = write_script(tmp_path / "s.json", ["on it"])

    done = run_cli("--model", model, "--no-session", "--", "hoks", cwd=tmp_path)

    assert done.returncode == 0, done.stderr
    assert "on it" in done.stdout


def test_a_positional_prompt_is_sent_first_and_hook_flags_still_parse(tmp_path: Path) -> None:
    """Off a terminal the interactive session is the line mode: the prompt goes first."""
    hook = write_hook(tmp_path / "flags_hook.py", FLAG_HOOK)
    model = write_script(tmp_path / "s.json", ["first answer", "second answer"])
    common = ["--hook", str(hook), "--model", model, "--no-session"]

    done = run_cli(*common, "fix the tests", "--plan", "--preset", "slow", stdin="and then\n")

    assert done.returncode == 0, done.stderr
    assert "prompt='fix the tests' plan=True preset='slow'" in done.stderr
    assert "prompt='and then'" in done.stderr
    assert done.stdout.index("first answer") < done.stdout.index("second answer")

    done = run_cli(*common, "--preset", "slow", "fix", "it", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "prompt='fix it' plan=None preset='slow'" in done.stderr


@pytest.mark.parametrize(
    "args", [["-p", "one", "two"], ["--mode", "rpc", "two"], ["--mode", "json", "-p", "a", "b"]]
)
def test_a_positional_prompt_is_refused_beside_a_print_prompt(args: list[str]) -> None:
    done = run_cli(*args)

    assert done.returncode == 2
    assert "a prompt without -p starts the terminal app" in _error(done.stderr)
