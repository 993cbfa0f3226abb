"""The demo's MCP server (stdio, written with the MCP SDK): looks up a project setting.

It answers from ``config.env`` in its working directory, secrets included — which is
why the API-key redactor's ``tool_result`` hook runs on MCP tools as on built-ins.
"""

from __future__ import annotations

from pathlib import Path

from mcp.server.mcpserver import MCPServer

app = MCPServer("settings")


@app.tool()
def lookup(name: str) -> str:
    """The line of config.env that sets NAME."""
    for line in Path("config.env").read_text().splitlines():
        if line.startswith(f"{name}="):
            return line
    return f"{name} is not set"


if __name__ == "__main__":
    app.run()
