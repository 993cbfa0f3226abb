"""pi's RPC shapes: what a command's fields must hold, what a response and a dialog answer are.

A command is the object ``wire.parse_command`` decoded; each handler reads its
fields through the readers here, so a field of the wrong type is always the
same ``ValueError`` (the server turns it into an error response). The
answers to dialogs are checked here too: no malformed answer counts as a yes.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Literal, NotRequired, TypedDict

from hookline.core.messages import Content

#: A command as read: ``{"type": ..., "id"?: ..., <its fields, camelCase>}``.
Request = dict[str, Any]


class Response(TypedDict):
    """The one answer to a command (``prompt`` may get a second, error one)."""

    type: Literal["response"]
    command: str
    success: bool
    id: NotRequired[str | int]
    data: NotRequired[Any]
    error: NotRequired[str]


class DialogAnswer(TypedDict, total=False):
    """What a dialog resolves to: cancelled, a confirm's yes or no, or a value."""

    cancelled: bool
    confirmed: bool
    value: str


def response(command: str, request_id: Any, data: Any = None, error: str | None = None) -> Response:
    """The response to ``command``: ``data`` when it succeeded, else ``error``."""
    payload: Response = {"type": "response", "command": command, "success": error is None}
    if request_id is not None:
        payload["id"] = request_id
    if error is None:
        if data is not None:
            payload["data"] = data
    else:
        payload["error"] = error
    return payload


def string(request: Request, key: str) -> str:
    """The string field ``key``; missing or of another type is an error."""
    value = request.get(key)
    if not isinstance(value, str):
        raise ValueError(f'"{key}" must be a string')
    return value


def optional_string(request: Request, key: str) -> str | None:
    """The string field ``key``, or ``None`` when it is missing or ``null``."""
    value = request.get(key)
    if value is not None and not isinstance(value, str):
        raise ValueError(f'"{key}" must be a string')
    return value


def boolean(request: Request, key: str) -> bool:
    """The field ``key``, which must be ``true`` or ``false`` (never a truthy value)."""
    value = request.get(key)
    if not isinstance(value, bool):
        raise ValueError(f'"{key}" must be true or false')
    return value


def image_blocks(request: Request) -> list[Content]:
    """pi's ``images`` (``{"type": "image", "data", "mimeType"}``) as content blocks."""
    raw = request.get("images") or []
    if not isinstance(raw, list):
        raise ValueError('"images" must be an array of image objects')
    blocks: list[Content] = []
    for i, image in enumerate(raw):
        if not (
            isinstance(image, dict)
            and isinstance(image.get("data"), str)
            and isinstance(image.get("mimeType"), str)
        ):
            raise ValueError(f'"images"[{i}] needs string "data" and "mimeType"')
        blocks.append({"type": "image", "data": image["data"], "mime_type": image["mimeType"]})
    return blocks


def ui_answer(method: str, options: Sequence[str], message: Request) -> DialogAnswer:
    """A host's ``extension_ui_response`` checked against the dialog it answers.

    Returns what the dialog resolves to: ``{"cancelled": True}``,
    ``{"confirmed": bool}`` or ``{"value": str}``. Anything else raises
    ``ValueError``: ``"false"``, ``1`` or a missing field is never a yes.
    """
    cancelled = message.get("cancelled", False)
    if not isinstance(cancelled, bool):
        raise ValueError(f'"cancelled" must be true or false, not {_kind(cancelled)}')
    if cancelled:
        return {"cancelled": True}
    if method == "confirm":
        if "confirmed" not in message:
            raise ValueError(
                'a confirm answer needs "confirmed": true or false (or "cancelled": true)'
            )
        confirmed = message["confirmed"]
        if not isinstance(confirmed, bool):
            raise ValueError(f'"confirmed" must be true or false, not {_kind(confirmed)}')
        return {"confirmed": confirmed}
    if "value" not in message:
        raise ValueError(f'a {method} answer needs a string "value" (or "cancelled": true)')
    value = message["value"]
    if not isinstance(value, str):
        raise ValueError(f'"value" must be a string, not {_kind(value)}')
    if method == "select" and value not in options:
        shown = ", ".join(json.dumps(o) for o in options[:20])
        raise ValueError(f'"value" must be one of the options: {shown}')
    return {"value": value}


def _kind(value: Any) -> str:
    """``"false"`` → ``the string "false"``: what the host sent, in words."""
    if isinstance(value, str):
        return f"the string {json.dumps(value[:40])}"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return json.dumps(value)  # null, a bool or a number
