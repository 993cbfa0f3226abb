"""Running one ``mcp_tool`` hook: call a tool of a connected MCP server, read its text.

``{"type": "mcp_tool", "server": "policy", "tool": "check", "input": {"cmd":
"${tool_input.command}"}}`` calls ``check`` on the session's already
connected ``policy`` server (no process, no new connection). In ``input``,
every string value (nested ones too) has each ``${path}`` replaced by that
field of the hook's input JSON: a dotted path, list items by index
(``${tool_input.edits.0.file_path}``); a missing field becomes ``""``, a
non-string one its JSON text. The replaced text is not scanned again, so a
tool input that itself contains ``${...}`` stays as it is.

The tool's text blocks, joined by newlines (other blocks as ``[image]`` and
the like), are read exactly like a command hook's stdout on exit 0: a JSON
object gives the decision fields. As in Claude Code, a tool that reports an
error (``isError``), a failed call and a timeout (default 60 s, less on the
events that lower command hooks' defaults) are non-blocking errors;
``onFailure: "block"`` turns them into blocks. As for a command hook that
crashes after printing, an error whose text is a blocking decision (a deny,
``decision: "block"``, ``continue: false``) still blocks: fail closed.

One rule is stricter than Claude Code's: when the hook cannot reach its tool
at all (the server is not configured, was not started because its project is
not trusted, is not connected or died, or has no such tool), a ``PreToolUse``
hook blocks the tool call instead of letting it through. A policy gate that
names a server which is not there is a configuration mistake that must not
silently allow everything. On every other event this is a non-blocking error.

The settings layer sits below the MCP client, so the engine is handed a
``McpToolCaller`` (the session's MCP servers implement it) instead of
importing one.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from hookline.claude.config import HookDefinition
from hookline.claude.outcome import (
    Outcome,
    OutcomeKind,
    honour_printed_block,
    new_outcome,
    read_stdout,
)
from hookline.settings.models import McpToolHookConfig

#: Events on which a hook that cannot reach its server or tool blocks (fail closed).
FAIL_CLOSED_EVENTS: frozenset[str] = frozenset({"PreToolUse"})

_PLACEHOLDER = re.compile(r"\$\{([^{}]*)\}")


@dataclass(frozen=True, slots=True)
class McpToolReply:
    """A finished tool call: its text, and whether the server marked it an error."""

    text: str
    is_error: bool = False


class McpToolUnavailable(Exception):
    """The call never reached a tool: no such server, not connected, or no such tool."""


class McpToolCaller(Protocol):
    """Calls a tool of one of the session's MCP servers (``hookline.mcp.McpServers``)."""

    async def call_hook_tool(
        self, server: str, tool: str, arguments: dict[str, Any]
    ) -> McpToolReply:
        """The tool's reply; raises ``McpToolUnavailable`` when it cannot be called."""
        ...


def _field(payload: Mapping[str, Any], path: str) -> str:
    """The text of ``payload``'s field at dotted ``path``; ``""`` when missing."""
    value: Any = payload
    for part in path.strip().split("."):
        if isinstance(value, Mapping) and part in value:
            value = value[part]
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            return ""
    if value is None:
        return ""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def substitute(value: Any, payload: Mapping[str, Any]) -> Any:
    """``value`` with ``${path}`` in every string replaced from ``payload`` (one pass)."""
    if isinstance(value, str):
        return _PLACEHOLDER.sub(lambda m: _field(payload, m.group(1)), value)
    if isinstance(value, dict):
        return {k: substitute(v, payload) for k, v in value.items()}
    if isinstance(value, list):
        return [substitute(v, payload) for v in value]
    return value


async def run_mcp_tool_hook(
    hook: HookDefinition,
    payload: dict[str, Any],
    *,
    caller: McpToolCaller | None,
    timeout: float,
    signal: asyncio.Event | None = None,
    max_output: int = 1024 * 1024,
) -> Outcome:
    """Call the hook's tool with its substituted ``input``; always returns an Outcome."""
    spec = hook.spec
    assert isinstance(spec, McpToolHookConfig)
    started = time.monotonic()
    what = f"mcp_tool {spec.server}/{spec.tool}"

    def done(kind: OutcomeKind, reason: str | None) -> Outcome:
        out = new_outcome(hook, kind, reason)
        out.duration = time.monotonic() - started
        return out

    def unreachable(why: str) -> Outcome:
        if hook.event in FAIL_CLOSED_EVENTS:
            return done("blocking", f"{what}: {why}; {hook.event} fails closed: blocked")
        return done("non_blocking_error", f"{what}: {why}")

    if caller is None:
        return unreachable("no MCP servers are connected in this session")
    arguments = substitute(spec.input, payload)
    call = asyncio.ensure_future(caller.call_hook_tool(spec.server, spec.tool, arguments))
    outside = asyncio.ensure_future(signal.wait()) if signal is not None else None
    waiters: set[asyncio.Future[Any]] = {call} if outside is None else {call, outside}
    try:
        finished, _ = await asyncio.wait(waiters, timeout=timeout, return_when="FIRST_COMPLETED")
    except asyncio.CancelledError:
        call.cancel()
        raise
    finally:
        if outside is not None:
            outside.cancel()
    if call not in finished:
        call.cancel()
        with contextlib.suppress(BaseException):
            await call
        if outside is not None and outside in finished:
            return done("cancelled", "hook aborted")
        return done("non_blocking_error", f"{what} timed out after {timeout:g}s")
    try:
        reply = call.result()
    except McpToolUnavailable as exc:
        return unreachable(str(exc))
    except Exception as exc:
        return done("non_blocking_error", f"{what} failed: {type(exc).__name__}: {exc}")
    data = reply.text.encode("utf-8", errors="replace")
    text = data[:max_output].decode("utf-8", errors="ignore")
    if reply.is_error:
        said = reply.text.strip() or "MCP tool returned an error"
        out = done("non_blocking_error", f"{what}: {said}")
        out.stdout, out.stdout_bytes = text, len(data)
        honour_printed_block(out, text)  # a deny it gave before failing still counts
        return out
    out = done("success", None)
    out.exit_code = 0
    out.stdout, out.stdout_bytes = text, len(data)
    if len(data) > max_output:
        out.stdout_truncated = True
        out.notes.append(f"tool output cut: {len(data) - max_output} of {len(data)} bytes dropped")
    return read_stdout(out, text)
