"""Minimal mode: tool calls shown as one line each, their output only when expanded.

pi's minimal-mode example in Python. The seven built-in tools are registered again
under their own names (running the built-ins' code for the session's folder) with
renderers that draw nothing under the call while collapsed (find, grep and ls say
how many files, matches or entries they found) and the whole output once Ctrl+O
expands tool output.

    hookline --hook examples/pi/minimal_mode.py      then  ctrl+o to toggle
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Mapping
from pathlib import Path
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
    create_find_tool,
    create_grep_tool,
    create_ls_tool,
    create_read_tool,
    create_write_tool,
)

Renderer = Callable[..., str]


def shorten_path(path: str) -> str:
    """``path`` with the home folder as ``~``."""
    home = str(Path.home())
    return "~" + path[len(home) :] if path.startswith(home) else path


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


# -- the calls, one line each ---------------------------------------------------


def path_call(args: Mapping[str, Any], theme: Theme) -> str:
    path = shorten_path(str(args.get("path") or ""))
    text = theme.fg("accent", path) if path else theme.fg("tool_output", "...")
    if args.get("offset") is not None or args.get("limit") is not None:
        start = int(args.get("offset") or 1)
        end = f"-{start + int(args['limit']) - 1}" if args.get("limit") is not None else ""
        text += theme.fg("warning", f":{start}{end}")
    return text


def write_call(args: Mapping[str, Any], theme: Theme) -> str:
    content = str(args.get("content") or "")
    lines = theme.fg("muted", f" ({len(content.split(chr(10)))} lines)") if content else ""
    return path_call({"path": args.get("path")}, theme) + lines


def bash_call(args: Mapping[str, Any], theme: Theme) -> str:
    text = theme.fg("tool_title", theme.bold(f"$ {args.get('command') or '...'}"))
    if args.get("timeout"):
        text += theme.fg("muted", f" (timeout {args['timeout']}s)")
    return text


def search_call(args: Mapping[str, Any], theme: Theme) -> str:
    text = theme.fg("accent", str(args.get("pattern") or ""))
    text += theme.fg("tool_output", f" in {shorten_path(str(args.get('path') or '.'))}")
    if args.get("limit") is not None:
        text += theme.fg("tool_output", f" (limit {args['limit']})")
    return text


def ls_call(args: Mapping[str, Any], theme: Theme) -> str:
    text = theme.fg("accent", shorten_path(str(args.get("path") or ".")))
    if args.get("limit") is not None:
        text += theme.fg("tool_output", f" (limit {args['limit']})")
    return text


# -- the results: nothing (or a count) collapsed, everything expanded ---------------


def whole(text: str, theme: Theme, color: str = "tool_output") -> str:
    return "\n".join(theme.fg(color, line) for line in text.strip().split("\n"))


def silent_result(text: str, options: Mapping[str, Any], theme: Theme) -> str:
    if not options.get("expanded") or not text.strip():
        return ""
    return whole(text, theme, "error" if options.get("is_error") else "tool_output")


def counting(noun: str) -> Renderer:
    """Collapsed: ``→ N <noun>``; expanded: the output."""

    def result(text: str, options: Mapping[str, Any], theme: Theme) -> str:
        if options.get("expanded"):
            return whole(text, theme)
        count = len([line for line in text.strip().split("\n") if line])
        return theme.fg("muted", f"→ {count} {noun}") if count else ""

    return result


def register(pi: HookAPI) -> None:
    for create, call, result in (
        (create_read_tool, path_call, silent_result),
        (create_bash_tool, bash_call, silent_result),
        (create_write_tool, write_call, silent_result),
        (create_edit_tool, path_call, silent_result),
        (create_find_tool, search_call, counting("files")),
        (create_grep_tool, search_call, counting("matches")),
        (create_ls_tool, ls_call, counting("entries")),
    ):
        pi.register_tool(delegating(create, call, result))
