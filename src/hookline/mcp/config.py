"""MCP server configuration as Claude Code users already write it.

Servers come from ``mcpServers`` in ``~/.claude.json`` (user scope), in the
merged settings (trusted sources only: the caller decides) and in the project's
``.mcp.json`` (only once the project is trusted: a server is a program that
runs). Each entry is ``{"command", "args", "env"}`` (stdio, the default) or
``{"type": "http", "url", "headers"}`` (streamable HTTP). ``${VAR}`` and
``${VAR:-default}`` expand from the environment in every string. A bad entry is
reported with its file and key and skipped; the others still load.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

#: Characters Claude Code keeps in a server's part of ``mcp__<server>__<tool>``.
_NAME_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")
#: A tool whose full name is longer is left out, as Claude Code does.
MAX_TOOL_NAME = 128
_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")


class McpConfigError(ValueError):
    """One server entry that cannot be used; the message says where and why."""


@dataclass(frozen=True, slots=True)
class McpServerConfig:
    """One configured server. ``origin`` names the file it came from."""

    name: str
    transport: Literal["stdio", "http"]
    origin: str
    command: str = ""
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    url: str = ""
    headers: Mapping[str, str] = field(default_factory=dict)

    @property
    def prefix(self) -> str:
        """``mcp__<server>__``: what every tool of this server is named with."""
        return f"mcp__{_NAME_UNSAFE.sub('_', self.name)}__"


def tool_name(server: McpServerConfig, tool: str) -> str | None:
    """The hookline name of ``tool`` on ``server``, or None when it is too long to use."""
    name = server.prefix + tool
    return name if len(name) <= MAX_TOOL_NAME else None


def _expand(value: str, where: str, environ: Mapping[str, str]) -> str:
    def one(match: re.Match[str]) -> str:
        name, default = match.group(1), match.group(2)
        if name in environ:
            return environ[name]
        if default is not None:
            return default
        raise McpConfigError(f"{where}: ${{{name}}} is not set (set it, or write ${{{name}:-x}})")

    return _VAR.sub(one, value)


def _strings(value: Any, where: str, environ: Mapping[str, str]) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise McpConfigError(f"{where}: expected a list of strings")
    return tuple(_expand(v, where, environ) for v in value)


def _table(value: Any, where: str, environ: Mapping[str, str]) -> dict[str, str]:
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise McpConfigError(f"{where}: expected an object of strings")
    return {str(k): _expand(v, f"{where}.{k}", environ) for k, v in value.items()}


def parse_server(
    name: str, entry: Any, origin: str, environ: Mapping[str, str] | None = None
) -> McpServerConfig:
    """One ``mcpServers`` entry; raises ``McpConfigError`` naming ``origin`` and the key."""
    env = os.environ if environ is None else environ
    where = f"{origin}: mcpServers.{name}"
    if not isinstance(entry, dict):
        raise McpConfigError(f"{where}: expected an object")
    kind = entry.get("type", "stdio" if "command" in entry else None)
    if kind == "stdio":
        command = entry.get("command")
        if not isinstance(command, str) or not command.strip():
            raise McpConfigError(f"{where}.command: a stdio server needs a command")
        return McpServerConfig(
            name,
            "stdio",
            origin,
            command=_expand(command, f"{where}.command", env),
            args=_strings(entry.get("args", []), f"{where}.args", env),
            env=_table(entry.get("env", {}), f"{where}.env", env),
        )
    if kind in ("http", "streamable-http"):
        url = entry.get("url")
        if not isinstance(url, str) or not url.startswith(("http://", "https://")):
            raise McpConfigError(f"{where}.url: an http server needs an http(s):// url")
        return McpServerConfig(
            name,
            "http",
            origin,
            url=_expand(url, f"{where}.url", env),
            headers=_table(entry.get("headers", {}), f"{where}.headers", env),
        )
    if kind == "sse":
        raise McpConfigError(f"{where}.type: the sse transport is not supported; use http")
    raise McpConfigError(f"{where}.type: expected stdio or http, got {kind!r}")


def parse_servers(
    table: Any, origin: str, environ: Mapping[str, str] | None = None
) -> tuple[list[McpServerConfig], list[str]]:
    """Every usable server of an ``mcpServers`` object, and a problem line per bad one."""
    if table is None:
        return [], []
    if not isinstance(table, dict):
        return [], [f"{origin}: mcpServers: expected an object of servers"]
    servers, problems = [], []
    for name, entry in table.items():
        try:
            servers.append(parse_server(str(name), entry, origin, environ))
        except McpConfigError as exc:
            problems.append(str(exc))
    return servers, problems


def _read_json(path: Path) -> tuple[Any, str | None]:
    try:
        return json.loads(path.read_text(encoding="utf-8")), None
    except FileNotFoundError:
        return None, None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        return None, f"{path}: cannot be read as JSON ({exc}); its MCP servers are skipped"


def load_servers(
    cwd: str,
    *,
    project_trusted: bool,
    settings_servers: Any = None,
    settings_origin: str = "settings",
    disabled: frozenset[str] = frozenset(),
    home: str | None = None,
) -> tuple[list[McpServerConfig], list[str]]:
    """The servers to start for a session in ``cwd``: user, settings, then project scope.

    A later scope's server of the same name replaces an earlier one (the project
    file is the most specific, as in Claude Code). ``disabled`` names project
    servers the settings turned off (``disabledMcpjsonServers``).
    """
    found: dict[str, McpServerConfig] = {}
    problems: list[str] = []
    user_file = Path(home or os.path.expanduser("~")) / ".claude.json"
    data, problem = _read_json(user_file)
    problems += [problem] if problem else []
    if isinstance(data, dict):
        servers, bad = parse_servers(data.get("mcpServers"), str(user_file))
        found.update((s.name, s) for s in servers)
        problems += bad
    servers, bad = parse_servers(settings_servers, settings_origin)
    found.update((s.name, s) for s in servers)
    problems += bad
    project_file = Path(cwd) / ".mcp.json"
    if project_trusted:
        data, problem = _read_json(project_file)
        problems += [problem] if problem else []
        if isinstance(data, dict):
            servers, bad = parse_servers(data.get("mcpServers"), str(project_file))
            found.update((s.name, s) for s in servers if s.name not in disabled)
            problems += bad
    elif project_file.is_file():  # said, not silently off: a server may be a guard too
        problems.append(
            f"{project_file}: MCP servers skipped: project {cwd} is not trusted; "
            f"run `hookline trust {cwd}` to start them"
        )
    return list(found.values()), problems
