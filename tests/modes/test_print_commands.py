"""Slash commands under ``-p``: built-ins without a UI run, the others say they are not
available, hook commands run, any other ``/text`` is a prompt (as in Claude Code)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hookline.modes.print_commands import NEED_UI, RUN_WITHOUT_UI

from .helpers import json_lines, run_cli, write_hook, write_script

RECORDER = """
    import json

    def register(pi):
        def note(**fields):
            with open(RECORD, "a") as f:
                f.write(json.dumps(fields) + "\\n")

        @pi.on("input")
        def prompt(event, ctx):
            note(prompt=event.text)

        @pi.on("session_before_compact")
        def compact(event, ctx):
            note(trigger=event.trigger, instructions=event.custom_instructions)

        @pi.register_command("greet")
        async def greet(args, ctx):
            note(greet=args)
"""


@pytest.fixture
def recorder(tmp_path: Path) -> tuple[Path, Path]:
    record = tmp_path / "record.jsonl"
    hook = write_hook(tmp_path / "recorder.py", RECORDER.replace("RECORD", repr(str(record))))
    return hook, record


def _notes(record: Path) -> list[dict[str, str]]:
    if not record.exists():
        return []
    return [json.loads(line) for line in record.read_text().splitlines()]


def test_every_terminal_app_builtin_is_placed_for_print_mode() -> None:
    """A new built-in must say whether it runs under ``-p`` or needs the terminal app."""
    from hookline.modes.tui.commands import BUILTINS

    assert set(BUILTINS) == set(RUN_WITHOUT_UI) | NEED_UI
    assert not set(RUN_WITHOUT_UI) & NEED_UI


@pytest.mark.parametrize("name", ["help", "permissions", "resume", "quit"])
def test_a_command_that_needs_the_app_says_so_without_the_model(
    tmp_path: Path, recorder: tuple[Path, Path], name: str
) -> None:
    hook, record = recorder
    model = write_script(tmp_path / "script.json", ["MODEL-ANSWER"])
    done = run_cli("-p", f"/{name}", "--model", model, "--hook", str(hook), "--no-session")
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"/{name} isn't available in this environment.\n"
    assert _notes(record) == []  # no prompt reached the hooks (nor the model)


def test_compact_runs_on_the_continued_session_as_manual(
    tmp_path: Path, recorder: tuple[Path, Path]
) -> None:
    hook, record = recorder
    first = write_script(tmp_path / "first.json", ["FIRST " + "word " * 20_000])
    common = ["--hook", str(hook), "--cwd", str(tmp_path)]
    assert run_cli("-p", "hello", "--model", first, *common).returncode == 0
    never = write_script(tmp_path / "never.json", ["MODEL-ANSWER"])

    done = run_cli("-c", "-p", "/compact keep the tests", "--model", never, *common)

    assert done.returncode == 0, done.stderr
    assert done.stdout == "compacted the conversation\n"
    assert _notes(record) == [
        {"prompt": "hello"},
        {"trigger": "manual", "instructions": "keep the tests"},
    ]


def test_compact_with_nothing_to_compact_says_so(tmp_path: Path) -> None:
    model = write_script(tmp_path / "script.json", ["MODEL-ANSWER"])
    done = run_cli("-p", "/compact", "--model", model, "--no-session")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "nothing to compact\n"


def test_model_shows_the_model_in_use(tmp_path: Path) -> None:
    model = write_script(tmp_path / "script.json", ["MODEL-ANSWER"])
    done = run_cli("-p", "/model", "--model", model, "--no-session")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("model: ") and "MODEL-ANSWER" not in done.stdout


def test_a_hook_command_runs_and_other_slash_text_is_a_prompt(
    tmp_path: Path, recorder: tuple[Path, Path]
) -> None:
    hook, record = recorder
    model = write_script(tmp_path / "script.json", ["MODEL-ANSWER"])
    common = ["--model", model, "--hook", str(hook), "--no-session"]

    greeted = run_cli("-p", "/greet you", *common)
    assert greeted.returncode == 0 and greeted.stdout == "", greeted.stderr
    asked = run_cli("-p", "/not-a-command here", *common)
    assert asked.stdout == "MODEL-ANSWER\n", asked.stderr

    assert _notes(record) == [{"greet": "you"}, {"prompt": "/not-a-command here"}]


def test_json_mode_writes_the_command_output_as_a_line(tmp_path: Path) -> None:
    model = write_script(tmp_path / "script.json", ["MODEL-ANSWER"])
    done = run_cli("--mode", "json", "-p", "/help", "--model", model, "--no-session")
    assert done.returncode == 0, done.stderr
    lines = [line for line in json_lines(done.stdout) if line.get("type") == "command"]
    assert lines == [
        {"type": "command", "name": "help", "output": "/help isn't available in this environment."}
    ]
