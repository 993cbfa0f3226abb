"""MCP servers under the same hooks: configuration and running servers as tools.

``config`` reads ``mcpServers`` as Claude Code users write it; ``servers``
(``McpServers``) runs them for a session and offers their tools as ``Tool``
objects, which go through the same pipeline as the built-ins. It also answers
``mcp_tool`` settings hooks (``claude.mcp_hook.McpToolCaller``).

The ``mcp`` SDK is imported only when a server is started; the client side
(``McpServers``) only when a name of it is first read.
"""

from typing import TYPE_CHECKING

from hookline._lazy import lazy_exports

if TYPE_CHECKING:
    from hookline.mcp.config import (
        McpConfigError,
        McpServerConfig,
        load_servers,
        parse_server,
        parse_servers,
        tool_name,
    )
    from hookline.mcp.servers import McpServers, ServerStatus

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
    "McpConfigError": "hookline.mcp.config",
    "McpServerConfig": "hookline.mcp.config",
    "McpServers": "hookline.mcp.servers",
    "ServerStatus": "hookline.mcp.servers",
    "load_servers": "hookline.mcp.config",
    "parse_server": "hookline.mcp.config",
    "parse_servers": "hookline.mcp.config",
    "tool_name": "hookline.mcp.config",
}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
