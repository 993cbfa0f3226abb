"""``tool_response`` in the shape of Claude Code's tool results.

Hook scripts written for Claude Code read ``tool_response.stdout`` after Bash,
``tool_response.filePath`` after Write/Edit and ``tool_response.file.content``
after Read. hookline's built-in tools return text plus typed ``details``; this
module rebuilds Claude's objects from both. Differences, kept small and
stated: Bash's stderr is merged into ``stdout`` (hookline's tool captures one
stream), Write/Edit carry no ``originalFile``, and tools Claude Code does not
have (or MCP and hook tools) get ``{"output": text}``.

The other way, :func:`bash_replacement` reads a PostToolUse hook's
``updatedToolOutput`` for Bash as Claude Code does: only an object in Bash's
own shape replaces the output; anything else (a plain string too) is ignored.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Any

#: The text hookline's bash tool shows the model for a command with no output.
_NO_OUTPUT = "(no output)"
#: Read's continuation notices, after the file text (``[Showing lines 1-10 of 99. ...]``).
_READ_NOTICE = re.compile(r"\n\n\[(?:Showing lines|Line \d+ is longer|\d+ more lines|More lines)")
_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
#: Files larger than this are not re-read to count ``totalLines``.
_COUNT_LIMIT = 16 * 1024 * 1024
#: What Claude Code adds to an interrupted Bash result (which is then an error).
_INTERRUPTED = "<error>Command was aborted before completion</error>"


@dataclass(frozen=True, slots=True)
class BashReplacement:
    """A Bash output a hook put in place of the real one: the text the model sees."""

    text: str
    is_error: bool


def bash_replacement(value: Any) -> BashReplacement | None:
    """``updatedToolOutput`` for Bash, or ``None`` when it is not in Bash's shape.

    Claude Code checks the value against Bash's output schema (``stdout`` and
    ``stderr`` strings, ``interrupted`` a boolean; ``isImage`` optional) and
    ignores anything else; the model then sees stdout and stderr on their own
    lines, and an interrupted command as an error.
    """
    if not isinstance(value, dict):
        return None
    stdout, stderr, interrupted = (value.get(k) for k in ("stdout", "stderr", "interrupted"))
    image = value.get("isImage", False)
    if not (isinstance(stdout, str) and isinstance(stderr, str)):
        return None
    if not (isinstance(interrupted, bool) and isinstance(image, bool)):
        return None
    parts = [p for p in (stdout, stderr) if p]
    if interrupted:
        parts.append(_INTERRUPTED)
    return BashReplacement("\n".join(parts), interrupted)


def shape_response(
    tool: str, data: dict[str, Any], text: str, details: Any, cwd: str | None
) -> dict[str, Any]:
    """Claude's ``tool_response`` for hookline tool ``tool`` (inputs in hookline's keys)."""
    info: dict[str, Any] = details if isinstance(details, dict) else {}
    path = str(info.get("path") or _absolute(cwd, data.get("path")))
    if tool == "bash":
        return {
            "stdout": "" if text == _NO_OUTPUT else text,
            "stderr": "",
            "interrupted": bool(info.get("timed_out") or info.get("aborted")),
            "isImage": False,
        }
    if tool == "write":
        return {
            "type": "create" if info.get("created", True) else "update",
            "filePath": path,
            "content": data.get("content", ""),
            "structuredPatch": [],
        }
    if tool == "edit":
        return {
            "filePath": path,
            "oldString": data.get("oldText", ""),
            "newString": data.get("newText", ""),
            "structuredPatch": structured_patch(str(info.get("diff") or "")),
            "userModified": False,
            "replaceAll": False,
        }
    if tool == "read":
        return _read(path, data, text, info)
    if tool == "find":
        names = [line for line in text.splitlines() if line and not line.startswith("[")]
        return {"filenames": names, "numFiles": len(names), "truncated": "truncation" in info}
    if tool == "grep":
        return {"mode": "content", "content": text, "numLines": len(text.splitlines())}
    return {"output": text}


def _read(path: str, data: dict[str, Any], text: str, info: dict[str, Any]) -> dict[str, Any]:
    if info.get("mime_type"):
        return {"type": "image", "file": {"filePath": path, "type": info["mime_type"]}}
    content = "" if text == "(empty file)" else text
    cut = _READ_NOTICE.search(content)
    if cut:
        content = content[: cut.start()]
    lines = content.count("\n") + 1 if content else 0
    start = data.get("offset") if isinstance(data.get("offset"), int) else 1
    return {
        "type": "text",
        "file": {
            "filePath": path,
            "content": content,
            "numLines": lines,
            "startLine": start,
            "totalLines": _count_lines(path, fallback=lines),
        },
    }


def _count_lines(path: str, fallback: int) -> int:
    try:
        if os.path.getsize(path) > _COUNT_LIMIT:
            return fallback
        with open(path, "rb") as f:
            body = f.read()
    except OSError:
        return fallback
    if not body:
        return 0
    return body.count(b"\n") + (0 if body.endswith(b"\n") else 1)


def structured_patch(diff: str) -> list[dict[str, Any]]:
    """A unified diff as Claude's ``structuredPatch`` hunks."""
    hunks: list[dict[str, Any]] = []
    for line in diff.splitlines():
        m = _HUNK.match(line)
        if m:
            old_start, old_n, new_start, new_n = m.groups()
            hunks.append(
                {
                    "oldStart": int(old_start),
                    "oldLines": int(old_n) if old_n is not None else 1,
                    "newStart": int(new_start),
                    "newLines": int(new_n) if new_n is not None else 1,
                    "lines": [],
                }
            )
        elif hunks and line[:1] in (" ", "-", "+"):  # file headers come before the first hunk
            hunks[-1]["lines"].append(line)
    return hunks


def _absolute(cwd: str | None, path: Any) -> str:
    if not isinstance(path, str) or not path:
        return ""
    return os.path.abspath(os.path.join(cwd or ".", os.path.expanduser(path)))
