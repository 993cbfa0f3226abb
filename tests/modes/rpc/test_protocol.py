"""The RPC wire rules one by one: line cutting, command parsing, dialog answers, stdin kinds."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from hookline.modes.rpc.protocol import ui_answer
from hookline.modes.rpc.wire import LineTooLong, parse_command, read_lines

from ..helpers import CLI, TIMEOUT, json_lines


async def _lines(pieces: Sequence[bytes], limit: int) -> list[bytes | LineTooLong]:
    """Feed ``pieces`` one by one (each may end mid-line), collect what ``read_lines`` yields."""
    reader = asyncio.StreamReader()
    out: list[bytes | LineTooLong] = []

    async def collect() -> None:
        async for line in read_lines(reader, limit):
            out.append(line)

    task = asyncio.create_task(collect())
    for piece in pieces:
        reader.feed_data(piece)
        await asyncio.sleep(0)  # let the reader take this piece before the next arrives
    reader.feed_eof()
    await task
    return out


async def test_lines_are_cut_on_newlines_whatever_the_chunks() -> None:
    assert await _lines([b"a\nbb", b"b\n\nc", b"cc"], limit=10) == [b"a", b"bbb", b"", b"ccc"]


async def test_a_line_at_the_limit_passes_one_over_is_skipped_whole() -> None:
    at_limit = b"x" * 10
    got = await _lines(
        [b"y" * 6, b"y" * 6, b"y" * 6 + b"\n" + at_limit + b"\n", b"z" * 11, b"\nok\n"], limit=10
    )
    assert got == [LineTooLong(18), at_limit, LineTooLong(11), b"ok"]


async def test_an_over_long_last_line_without_newline_is_reported() -> None:
    assert await _lines([b"fine\n", b"w" * 25], limit=10) == [b"fine", LineTooLong(25)]


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("nope", "invalid JSON at column 1"),
        ("[" * 1500 + "]" * 1500, "nested too deeply"),
        ('{"type": "x", "deep": ' + '{"a": ' * 5000, "nested too deeply"),
        ('{"type": "get_state", "id": ' + "9" * 5000 + "}", "invalid JSON: Exceeds the limit"),
        ("[1]", 'string "type"'),
        ('{"type": 3}', 'string "type"'),
        ('{"type": "get_state", "id": 1.5}', '"id" must be a string or an integer'),
        ('{"type": "get_state", "id": false}', '"id" must be a string or an integer'),
        ('{"type": "get_state", "id": {"a": 1}}', '"id" must be a string or an integer'),
    ],
)
def test_bad_commands_are_value_errors(text: str, error: str) -> None:
    with pytest.raises(ValueError) as info:
        parse_command(text)
    assert error in str(info.value)


def test_good_commands_keep_their_id() -> None:
    assert parse_command('{"type": "abort", "id": "a1"}') == {"type": "abort", "id": "a1"}
    assert parse_command('{"type": "abort", "id": 7}')["id"] == 7
    assert "id" not in parse_command('{"type": "abort"}')


@pytest.mark.parametrize(
    ("method", "answer", "resolved"),
    [
        ("confirm", {"confirmed": True}, {"confirmed": True}),
        ("confirm", {"confirmed": False}, {"confirmed": False}),
        ("confirm", {"cancelled": True, "confirmed": True}, {"cancelled": True}),
        ("confirm", {"cancelled": False, "confirmed": True}, {"confirmed": True}),
        ("select", {"value": "b"}, {"value": "b"}),
        ("select", {"cancelled": True}, {"cancelled": True}),
        ("input", {"value": ""}, {"value": ""}),
        ("editor", {"value": "text"}, {"value": "text"}),
    ],
)
def test_well_typed_answers_resolve(method: str, answer: Any, resolved: Any) -> None:
    assert ui_answer(method, ("a", "b"), answer) == resolved


@pytest.mark.parametrize(
    ("method", "answer", "error"),
    [
        ("confirm", {"confirmed": "false"}, 'not the string "false"'),
        ("confirm", {"confirmed": "true"}, "must be true or false"),
        ("confirm", {"confirmed": 1}, "not 1"),
        ("confirm", {"confirmed": 0}, "not 0"),
        ("confirm", {"confirmed": None}, "not null"),
        ("confirm", {"confirmed": [True]}, "not an array"),
        ("confirm", {"value": True}, 'needs "confirmed"'),
        ("confirm", {}, 'needs "confirmed"'),
        ("confirm", {"cancelled": "yes", "confirmed": True}, '"cancelled" must be true or false'),
        ("confirm", {"cancelled": 1}, '"cancelled" must be true or false'),
        ("select", {"value": 3}, '"value" must be a string, not 3'),
        ("select", {"value": "c"}, 'one of the options: "a", "b"'),
        ("select", {"value": {"x": 1}}, "not an object"),
        ("select", {}, 'needs a string "value"'),
        ("input", {"value": 5}, "must be a string"),
        ("input", {"value": None}, "not null"),
        ("editor", {"value": False}, "not false"),
    ],
)
def test_malformed_answers_are_refused(method: str, answer: Any, error: str) -> None:
    with pytest.raises(ValueError) as info:
        ui_answer(method, ("a", "b"), answer)
    assert error in str(info.value)


def _rpc_with_stdin(stdin_path: str, project: Path) -> subprocess.CompletedProcess[str]:
    with open(stdin_path, "rb") as stdin:
        done = subprocess.run(
            [*CLI, "--mode", "rpc", "--rpc-events", "all", "--no-session", "--cwd", str(project)],
            stdin=stdin,
            capture_output=True,
            env=os.environ.copy(),
            timeout=TIMEOUT,
            check=False,
        )
    return subprocess.CompletedProcess(
        done.args, done.returncode, done.stdout.decode(), done.stderr.decode()
    )


def test_stdin_may_be_a_regular_file_or_dev_null(tmp_path: Path) -> None:
    """``hookline --mode rpc < commands.jsonl``: the loop cannot watch a file; still answered."""
    project = tmp_path / "proj"
    project.mkdir()
    commands = tmp_path / "commands.jsonl"
    commands.write_text(
        json.dumps({"type": "get_state", "id": "s1"})
        + "\n"
        + json.dumps({"type": "prompt", "message": "hi", "id": "p1"})  # no final newline
    )
    done = _rpc_with_stdin(str(commands), project)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    responses = {m["id"]: m for m in json_lines(done.stdout) if m["type"] == "response"}
    assert responses["s1"]["success"] is True and responses["p1"]["success"] is True

    done = _rpc_with_stdin(os.devnull, project)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert [m["type"] for m in json_lines(done.stdout)] == ["session_start", "session_shutdown"]
