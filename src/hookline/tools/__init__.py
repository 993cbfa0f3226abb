"""Built-in tools (bash, read, write, edit, ls, find, grep), truncation and tool wrapping.

Imports only ``hookline.core``. The agent calls ``hooked_tools(cwd, runner)``;
an embedding agent may compose ``builtin_tools``, ``resolve_tools`` and
``wrap_tools`` itself.
"""

from hookline.tools.bash import BashSpawnContext, BashSpawnHook, bash_timeouts, create_bash_tool
from hookline.tools.builtin import BUILTIN_TOOL_NAMES, builtin_tools, hooked_tools
from hookline.tools.details import (
    BashToolDetails,
    BashToolResultEvent,
    EditToolDetails,
    EditToolResultEvent,
    FindToolDetails,
    FindToolResultEvent,
    GrepToolDetails,
    GrepToolResultEvent,
    LsToolDetails,
    LsToolResultEvent,
    ReadToolDetails,
    ReadToolResultEvent,
    TypedToolResultEvent,
    WriteToolDetails,
    WriteToolResultEvent,
    is_bash_tool_result,
    is_edit_tool_result,
    is_find_tool_result,
    is_grep_tool_result,
    is_ls_tool_result,
    is_read_tool_result,
    is_write_tool_result,
)
from hookline.tools.edit import create_edit_tool, create_write_tool
from hookline.tools.leftovers import ToolLeftovers, cleanup_leftovers, default_leftovers
from hookline.tools.read import create_read_tool
from hookline.tools.search import create_find_tool, create_grep_tool, create_ls_tool
from hookline.tools.terminal import clean_terminal_output
from hookline.tools.truncation import (
    DEFAULT_MAX_BYTES,
    DEFAULT_MAX_LINES,
    GREP_MAX_LINE_LENGTH,
    TruncationResult,
    truncate_head,
    truncate_line,
    truncate_tail,
)
from hookline.tools.wrapper import error_text, resolve_tools, wrap_tool, wrap_tools

__all__ = [
    "BUILTIN_TOOL_NAMES",
    "DEFAULT_MAX_BYTES",
    "DEFAULT_MAX_LINES",
    "GREP_MAX_LINE_LENGTH",
    "BashSpawnContext",
    "BashSpawnHook",
    "BashToolDetails",
    "BashToolResultEvent",
    "EditToolDetails",
    "EditToolResultEvent",
    "FindToolDetails",
    "FindToolResultEvent",
    "GrepToolDetails",
    "GrepToolResultEvent",
    "LsToolDetails",
    "LsToolResultEvent",
    "ReadToolDetails",
    "ReadToolResultEvent",
    "ToolLeftovers",
    "TruncationResult",
    "TypedToolResultEvent",
    "WriteToolDetails",
    "WriteToolResultEvent",
    "bash_timeouts",
    "builtin_tools",
    "clean_terminal_output",
    "cleanup_leftovers",
    "create_bash_tool",
    "create_edit_tool",
    "create_find_tool",
    "create_grep_tool",
    "create_ls_tool",
    "create_read_tool",
    "create_write_tool",
    "default_leftovers",
    "error_text",
    "hooked_tools",
    "is_bash_tool_result",
    "is_edit_tool_result",
    "is_find_tool_result",
    "is_grep_tool_result",
    "is_ls_tool_result",
    "is_read_tool_result",
    "is_write_tool_result",
    "resolve_tools",
    "truncate_head",
    "truncate_line",
    "truncate_tail",
    "wrap_tool",
    "wrap_tools",
]
