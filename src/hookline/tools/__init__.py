"""The built-in tools (read, bash, edit, write, grep, find, ls), their parameter
models (``ReadParams``, ...), their typed result details and truncation.

``builtin_tools(cwd)`` makes the set, unwrapped; ``hooked_tools(cwd, runner)``
is that set with hook tools applied and each wrapped in the tool-call pipeline
(``hookline.core.wrapping``), for an embedding agent. The reference agent runs
the built-ins through ``hookline.core.pipeline`` itself. Imports only
``hookline.core`` (and ``hookline.sandbox`` for bash's sandbox).
"""

from typing import TYPE_CHECKING

from hookline._lazy import lazy_exports

if TYPE_CHECKING:
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
    from hookline.tools.operations import (
        BashOperations,
        EditOperations,
        ReadOperations,
        WriteOperations,
    )
    from hookline.tools.params import (
        BUILTIN_PARAMS,
        BashParams,
        EditParams,
        FindParams,
        GrepParams,
        LsParams,
        ReadParams,
        ToolParams,
        WriteParams,
    )
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

__all__ = [
    "BUILTIN_PARAMS",
    "BUILTIN_TOOL_NAMES",
    "DEFAULT_MAX_BYTES",
    "DEFAULT_MAX_LINES",
    "GREP_MAX_LINE_LENGTH",
    "BashOperations",
    "BashParams",
    "BashSpawnContext",
    "BashSpawnHook",
    "BashToolDetails",
    "BashToolResultEvent",
    "EditOperations",
    "EditParams",
    "EditToolDetails",
    "EditToolResultEvent",
    "FindParams",
    "FindToolDetails",
    "FindToolResultEvent",
    "GrepParams",
    "GrepToolDetails",
    "GrepToolResultEvent",
    "LsParams",
    "LsToolDetails",
    "LsToolResultEvent",
    "ReadOperations",
    "ReadParams",
    "ReadToolDetails",
    "ReadToolResultEvent",
    "ToolLeftovers",
    "ToolParams",
    "TruncationResult",
    "TypedToolResultEvent",
    "WriteOperations",
    "WriteParams",
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
    "hooked_tools",
    "is_bash_tool_result",
    "is_edit_tool_result",
    "is_find_tool_result",
    "is_grep_tool_result",
    "is_ls_tool_result",
    "is_read_tool_result",
    "is_write_tool_result",
    "truncate_head",
    "truncate_line",
    "truncate_tail",
]

#: Public name → the module that defines it, imported when the name is first read.
_EXPORTS = {
    "WriteOperations": "hookline.tools.operations",
    "ReadOperations": "hookline.tools.operations",
    "EditOperations": "hookline.tools.operations",
    "BashOperations": "hookline.tools.operations",
    "clean_terminal_output": "hookline.tools.terminal",
    "bash_timeouts": "hookline.tools.bash",
    "ToolLeftovers": "hookline.tools.leftovers",
    "cleanup_leftovers": "hookline.tools.leftovers",
    "default_leftovers": "hookline.tools.leftovers",
    "BUILTIN_PARAMS": "hookline.tools.params",
    "BashParams": "hookline.tools.params",
    "EditParams": "hookline.tools.params",
    "FindParams": "hookline.tools.params",
    "GrepParams": "hookline.tools.params",
    "LsParams": "hookline.tools.params",
    "ReadParams": "hookline.tools.params",
    "ToolParams": "hookline.tools.params",
    "WriteParams": "hookline.tools.params",
    "BashSpawnContext": "hookline.tools.bash",
    "BashSpawnHook": "hookline.tools.bash",
    "create_bash_tool": "hookline.tools.bash",
    "BUILTIN_TOOL_NAMES": "hookline.tools.builtin",
    "builtin_tools": "hookline.tools.builtin",
    "hooked_tools": "hookline.tools.builtin",
    "BashToolDetails": "hookline.tools.details",
    "BashToolResultEvent": "hookline.tools.details",
    "EditToolDetails": "hookline.tools.details",
    "EditToolResultEvent": "hookline.tools.details",
    "FindToolDetails": "hookline.tools.details",
    "FindToolResultEvent": "hookline.tools.details",
    "GrepToolDetails": "hookline.tools.details",
    "GrepToolResultEvent": "hookline.tools.details",
    "LsToolDetails": "hookline.tools.details",
    "LsToolResultEvent": "hookline.tools.details",
    "ReadToolDetails": "hookline.tools.details",
    "ReadToolResultEvent": "hookline.tools.details",
    "TypedToolResultEvent": "hookline.tools.details",
    "WriteToolDetails": "hookline.tools.details",
    "WriteToolResultEvent": "hookline.tools.details",
    "is_bash_tool_result": "hookline.tools.details",
    "is_edit_tool_result": "hookline.tools.details",
    "is_find_tool_result": "hookline.tools.details",
    "is_grep_tool_result": "hookline.tools.details",
    "is_ls_tool_result": "hookline.tools.details",
    "is_read_tool_result": "hookline.tools.details",
    "is_write_tool_result": "hookline.tools.details",
    "create_edit_tool": "hookline.tools.edit",
    "create_write_tool": "hookline.tools.edit",
    "create_read_tool": "hookline.tools.read",
    "create_find_tool": "hookline.tools.search",
    "create_grep_tool": "hookline.tools.search",
    "create_ls_tool": "hookline.tools.search",
    "DEFAULT_MAX_BYTES": "hookline.tools.truncation",
    "DEFAULT_MAX_LINES": "hookline.tools.truncation",
    "GREP_MAX_LINE_LENGTH": "hookline.tools.truncation",
    "TruncationResult": "hookline.tools.truncation",
    "truncate_head": "hookline.tools.truncation",
    "truncate_line": "hookline.tools.truncation",
    "truncate_tail": "hookline.tools.truncation",
}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
