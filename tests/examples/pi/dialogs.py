"""An RPC host that answers a command's dialogs, for the ports whose behaviour is a dialog."""

from __future__ import annotations

from typing import Any

from tests.modes.helpers import Line, RpcClient


async def answering(client: RpcClient, command: Line, *answers: Any) -> tuple[Any, list[Line]]:
    """Send ``command`` and answer its dialogs with ``answers`` in order (a confirm's bool,
    a select's option); its response's data and the dialogs and notifications seen."""
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


def said(lines: list[Line]) -> list[str]:
    """Each dialog's title or notification's message."""
    return [str(m.get("title") or m.get("message")) for m in lines]
