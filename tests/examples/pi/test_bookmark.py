"""pi's bookmark example (``examples/pi/bookmark.py``): in a real RPC session ``/bookmark``
labels the last assistant message in the session file and ``/unbookmark`` clears it."""

from __future__ import annotations

import re
from pathlib import Path

from tests.examples.harness import PI_EXAMPLES
from tests.modes.helpers import Line, RpcClient, read_jsonl, session_files, write_script

PORT = str(PI_EXAMPLES / "bookmark.py")


def _notes(lines: list[Line]) -> list[tuple[str, str]]:
    return [
        (str(m["notifyType"]), str(m["message"]))
        for m in lines
        if m["type"] == "extension_ui_request" and m["method"] == "notify"
    ]


async def test_bookmark_and_unbookmark_the_last_answer(tmp_path: Path) -> None:
    model = write_script(tmp_path / "script.json", ["answer one", "answer two"])
    async with RpcClient("--model", model, "--hook", PORT, cwd=tmp_path) as client:
        await client.ok({"type": "prompt", "message": "/bookmark"})
        await client.ok({"type": "prompt", "message": "/unbookmark"})
        await client.prompt("question one")
        await client.prompt("question two")
        await client.ok({"type": "prompt", "message": "/bookmark good state"})
        await client.ok({"type": "prompt", "message": "/unbookmark"})
        await client.ok({"type": "prompt", "message": "/bookmark"})
        assert await client.close_stdin() == 0

    (session,) = session_files(tmp_path / "home")
    entries = read_jsonl(session)
    answers = [
        e["id"] for e in entries if e["type"] == "message" and e["message"]["role"] == "assistant"
    ]
    labels = [(e["target_id"], e["label"]) for e in entries if e["type"] == "label"]
    assert labels[:2] == [(answers[1], "good state"), (answers[1], None)]
    assert labels[2][0] == answers[1] and re.fullmatch(r"bookmark-\d{13}", labels[2][1])
    assert _notes(client.seen) == [
        ("warning", "No assistant message to bookmark"),
        ("warning", "No bookmarked entry found"),
        ("info", "Bookmarked as: good state"),
        ("info", "Removed bookmark: good state"),
        ("info", f"Bookmarked as: {labels[2][1]}"),
    ]
