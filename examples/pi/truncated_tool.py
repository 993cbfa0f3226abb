"""Truncated tool: an ``rg`` tool that cuts its output the way the built-ins do.

pi's truncated-tool example in Python. A tool's output goes into the model's
context, so it must be cut: ``truncate_head`` keeps the first 2000 lines or 50 KB
(whichever comes first), the whole output is saved to a temporary file, and a
note tells the model what was left out and where it is. ripgrep searches
(``grep -rn`` where ripgrep is not installed).

The tool draws itself in the terminal app: ``render_call`` shows the pattern, path
and glob; ``render_result`` shows ``Searching...`` while it runs (``is_partial``),
then the number of matches (and ``(truncated)``), and, expanded with Ctrl+O, the
first 20 lines and the full output's file.

    hookline --hook examples/pi/truncated_tool.py
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from hookline import HookAPI, HookContext, Theme, Tool, ToolError, ToolResult
from hookline.tools import DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, truncate_head
from hookline.tools.truncation import format_size

PARAMETERS = {
    "type": "object",
    "properties": {
        "pattern": {"type": "string", "description": "Search pattern (regex)"},
        "path": {
            "type": "string",
            "description": "Directory to search (default: current directory)",
        },
        "glob": {"type": "string", "description": "File glob pattern, e.g. '*.py'"},
    },
    "required": ["pattern"],
}
#: Lines of the output shown expanded.
EXPANDED_LINES = 20


def search_command(pattern: str, path: str, glob: str | None) -> list[str]:
    """ripgrep's arguments, or grep's with the same output where ripgrep is missing."""
    globs = ["--glob", glob] if glob else []
    if shutil.which("rg"):
        return ["rg", "--line-number", "--color=never", *globs, "--", pattern, path]
    return ["grep", "-rnE", *([f"--include={glob}"] if glob else []), "--", pattern, path]


async def execute(
    call_id: str,
    params: dict[str, Any],
    signal: asyncio.Event | None,
    on_update: Any,
    ctx: HookContext,
) -> ToolResult:
    pattern, path, glob = params["pattern"], params.get("path") or ".", params.get("glob")
    details: dict[str, Any] = {"pattern": pattern, "path": path, "glob": glob, "match_count": 0}
    process = await asyncio.create_subprocess_exec(
        *search_command(pattern, path, glob),
        cwd=ctx.cwd,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    stdout, stderr = await process.communicate()
    if process.returncode not in (0, 1):  # 1: no match
        raise ToolError(f"search failed: {stderr.decode(errors='replace').strip()}")
    output = stdout.decode(errors="replace")
    if not output.strip():
        return ToolResult([{"type": "text", "text": "No matches found"}], details)

    text, truncation = truncate_head(output, DEFAULT_MAX_LINES, DEFAULT_MAX_BYTES)
    details["match_count"] = sum(1 for line in output.split("\n") if line.strip())
    if truncation["truncated"]:
        saved = Path(tempfile.mkdtemp(prefix="hookline-rg-")) / "output.txt"
        saved.write_text(output, encoding="utf-8")
        details["truncation"], details["full_output_path"] = truncation, str(saved)
        kept_lines, total_lines = truncation["output_lines"], truncation["total_lines"]
        kept_bytes, total_bytes = truncation["output_bytes"], truncation["total_bytes"]
        text += (
            f"\n\n[Output truncated: showing {kept_lines} of {total_lines} lines"
            f" ({format_size(kept_bytes)} of {format_size(total_bytes)})."
            f" {total_lines - kept_lines} lines ({format_size(total_bytes - kept_bytes)})"
            f" omitted. Full output saved to: {saved}]"
        )
    return ToolResult([{"type": "text", "text": text}], details)


def render_call(args: Mapping[str, Any], theme: Theme) -> str:
    text = theme.fg("accent", f'"{args.get("pattern", "")}"')
    if args.get("path"):
        text += theme.fg("muted", f" in {args['path']}")
    if args.get("glob"):
        text += theme.fg("dim", f" --glob {args['glob']}")
    return text


def render_result(text: str, options: Mapping[str, Any], theme: Theme) -> str:
    if options.get("is_partial"):
        return theme.fg("warning", "Searching...")
    details = options.get("details") or {}
    if not details.get("match_count"):
        return theme.fg("dim", "No matches found")
    shown = theme.fg("success", f"{details['match_count']} matches")
    if details.get("truncation", {}).get("truncated"):
        shown += theme.fg("warning", " (truncated)")
    if options.get("expanded"):
        lines = text.split("\n")
        shown += "".join("\n" + theme.fg("dim", line) for line in lines[:EXPANDED_LINES])
        if len(lines) > EXPANDED_LINES:
            shown += "\n" + theme.fg("muted", "... (use read tool to see full output)")
        if details.get("full_output_path"):
            shown += "\n" + theme.fg("dim", f"Full output: {details['full_output_path']}")
    return shown


def register(pi: HookAPI) -> None:
    pi.register_tool(
        Tool(
            "rg",
            "Search file contents using ripgrep. Output is truncated to "
            f"{DEFAULT_MAX_LINES} lines or {format_size(DEFAULT_MAX_BYTES)} (whichever is hit "
            "first). If truncated, full output is saved to a temp file.",
            PARAMETERS,
            execute,
            label="ripgrep",
            meta={"render_call": render_call, "render_result": render_result},
        )
    )
