"""pi's file-trigger example (``examples/pi/file_trigger.py``): text written to the trigger
file starts a turn in a real RPC session, the model answering the custom message; the file
is emptied, and watching stops at shutdown."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.examples.harness import PI_EXAMPLES, Example
from tests.modes.helpers import RpcClient, write_script


async def until(condition: Callable[[], bool], what: str, deadline: float = 10.0) -> None:
    """Wait for ``condition`` (checked each loop turn), failing after ``deadline`` seconds."""
    loop = asyncio.get_running_loop()
    end = loop.time() + deadline
    while not condition():
        if loop.time() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)


async def test_a_written_trigger_starts_a_turn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    trigger = tmp_path / "agent-trigger.txt"
    monkeypatch.setenv("HOOKLINE_TRIGGER_FILE", str(trigger))
    model = write_script(
        tmp_path / "script.json",
        [{"text": "Running them now.", "expect_user_contains": "External trigger: Run the tests"}],
    )
    args = ("--model", model, "--hook", str(PI_EXAMPLES / "file_trigger.py"), "--no-session")
    async with RpcClient(*args, cwd=tmp_path) as client:
        await client.ok({"type": "get_state"})  # session_start has run: the watch is on
        trigger.write_text("Run the tests\n")
        lines = await client.read_until(lambda m: m["type"] == "agent_end")
        assert await client.close_stdin() == 0
    assert trigger.read_text() == ""
    assert [m for m in lines if m["type"] == "extension_error"] == []
    assert "Running them now." in str(lines)
    notes = [m["message"] for m in client.seen if m.get("method") == "notify"]
    assert notes == [f"Watching {trigger}"]


async def test_the_message_and_the_end_of_watching(
    example: Example, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    trigger = tmp_path / "trigger.txt"
    monkeypatch.setenv("HOOKLINE_TRIGGER_FILE", str(trigger))
    harness = example("file_trigger", cwd=tmp_path)  # no UI: nothing is said
    (await harness.emit("session_start")).assert_allowed()
    assert harness.ui.notifications == []
    trigger.write_text("Run the tests\n")
    await until(lambda: len(harness.host.messages) == 1, "the message")
    message = dict(harness.host.messages[0])
    assert message["custom_type"] == "file-trigger"
    assert message["content"] == "External trigger: Run the tests"
    assert message["display"] is True
    await until(lambda: trigger.read_text() == "", "the file to be emptied")
    (await harness.emit("session_shutdown")).assert_allowed()
    trigger.write_text("after shutdown")
    await asyncio.sleep(0.3)
    assert len(harness.host.messages) == 1
    assert trigger.read_text() == "after shutdown"
