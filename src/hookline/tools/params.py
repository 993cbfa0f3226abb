"""The built-in tools' parameters: one pydantic model each, the schema the model sees.

Each model is the single declaration of its tool's parameters: the JSON Schema
sent to the model is generated from it (``hookline.core.tool_params``) and each
call's arguments are validated through it. Wire names stay as the model sends
them (``oldText``, ``ignoreCase``), as aliases of snake_case fields.

Validation is strict, as the hand-written checks were: a string is never taken
for a number (``"10"`` is refused), ``true`` is not an integer, and an integer
sent as ``10.0`` is taken. ``null`` for an optional parameter means "not given".
Unknown parameters are ignored, though the schema tells the model there are none.

Models are built on first use (``defer_build``): defining them costs a fraction
of a millisecond at import, validating or generating a schema builds them once.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field


def _integral(value: Any) -> Any:
    """A float with an integral value (``10.0``, as JSON encoders may send) as an int."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


#: An integer >= 1 (>= 0 for ``_Size``); ``10.0`` is taken as 10, a string or a bool is not.
#: The bound comes before the validator, so that it lands in the schema as ``minimum``.
_Count = Annotated[int, Field(ge=1), BeforeValidator(_integral)]
_Size = Annotated[int, Field(ge=0), BeforeValidator(_integral)]

_PATH = "Path to the file (relative or absolute)"


class ToolParams(BaseModel):
    """The base of the built-in tools' parameter models (strict, built on first use)."""

    model_config = ConfigDict(
        strict=True,
        frozen=True,
        defer_build=True,
        extra="ignore",
        json_schema_extra={"additionalProperties": False},
    )


class BashParams(ToolParams):
    """``bash``: a command line and an optional timeout in seconds."""

    command: str = Field(min_length=1, description="Bash command to execute")
    timeout: float | None = Field(None, gt=0, description="Timeout in seconds (optional)")
    dangerouslyDisableSandbox: bool | None = Field(  # Claude Code's name, as models send it
        None,
        description=(
            "Run this command outside the sandbox (only when the sandbox blocked something "
            "it needs); it then needs the user's approval"
        ),
    )


class ReadParams(ToolParams):
    """``read``: a file, and the window of lines to read."""

    path: str = Field(min_length=1, description=_PATH)
    offset: _Count | None = Field(None, description="Line number to start from (1-based)")
    limit: _Count | None = Field(None, description="Maximum number of lines to read")


class WriteParams(ToolParams):
    """``write``: a file and its whole new content."""

    path: str = Field(min_length=1, description=_PATH)
    content: str = Field(description="Content to write")


class EditParams(ToolParams):
    """``edit``: a file, the exact text to replace and its replacement."""

    path: str = Field(min_length=1, description=_PATH)
    old_text: str = Field(
        alias="oldText",
        min_length=1,
        description="Exact text to find and replace (must occur exactly once)",
    )
    new_text: str = Field(alias="newText", description="Text to replace it with")


class GrepParams(ToolParams):
    """``grep``: a regex (or literal text) and where and how to search."""

    pattern: str = Field(min_length=1, description="Regex (or literal text)")
    path: str | None = Field(None, description="Directory or file (default: .)")
    glob: str | None = Field(None, description="Only files matching, e.g. '*.py'")
    ignore_case: bool | None = Field(
        None, alias="ignoreCase", description="Case-insensitive search"
    )
    literal: bool | None = Field(None, description="Treat pattern as plain text")
    context: _Size | None = Field(None, description="Lines of context around matches")
    limit: _Count | None = Field(None, description="Maximum number of matches")


class FindParams(ToolParams):
    """``find``: a glob and the directory to search."""

    pattern: str = Field(min_length=1, description="Glob pattern to match")
    path: str | None = Field(None, description="Directory to search (default: .)")
    limit: _Count | None = Field(None, description="Maximum number of results")


class LsParams(ToolParams):
    """``ls``: a directory and how many entries to show."""

    path: str | None = Field(None, description="Directory (default: current)")
    limit: _Count | None = Field(None, description="Maximum number of entries")


#: Each built-in tool's parameter model, by tool name.
BUILTIN_PARAMS: dict[str, type[ToolParams]] = {
    "bash": BashParams,
    "read": ReadParams,
    "write": WriteParams,
    "edit": EditParams,
    "grep": GrepParams,
    "find": FindParams,
    "ls": LsParams,
}
