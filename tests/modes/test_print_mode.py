"""Print mode (``-p``): the answer alone on stdout, no-UI dialog answers, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

from .helpers import run_cli, write_hook, write_script

UI_HOOK = """
    import json

    def register(pi):
        @pi.on("turn_start")
        async def ask(event, ctx):
            answers = {
                "has_ui": ctx.has_ui,
                "confirm": await ctx.ui.confirm("Proceed?", "really"),
                "select": await ctx.ui.select("Pick", ["a", "b"]),
                "input": await ctx.ui.input("Name", "placeholder"),
                "editor": await ctx.ui.editor("Edit", "prefill"),
                "editor_text": ctx.ui.get_editor_text(),
            }
            ctx.ui.set_status("k", "status text")
            ctx.ui.notify(f"turn {event.turn_index} noted", "warning")
            with open(RECORD, "a") as f:
                f.write(json.dumps(answers) + "\\n")

        @pi.on("tool_result")
        def broken(event, ctx):
            raise RuntimeError("kaboom in tool_result")
"""


def test_print_writes_only_the_final_answer_and_hooks_get_no_ui_answers(tmp_path: Path) -> None:
    record = tmp_path / "answers.jsonl"
    hook = write_hook(tmp_path / "ui_hook.py", UI_HOOK.replace("RECORD", repr(str(record))))
    model = write_script(
        tmp_path / "script.json",
        [
            {"text": "Let me look first.", "tool_calls": [{"name": "ls", "arguments": {}}]},
            {"text": "The final answer."},
        ],
    )
    project = tmp_path / "proj"
    project.mkdir()

    done = run_cli("-p", "hello", "--model", model, "--hook", str(hook), "--cwd", str(project))

    assert done.returncode == 0, done.stderr
    assert done.stdout == "The final answer.\n"
    answers = [json.loads(line) for line in record.read_text().splitlines()]
    assert len(answers) == 2  # one per turn
    for answer in answers:
        assert answer == {
            "has_ui": False,
            "confirm": False,
            "select": None,
            "input": None,
            "editor": None,
            "editor_text": "",
        }
    assert "[warning] turn 0 noted" in done.stderr
    assert "[warning] turn 1 noted" in done.stderr
    assert (
        "failed on tool_result: RuntimeError: kaboom in tool_result; "
        "the tool's output was withheld" in done.stderr
    )
    assert str(hook) in done.stderr
    assert "Traceback" not in done.stderr


def test_model_error_exits_1_with_the_error_on_stderr(tmp_path: Path) -> None:
    model = write_script(
        tmp_path / "script.json",
        [{"error": {"message": "invalid request: bad things", "status": 400}}],
    )

    done = run_cli("-p", "hello", "--model", model, "--no-session", "--cwd", str(tmp_path))

    assert done.returncode == 1
    assert "invalid request: bad things" in done.stderr
    assert done.stdout == ""  # stdout is for answers only
    assert "Traceback" not in done.stderr


def test_transient_error_is_retried_and_the_run_succeeds(tmp_path: Path) -> None:
    model = write_script(
        tmp_path / "script.json",
        [{"error": {"message": "overloaded", "status": 529}}, "Recovered."],
    )

    done = run_cli("-p", "hello", "--model", model, "--no-session", "--cwd", str(tmp_path))

    assert done.returncode == 0, done.stderr
    assert done.stdout == "Recovered.\n"


def test_verbose_shows_a_long_result_by_its_head_and_tail_with_the_exact_count(
    tmp_path: Path,
) -> None:
    """4 000 lines: the first two, how many between, and the tail that says where bash cut."""
    model = write_script(
        tmp_path / "script.json",
        [{"tool_calls": [{"name": "bash", "arguments": {"command": "seq 4000"}}]}, "done"],
    )
    args = ("--verbose", "--no-session", "--permission-mode", "bypassPermissions")
    done = run_cli("-p", "count", "--model", model, *args, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    shown = done.stderr.split("  -> bash seq 4000\n", 1)[1].splitlines()[:5]
    # bash kept the last 2000 lines and a notice: 2002 lines, two at each end shown
    assert shown[:4] == ["     [ok] 2001", "          2002", "          … 1998 more lines …", ""]
    assert shown[4].startswith("          [Showing lines 2001-4000 of 4000. Full output: ")


def test_verbose_shows_a_short_result_whole(tmp_path: Path) -> None:
    model = write_script(
        tmp_path / "script.json",
        [{"tool_calls": [{"name": "bash", "arguments": {"command": "seq 5"}}]}, "done"],
    )
    args = ("--verbose", "--no-session", "--permission-mode", "bypassPermissions")
    done = run_cli("-p", "count", "--model", model, *args, cwd=tmp_path)
    rows = [f"{' ' * 10}{n}" for n in range(2, 6)]
    assert "  -> bash seq 5\n     [ok] 1\n" + "\n".join(rows) + "\n" in done.stderr
