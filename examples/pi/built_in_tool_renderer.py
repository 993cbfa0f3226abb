"""Built-in tool renderer: compact drawings of read, bash, edit and write calls.

pi's built-in-tool-renderer example in Python. Each tool is registered again under
its own name (which replaces the built-in), running the built-in's code for the
session's folder, with its own ``render_call`` and ``render_result``: read shows
the line count, bash ``done`` or ``exit N``, edit ``+added / -removed``, write
``Written``. Expanded (Ctrl+O) they show the first lines of the output or diff;
while a call runs (``is_partial``) they say ``Reading...``, ``Running...``...

    hookline --hook examples/pi/built_in_tool_renderer.py
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Mapping
from typing import Any

from hookline import (
    HookAPI,
    HookContext,
    Theme,
    Tool,
    ToolResult,
    ToolUpdate,
    create_bash_tool,
    create_edit_tool,
    create_read_tool,
    create_write_tool,
)

Renderer = Callable[..., str]


def delegating(create: Callable[[str], Tool], call: Renderer, result: Renderer) -> Tool:
    """The built-in made by ``create``, run for the session's folder, drawn by
    ``call`` and ``result``."""
    template = create(os.getcwd())
    made: dict[str, Tool] = {}

    async def execute(
        call_id: str,
        params: dict[str, Any],
        signal: asyncio.Event | None,
        on_update: ToolUpdate | None,
        ctx: HookContext,
    ) -> ToolResult:
        tool = made.setdefault(ctx.cwd, create(ctx.cwd))
        return await tool.execute(call_id, params, signal, on_update)

    meta = {**template.meta, "render_call": call, "render_result": result}
    return Tool(
        template.name, template.description, template.parameters, execute, template.label, meta
    )


def more(theme: Theme, lines: list[str], shown: int, what: str) -> str:
    """The first ``shown`` lines, dim, and how many more there are."""
    text = "".join("\n" + theme.fg("dim", line) for line in lines[:shown])
    if len(lines) > shown:
        text += "\n" + theme.fg("muted", f"... {len(lines) - shown} more {what}")
    return text


# -- read: the path and the line count ----------------------------------------


def read_call(args: Mapping[str, Any], theme: Theme) -> str:
    text = theme.fg("accent", str(args.get("path", "")))
    parts = [f"{key}={args[key]}" for key in ("offset", "limit") if args.get(key)]
    return text + (theme.fg("dim", f" ({', '.join(parts)})") if parts else "")


def read_result(text: str, options: Mapping[str, Any], theme: Theme) -> str:
    if options.get("is_partial"):
        return theme.fg("warning", "Reading...")
    details = options.get("details") or {}
    if details.get("mime_type"):
        return theme.fg("success", "Image loaded")
    lines = text.split("\n")
    shown = theme.fg("success", f"{len(lines)} lines")
    truncation = details.get("truncation") or {}
    if truncation.get("truncated"):
        shown += theme.fg("warning", f" (truncated from {truncation['total_lines']})")
    return shown + (more(theme, lines, 15, "lines") if options.get("expanded") else "")


# -- bash: the command and how it ended -------------------------------------------


def bash_call(args: Mapping[str, Any], theme: Theme) -> str:
    command = str(args.get("command", ""))
    text = theme.fg("accent", command if len(command) <= 80 else command[:77] + "...")
    if args.get("timeout"):
        text += theme.fg("dim", f" (timeout: {args['timeout']}s)")
    return text


def bash_result(text: str, options: Mapping[str, Any], theme: Theme) -> str:
    if options.get("is_partial"):
        return theme.fg("warning", "Running...")
    details = options.get("details") or {}
    code = details.get("exit_code")
    shown = theme.fg("success", "done") if code in (0, None) else theme.fg("error", f"exit {code}")
    lines = [line for line in text.split("\n") if line.strip()]
    shown += theme.fg("dim", f" ({len(lines)} lines)")
    if (details.get("truncation") or {}).get("truncated"):
        shown += theme.fg("warning", " [truncated]")
    return shown + (more(theme, text.split("\n"), 20, "lines") if options.get("expanded") else "")


# -- edit: the path and the diff's size -------------------------------------------


def path_call(name: str) -> Renderer:
    def call(args: Mapping[str, Any], theme: Theme) -> str:
        text = theme.fg("accent", str(args.get("path", "")))
        if name == "write":
            lines = len(str(args.get("content", "")).split("\n"))
            text += theme.fg("dim", f" ({lines} lines)")
        return text

    return call


def edit_result(text: str, options: Mapping[str, Any], theme: Theme) -> str:
    if options.get("is_partial"):
        return theme.fg("warning", "Editing...")
    if options.get("is_error"):
        return theme.fg("error", text.split("\n")[0])
    diff = (options.get("details") or {}).get("diff")
    if not diff:
        return theme.fg("success", "Applied")
    lines = diff.split("\n")
    added = sum(1 for line in lines if line.startswith("+") and not line.startswith("+++"))
    removed = sum(1 for line in lines if line.startswith("-") and not line.startswith("---"))
    shown = theme.fg("success", f"+{added}") + theme.fg("dim", " / ")
    shown += theme.fg("error", f"-{removed}")
    if options.get("expanded"):
        for line in lines[:30]:
            if line.startswith("+") and not line.startswith("+++"):
                shown += "\n" + theme.fg("success", line)
            elif line.startswith("-") and not line.startswith("---"):
                shown += "\n" + theme.fg("error", line)
            else:
                shown += "\n" + theme.fg("dim", line)
        if len(lines) > 30:
            shown += "\n" + theme.fg("muted", f"... {len(lines) - 30} more diff lines")
    return shown


# -- write: the path and its size -------------------------------------------------


def write_result(text: str, options: Mapping[str, Any], theme: Theme) -> str:
    if options.get("is_partial"):
        return theme.fg("warning", "Writing...")
    if options.get("is_error"):
        return theme.fg("error", text.split("\n")[0])
    return theme.fg("success", "Written")


def register(pi: HookAPI) -> None:
    pi.register_tool(delegating(create_read_tool, read_call, read_result))
    pi.register_tool(delegating(create_bash_tool, bash_call, bash_result))
    pi.register_tool(delegating(create_edit_tool, path_call("edit"), edit_result))
    pi.register_tool(delegating(create_write_tool, path_call("write"), write_result))
