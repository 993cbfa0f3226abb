"""pi's confirm-destructive example (``examples/pi/confirm_destructive.py``): a real RPC
session whose host answers the dialogs: a new session and a fork are cancelled on no and go
ahead on yes; a switch asks only when the session holds user messages."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.examples.harness import PI_EXAMPLES, Example
from tests.modes.helpers import Line, RpcClient, write_script

PORT = str(PI_EXAMPLES / "confirm_destructive.py")


async def answering(client: RpcClient, command: Line, *answers: Any) -> tuple[Any, list[Line]]:
    """Send ``command``, answer its dialogs with ``answers`` in order; its data and the
    dialogs and notifications seen."""
    pending = list(answers)
    await client.send({**command, "id": "cmd"})
    seen: list[Line] = []
    while True:
        line = await client.read()
        if line["type"] == "response" and line.get("id") == "cmd":
            assert line["success"] is True, line
            assert not pending, f"dialogs not asked: {pending}"
            return line.get("data"), seen
        if line["type"] != "extension_ui_request" or line["method"] == "setStatus":
            continue
        seen.append(line)
        if line["method"] == "confirm":
            reply = {"confirmed": pending.pop(0)}
        elif line["method"] == "select":
            reply = {"value": pending.pop(0)}
        else:
            continue
        await client.send({"type": "extension_ui_response", "id": line["id"], **reply})


def _said(lines: list[Line]) -> list[str]:
    return [str(m.get("title") or m.get("message")) for m in lines]


async def test_new_session_and_fork_are_asked(tmp_path: Path) -> None:
    model = write_script(tmp_path / "script.json", ["Hello!", "Again!"])
    async with RpcClient("--model", model, "--hook", PORT, cwd=tmp_path) as client:
        await client.prompt("hi")
        await client.prompt("hi again")  # the fork point: before this message
        data, seen = await answering(client, {"type": "new_session"}, False)
        assert data == {"cancelled": True}
        assert _said(seen) == ["Clear session?", "Clear cancelled"]

        forkable = await client.ok({"type": "get_fork_messages"})
        entry_id = forkable["messages"][1]["entryId"]
        fork = {"type": "fork", "entryId": entry_id}
        data, seen = await answering(client, fork, "No, stay in current session")
        assert data["cancelled"] is True
        assert seen[0]["options"] == ["Yes, create fork", "No, stay in current session"]
        assert seen[0]["title"].startswith("Fork from entry ")
        assert _said(seen)[1:] == ["Fork cancelled"]
        data, _ = await answering(client, fork, "Yes, create fork")
        assert data["cancelled"] is False

        data, seen = await answering(client, {"type": "new_session"}, True)
        assert data == {"cancelled": False}
        assert _said(seen) == ["Clear session?"]
        assert await client.close_stdin() == 0


class _Chatted:
    def __init__(self, role: str) -> None:
        self.role = role

    def get_entries(self) -> list[dict[str, Any]]:
        return [{"type": "message", "message": {"role": self.role, "content": "hi"}}]


async def test_a_switch_asks_only_with_user_messages(example: Example) -> None:
    harness = example("confirm_destructive", answers={"confirm": False})
    harness.host.session_manager = _Chatted("user")  # type: ignore[assignment]
    emitted = await harness.emit("session_before_switch", reason="switch")
    assert emitted.blocked
    assert harness.ui.notifications == [("info", "Switch cancelled")]

    harness = example("confirm_destructive", answers={"confirm": False})
    harness.host.session_manager = _Chatted("assistant")  # type: ignore[assignment]
    emitted = await harness.emit("session_before_switch", reason="switch")
    assert not emitted.blocked
    assert harness.ui.notifications == []


async def test_without_a_ui_nothing_is_asked(example: Example) -> None:
    harness = example("confirm_destructive")
    assert not (await harness.emit("session_before_switch", reason="new")).blocked
    assert not (await harness.emit("session_before_fork", entry_id="abc")).blocked
    assert harness.ui.asked == []
