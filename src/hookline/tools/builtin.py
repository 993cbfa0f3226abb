"""The built-in tool set, and the one-call set-up an agent needs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hookline.core.runner import HookRunner
from hookline.core.tool import Tool
from hookline.core.wrapping import resolve_tools, wrap_tools
from hookline.tools.bash import BashSpawnHook, create_bash_tool
from hookline.tools.edit import create_edit_tool, create_write_tool
from hookline.tools.leftovers import ToolLeftovers
from hookline.tools.read import create_read_tool
from hookline.tools.search import HidePath, create_find_tool, create_grep_tool, create_ls_tool

if TYPE_CHECKING:
    from hookline.sandbox.launcher import Sandbox
    from hookline.sandbox.state import SandboxState

#: The built-in tool names, in the order the model is shown them.
BUILTIN_TOOL_NAMES = ("read", "bash", "edit", "write", "grep", "find", "ls")


def builtin_tools(
    cwd: str,
    *,
    spawn_hook: BashSpawnHook | None = None,
    hide: HidePath | None = None,
    leftovers: ToolLeftovers | None = None,
    sandbox: SandboxState | Sandbox | None = None,
) -> list[Tool]:
    """Every built-in tool for ``cwd``, unwrapped.

    ``hide`` (absolute path → True) keeps paths out of what ``grep``, ``find``
    and ``ls`` show, e.g. files a Read deny rule covers. ``leftovers`` tracks
    what bash calls leave behind (background jobs, spill files) for the owner
    to end with ``close()``; default: a process-wide one closed at exit.
    ``sandbox`` runs bash calls under it (``hookline.sandbox``; a ``SandboxState`` is
    read at each call, so its mode may change during the session).
    """
    return [
        create_read_tool(cwd),
        create_bash_tool(cwd, spawn_hook, leftovers=leftovers, sandbox=sandbox),
        create_edit_tool(cwd),
        create_write_tool(cwd),
        create_grep_tool(cwd, hide=hide),
        create_find_tool(cwd, hide=hide),
        create_ls_tool(cwd, hide=hide),
    ]


def hooked_tools(
    cwd: str, runner: HookRunner, *, names: tuple[str, ...] | None = None
) -> list[Tool]:
    """What an agent hands the model: built-ins (optionally only ``names``), hook tools
    applied over them, every one wrapped with the runner's hooks."""
    tools = builtin_tools(cwd)
    if names is not None:
        tools = [t for t in tools if t.name in names]
    return wrap_tools(resolve_tools(tools, runner), runner)
