"""pi's inline-bash example (``examples/pi/inline_bash.py``): the (scripted) model of a real
run sees ``!{command}`` replaced by the command's output; over RPC the user is told what
was expanded."""

from __future__ import annotations

from pathlib import Path

from tests.examples.harness import PI_EXAMPLES
from tests.modes.helpers import RpcClient, run_cli, write_script

PORT = str(PI_EXAMPLES / "inline_bash.py")
PROMPT = "Version !{cat VERSION}, then !{echo oops >&2; exit 4} and !{exit 3}."


def test_the_model_sees_the_outputs(tmp_path: Path) -> None:
    (tmp_path / "VERSION").write_text("1.2.3\n")
    model = write_script(
        tmp_path / "script.json",
        [{"text": "Noted.", "expect_user_contains": "Version 1.2.3, then oops and ."}],
    )
    args = ("--model", model, "--no-session", "--cwd", str(tmp_path), "--hook", PORT)
    done = run_cli("-p", PROMPT, *args)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "Noted.\n"
    assert "Expanded" not in done.stderr  # no UI: nothing said


def test_a_whole_line_command_and_an_unclosed_pattern_are_left_alone(tmp_path: Path) -> None:
    model = write_script(
        tmp_path / "script.json",
        [
            {"text": "one", "expect_user_contains": "!{ not closed"},
        ],
    )
    done = run_cli("-p", "!{ not closed", "--model", model, "--no-session", "--hook", PORT)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "one\n"


async def test_the_user_is_told_what_was_expanded(tmp_path: Path) -> None:
    (tmp_path / "VERSION").write_text("1.2.3\n")
    long = "x" * 60
    model = write_script(
        tmp_path / "script.json",
        [{"text": "ok", "expect_user_contains": f"Version 1.2.3 and {long}, oops"}],
    )
    async with RpcClient("--model", model, "--hook", PORT, "--no-session", cwd=tmp_path) as client:
        await client.prompt(
            f"Version !{{cat VERSION}} and !{{echo {long}; exit 2}}, !{{echo oops >&2; exit 4}}"
        )
        assert await client.close_stdin() == 0
    notes = [m["message"] for m in client.seen if m.get("method") == "notify"]
    assert notes == [
        "Expanded 3 inline command(s):\n"
        '!{cat VERSION} -> "1.2.3"\n'
        f'!{{echo {long}; exit 2}} -> "{"x" * 50}..."\n'
        '!{echo oops >&2; exit 4} (exit code 4) -> "oops"'
    ]
