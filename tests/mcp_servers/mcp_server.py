"""A real MCP server for the tests, written with the SDK: stdio, or HTTP with a port.

``python mcp_server.py`` serves stdio; ``python mcp_server.py PORT`` serves
streamable HTTP on 127.0.0.1:PORT. ``MCP_TEST_NAME`` names the server.
"""

from __future__ import annotations

import os
import sys

from mcp.server.mcpserver import MCPServer

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


if __name__ == "__main__":
    if len(sys.argv) > 1:
        app.run("streamable-http", host="127.0.0.1", port=int(sys.argv[1]))
    else:
        app.run()
