"""pi's tool-override example: a hook's ``read`` tool replaces the built-in one.

The replacement logs every read to ``$HOOKLINE_HOME/read-access.log`` and
refuses sensitive files (``.env``, secrets and credentials files, anything under
``.ssh``, ``.aws`` or ``.gnupg``) with a message the model reads; other files it
reads itself, with ``offset``/``limit`` and a 50 KB cut. ``/read-log`` shows the
last 20 log lines. Overriding a tool this way serves auditing, access control or
sending calls elsewhere (a remote machine).

    hookline --hook examples/pi/tool_override.py
"""

from __future__ import annotations

import asyncio
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from hookline import CommandContext, HookAPI, HookContext, Tool, ToolResult, ToolUpdate
from hookline.core.paths import hookline_home

MAX_BYTES = 50 * 1024

BLOCKED_PATTERNS = [
    re.compile(r"\.env$"),
    re.compile(r"\.env\..+$"),
    re.compile(r"secrets?\.(json|yaml|yml|toml)$", re.IGNORECASE),
    re.compile(r"credentials?\.(json|yaml|yml|toml)$", re.IGNORECASE),
    re.compile(r"/\.ssh/"),
    re.compile(r"/\.aws/"),
    re.compile(r"/\.gnupg/"),
]


class ReadParams(BaseModel):
    path: str = Field(description="Path to the file to read (relative or absolute)")
    offset: int | None = Field(None, description="Line number to start reading from (1-indexed)")
    limit: int | None = Field(None, description="Maximum number of lines to read")


def log_file() -> Path:
    return hookline_home() / "read-access.log"


def is_blocked(path: str) -> bool:
    return any(pattern.search(path) for pattern in BLOCKED_PATTERNS)


def log_access(path: str, allowed: bool, reason: str | None = None) -> None:
    stamp = datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    status = "ALLOWED" if allowed else "BLOCKED"
    note = f" ({reason})" if reason else ""
    try:
        log_file().parent.mkdir(parents=True, exist_ok=True)
        with log_file().open("a", encoding="utf-8") as log:
            log.write(f"[{stamp}] {status}: {path}{note}\n")
    except OSError:
        pass  # a log that cannot be written never stops a read


def _text(text: str, **details: Any) -> ToolResult:
    return ToolResult([{"type": "text", "text": text}], details=details)


async def read(
    tool_call_id: str,
    params: dict[str, Any],
    signal: asyncio.Event | None,
    on_update: ToolUpdate | None,
    ctx: HookContext,
) -> ToolResult:
    args = ReadParams.model_validate(params)
    absolute = str(Path(ctx.cwd, args.path).resolve())
    if is_blocked(absolute):
        log_access(absolute, False, "matches blocked pattern")
        return _text(
            f'Access denied: "{args.path}" matches a blocked pattern (sensitive file). '
            "This tool blocks access to .env files, secrets, credentials, and "
            "SSH/AWS/GPG directories.",
            blocked=True,
        )
    log_access(absolute, True)
    try:
        lines = Path(absolute).read_text(encoding="utf-8").split("\n")
    except (OSError, UnicodeDecodeError) as exc:
        return _text(f"Error reading file: {exc}", error=True)
    start = max(0, args.offset - 1) if args.offset else 0
    end = start + args.limit if args.limit else len(lines)
    text = "\n".join(lines[start:end])
    if len(text.encode("utf-8")) > MAX_BYTES:
        text = f"{text[:MAX_BYTES]}\n\n[Output truncated at 50KB]"
    return _text(text, lines=len(lines))


def register(pi: HookAPI) -> None:
    pi.register_tool(
        Tool(
            name="read",  # a built-in's name: this tool replaces it
            label="read (audited)",
            description=(
                "Read the contents of a file with access logging. Some sensitive paths "
                "(.env, secrets, credentials) are blocked."
            ),
            parameters=ReadParams,
            execute=read,
        )
    )

    @pi.register_command("read-log", description="View the file access log")
    def read_log(args: str, ctx: CommandContext) -> None:
        try:
            lines = log_file().read_text(encoding="utf-8").strip().split("\n")[-20:]
        except OSError:
            ctx.ui.notify("No access log found", "info")
            return
        ctx.ui.notify("Recent file access:\n" + "\n".join(lines), "info")
