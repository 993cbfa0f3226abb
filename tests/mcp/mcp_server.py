"""A real MCP server for the tests, written with the SDK: stdio, or HTTP with a port.

``python mcp_server.py`` serves stdio; ``python mcp_server.py PORT`` serves
streamable HTTP on 127.0.0.1:PORT. ``MCP_TEST_NAME`` names the server;
``note`` appends to the file ``MCP_TEST_LOG`` names.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import warnings

from mcp.server.mcpserver import Context, MCPServer
from mcp.types import CallToolResult, TextContent

app = MCPServer(os.environ.get("MCP_TEST_NAME", "demo"))


@app.tool()
def add(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b


@app.tool()
def echo(message: str) -> str:
    """Say the message back."""
    return message


@app.tool()
def boom() -> str:
    """Always fails."""
    raise ValueError("it broke")


@app.tool()
def die() -> str:
    """Ends the server process at once (a crash mid-session)."""
    print("server going down", file=sys.stderr, flush=True)
    os._exit(3)


@app.tool()
def secret_env() -> str:
    """The value of MCP_TEST_SECRET as the server sees it."""
    return os.environ.get("MCP_TEST_SECRET", "<unset>")


@app.tool()
def gate(command: str) -> str:
    """A PreToolUse policy for mcp_tool hooks: deny commands that remove files."""
    if "rm " in command:
        decision, reason = "deny", f"gate says no to {command!r}"
    else:
        decision, reason = "allow", "gate allows it"
    output = {"hookEventName": "PreToolUse", "permissionDecision": decision}
    return json.dumps({"hookSpecificOutput": {**output, "permissionDecisionReason": reason}})


@app.tool()
def deny_then_fail() -> CallToolResult:
    """Reports an error whose text is still a deny decision."""
    output = {"hookEventName": "PreToolUse", "permissionDecision": "deny"}
    decision = {"hookSpecificOutput": {**output, "permissionDecisionReason": "denied, then broke"}}
    return CallToolResult(
        content=[TextContent(type="text", text=json.dumps(decision))], is_error=True
    )


@app.tool()
def note(text: str, extra: str = "") -> str:
    """Append the arguments it got to MCP_TEST_LOG (one JSON line); says nothing."""
    with open(os.environ["MCP_TEST_LOG"], "a", encoding="utf-8") as log:
        log.write(json.dumps({"text": text, "extra": extra}) + "\n")
    return ""


@app.tool()
async def slow(seconds: float) -> str:
    """Answer after ``seconds``."""
    await asyncio.sleep(seconds)
    return "late answer"


@app.tool()
async def grow(ctx: Context) -> str:
    """Log a line, add the tool ``late`` and announce that the tool list changed."""

    def late(x: str) -> str:
        """A tool that exists only after ``grow``."""
        return f"late:{x}"

    app.add_tool(late, name="late")
    with warnings.catch_warnings():  # the logging capability is deprecated, still sent
        warnings.simplefilter("ignore")
        await ctx.log("info", "growing now")
    await ctx.notify_tools_changed()
    return "grown"


if __name__ == "__main__":
    if len(sys.argv) > 1:
        app.run("streamable-http", host="127.0.0.1", port=int(sys.argv[1]))
    else:
        app.run()
