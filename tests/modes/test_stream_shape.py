"""The JSON stream grows with the work done: each line carries what is new.

Counts bytes, not time: a 200-turn session stays under 1 MB, and its second
half costs about what its first half did (a stream that re-sent the message
list on every model call would grow with the square of the turns).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .helpers import json_lines, run_cli, write_hook, write_script

TURNS = 200


def _long_session(tmp_path: Path) -> list[dict[str, Any]]:
    turns: list[Any] = [
        {
            "text": f"Step {i}: listing again.",
            "tool_calls": [{"id": f"c{i}", "name": "ls", "arguments": {"path": "."}}],
        }
        for i in range(TURNS - 1)
    ]
    turns.append({"text": "Finished."})
    return turns


def test_two_hundred_turns_stay_small_and_linear(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("a")
    model = write_script(tmp_path / "script.json", _long_session(tmp_path))
    done = run_cli(
        "--mode", "json", "-p", "go", "--model", model, "--cwd", str(tmp_path), "--no-session"
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(done.stdout.encode()) < 1_000_000
    starts = [i for i, line in enumerate(lines) if '"type": "turn_start"' in line]
    assert len(starts) == TURNS
    half = starts[TURNS // 2]
    first = sum(len(x) for x in lines[starts[0] : half])
    second = sum(len(x) for x in lines[half:])
    assert second <= first * 1.25, (first, second)
    contexts = [e for e in json_lines(done.stdout) if e["type"] == "context"]
    assert [c["message_count"] for c in contexts[:3]] == [1, 3, 5]
    assert all("messages" not in c for c in contexts)
    assert [len(c["messages_added"]) for c in contexts[:3]] == [1, 2, 2]


def test_verbose_context_puts_the_whole_list_on_every_call(tmp_path: Path) -> None:
    model = write_script(tmp_path / "script.json", _long_session(tmp_path)[-3:])
    done = run_cli(
        "--mode", "json", "-p", "go", "--model", model, "--cwd", str(tmp_path), "--no-session",
        "--verbose-context",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    contexts = [e for e in json_lines(done.stdout) if e["type"] == "context"]
    assert [len(c["messages"]) for c in contexts] == [1, 3, 5]
    assert [c["message_count"] for c in contexts] == [1, 3, 5]


DROPS_FIRST = """
    def register(pi):
        @pi.on("context")
        def drop_first(event, ctx):
            return {"messages": event.messages[1:] if len(event.messages) > 2 else None}
"""


def test_a_rewritten_history_is_sent_whole_once(tmp_path: Path) -> None:
    hook = write_hook(tmp_path / "drop.py", DROPS_FIRST)
    model = write_script(tmp_path / "script.json", _long_session(tmp_path)[-3:])
    done = run_cli(
        "--mode", "json", "-p", "go", "--model", model, "--cwd", str(tmp_path), "--no-session",
        "--hook", str(hook),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    contexts = [e for e in json_lines(done.stdout) if e["type"] == "context"]
    # call 1: [user]; call 2: [assistant, tool] (the user prompt dropped): a reset.
    assert contexts[0]["messages_added"][0]["role"] == "user"
    assert contexts[1]["reset"] is True
    assert [m["role"] for m in contexts[1]["messages"]] == ["assistant", "tool"]


def test_each_streamed_text_delta_is_written_once(tmp_path: Path) -> None:
    """The step's ``assistant_message_event`` carries the delta; no ``text_delta`` line
    repeats it (the stream was twice the answer's size per chunk)."""
    answer = "word " * 400
    model = write_script(tmp_path / "script.json", [{"text": answer}])
    done = run_cli(
        "--mode", "json", "-p", "go", "--model", model, "--cwd", str(tmp_path), "--no-session"
    )
    assert done.returncode == 0, done.stderr
    lines = json_lines(done.stdout)
    assert not [e for e in lines if e["type"] == "text_delta"]
    deltas = [
        e["event"]["delta"]
        for e in lines
        if e["type"] == "assistant_message_event" and e["event"]["type"] == "text_delta"
    ]
    assert len(deltas) > 1 and "".join(deltas) == answer
