"""pi's confirm-destructive example (``examples/pi/confirm_destructive.py``): a real RPC
session whose host answers the dialogs: a new session and a fork are cancelled on no and go
ahead on yes; a switch asks only when the session holds user messages."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from hookline.core.host import EmptySession
from tests.examples.harness import PI_EXAMPLES, Example
from tests.modes.helpers import RpcClient, write_script
from tests.modes.tui.helpers import app
from tests.modes.tui.pane import needs_tmux

from .dialogs import answering, said

PORT = str(PI_EXAMPLES / "confirm_destructive.py")


async def test_new_session_and_fork_are_asked(tmp_path: Path) -> None:
    model = write_script(tmp_path / "script.json", ["Hello!", "Again!"])
    async with RpcClient("--model", model, "--hook", PORT, cwd=tmp_path) as client:
        await client.prompt("hi")
        await client.prompt("hi again")  # the fork point: before this message
        data, seen = await answering(client, {"type": "new_session"}, False)
        assert data == {"cancelled": True}
        assert said(seen) == ["Clear session?", "Clear cancelled"]

        forkable = await client.ok({"type": "get_fork_messages"})
        entry_id = forkable["messages"][1]["entryId"]
        fork = {"type": "fork", "entryId": entry_id}
        data, seen = await answering(client, fork, "No, stay in current session")
        assert data["cancelled"] is True
        assert seen[0]["options"] == ["Yes, create fork", "No, stay in current session"]
        assert seen[0]["title"].startswith("Fork from entry ")
        assert said(seen)[1:] == ["Fork cancelled"]
        data, _ = await answering(client, fork, "Yes, create fork")
        assert data["cancelled"] is False

        data, seen = await answering(client, {"type": "new_session"}, True)
        assert data == {"cancelled": False}
        assert said(seen) == ["Clear session?"]
        assert await client.close_stdin() == 0


class _Chatted(EmptySession):
    """A session holding one message from ``role``."""

    def __init__(self, role: str) -> None:
        self.role = role

    def get_entries(self) -> Sequence[Mapping[str, Any]]:
        return [{"type": "message", "message": {"role": self.role, "content": "hi"}}]


async def test_a_switch_asks_only_with_user_messages(example: Example) -> None:
    harness = example("confirm_destructive", answers={"confirm": False})
    harness.host.session_manager = _Chatted("user")
    emitted = await harness.emit("session_before_switch", reason="switch")
    assert emitted.blocked
    assert harness.ui.notifications == [("info", "Switch cancelled")]

    harness = example("confirm_destructive", answers={"confirm": False})
    harness.host.session_manager = _Chatted("assistant")
    emitted = await harness.emit("session_before_switch", reason="switch")
    assert not emitted.blocked
    assert harness.ui.notifications == []


async def test_without_a_ui_nothing_is_asked(example: Example) -> None:
    harness = example("confirm_destructive")
    assert not (await harness.emit("session_before_switch", reason="new")).blocked
    assert not (await harness.emit("session_before_fork", entry_id="abc")).blocked
    assert harness.ui.asked == []


@needs_tmux
def test_no_in_the_terminal_app_keeps_the_session(tmp_path: Path) -> None:
    with app(tmp_path, ["Kept."], None, "--hook", PORT) as pane:
        pane.ready()
        pane.type("remember me")
        pane.keys("Enter")
        pane.wait_for("Kept.")
        pane.type("/new")
        pane.keys("Enter")
        pane.wait_for("This will delete all messages in the current session.")
        pane.keys("n")
        # the editor is back under the same conversation
        screen = pane.wait_for(lambda s: "Clear cancelled" in s and "2 msgs" in s)
        assert "remember me" in screen and "Kept." in screen
