"""MCP servers under the same hooks: configuration and running servers as tools.

The ``mcp`` SDK is imported only when a server is started; the client side
(``McpServers``) only when a name of it is first read.
"""

from typing import TYPE_CHECKING

from hookline._lazy import lazy_exports

if TYPE_CHECKING:
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

_EXPORTS = {
    "McpConfigError": "hookline.tools.mcp.config",
    "McpServerConfig": "hookline.tools.mcp.config",
    "McpServers": "hookline.tools.mcp.servers",
    "ServerStatus": "hookline.tools.mcp.servers",
    "load_servers": "hookline.tools.mcp.config",
    "parse_server": "hookline.tools.mcp.config",
    "parse_servers": "hookline.tools.mcp.config",
    "tool_name": "hookline.tools.mcp.config",
}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
