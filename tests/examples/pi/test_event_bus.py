"""pi's event-bus example (``examples/pi/event_bus.py``): in a real RPC session the session's
start and ``/emit`` are heard on ``my:notification``, also by a second hook listening."""

from __future__ import annotations

import json
from pathlib import Path

from tests.examples.harness import PI_EXAMPLES
from tests.modes.helpers import RpcClient, write_hook, write_script

#: Another hook on the same channel: it writes what it hears to a file.
LISTENER = """
import json

def register(pi):
    pi.events.on("my:notification", lambda data: open(RECORD, "a").write(json.dumps(data) + "\\n"))
"""


async def test_what_is_emitted_is_heard(tmp_path: Path) -> None:
    record = tmp_path / "heard.jsonl"
    listener = write_hook(tmp_path / "listener.py", LISTENER.replace("RECORD", repr(str(record))))
    model = write_script(tmp_path / "script.json", [])
    args = ("--model", model, "--hook", str(PI_EXAMPLES / "event_bus.py"), "--hook", str(listener))
    async with RpcClient(*args, "--no-session", cwd=tmp_path) as client:
        await client.ok({"type": "prompt", "message": "/emit deploy done"})
        await client.ok({"type": "prompt", "message": "/emit"})
        assert await client.close_stdin() == 0
    notes = [
        m["message"]
        for m in client.seen
        if m["type"] == "extension_ui_request" and m["method"] == "notify"
    ]
    assert notes == [
        "Event from event-bus-example: Session started",
        "Event from /emit command: deploy done",
        "Event from /emit command: hello",
    ]
    heard = [json.loads(line) for line in record.read_text().splitlines()]
    assert [h["message"] for h in heard] == ["Session started", "deploy done", "hello"]
