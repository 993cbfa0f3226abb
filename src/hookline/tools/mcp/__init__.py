"""MCP servers under the same hooks: configuration and running servers as tools.

The ``mcp`` SDK is imported only when a server is started.
"""

from hookline.tools.mcp.config import (
    McpConfigError,
    McpServerConfig,
    load_servers,
    parse_server,
    parse_servers,
    tool_name,
)
from hookline.tools.mcp.servers import McpServers, ServerStatus

__all__ = [
    "McpConfigError",
    "McpServerConfig",
    "McpServers",
    "ServerStatus",
    "load_servers",
    "parse_server",
    "parse_servers",
    "tool_name",
]
