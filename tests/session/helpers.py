"""Message builders and a subprocess runner shared by the session tests."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

from hookline.core.messages import AssistantContent, AssistantMessage, ToolResultMessage


def assistant(text: str, *calls: tuple[str, str, dict[str, Any]]) -> AssistantMessage:
    """An assistant message with text and tool calls ``(id, name, arguments)``."""
    content: list[AssistantContent] = [{"type": "text", "text": text}]
    for call_id, name, args in calls:
        content.append({"type": "tool_call", "id": call_id, "name": name, "arguments": args})
    return {"role": "assistant", "content": content}


def tool_result(call_id: str, name: str, text: str) -> ToolResultMessage:
    return {
        "role": "tool",
        "tool_call_id": call_id,
        "tool_name": name,
        "content": [{"type": "text", "text": text}],
        "is_error": False,
    }


def spawn_python(code: str) -> subprocess.Popen[str]:
    """A real ``python -c`` child with this environment (HOME/HOOKLINE_HOME included)."""
    return subprocess.Popen(
        [sys.executable, "-c", code],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ),
    )
