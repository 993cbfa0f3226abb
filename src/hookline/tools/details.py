"""Typed ``details`` of the built-in tools, and type guards for ``tool_result`` hooks.

Details are ``TypedDict``s: plain JSON-ready dicts at run time (they go into
session files and RPC output unchanged), typed for mypy. A hook narrows a
``ToolResultEvent`` with a guard and then reads ``event.details`` typed::

    if is_bash_tool_result(event) and event.details and "truncation" in event.details:
        path = event.details.get("full_output_path")

A guard checks the tool *name* only (as pi's do): a hook that replaced a
built-in may return other details, and a failed call carries the
``ToolError``'s details or ``None``.
"""

from __future__ import annotations

from typing import Any, Generic, Protocol, Required, TypeGuard, TypeVar

from typing_extensions import TypedDict

from hookline.core.events import ToolResultEvent
from hookline.core.messages import Content
from hookline.tools.truncation import TruncationResult


class BashToolDetails(TypedDict, total=False):
    """``exit_code`` is None when the process was killed (timeout, abort)."""

    exit_code: Required[int | None]
    truncation: TruncationResult
    #: the whole output, written when the text the model sees was truncated; capped: a
    #: larger output keeps its head and tail and the file says what was cut between them
    full_output_path: str
    #: bytes cut from the middle of the spill file (absent when nothing was cut)
    full_output_cut_bytes: int
    timed_out: bool
    aborted: bool
    #: the command ran in the sandbox
    sandboxed: bool
    #: what the sandbox refused during the call (network connections), one dict each
    sandbox_violations: list[dict[str, Any]]


class ReadToolDetails(TypedDict, total=False):
    path: Required[str]
    outside_cwd: Required[bool]
    truncation: TruncationResult
    #: set for images (``image/png`` ...)
    mime_type: str


class WriteToolDetails(TypedDict):
    path: str
    outside_cwd: bool
    bytes: int
    created: bool


class EditToolDetails(TypedDict):
    path: str
    outside_cwd: bool
    #: a unified diff of the change
    diff: str
    #: 1-based line of the first change (for editors to jump to)
    first_changed_line: int


class LsToolDetails(TypedDict, total=False):
    path: Required[str]
    outside_cwd: Required[bool]
    truncation: TruncationResult
    #: the entry limit that cut the listing
    entry_limit_reached: int


class FindToolDetails(TypedDict, total=False):
    path: Required[str]
    outside_cwd: Required[bool]
    truncation: TruncationResult
    #: the result limit that cut the list
    result_limit_reached: int


class GrepToolDetails(TypedDict, total=False):
    path: Required[str]
    outside_cwd: Required[bool]
    truncation: TruncationResult
    #: the match limit that stopped the search
    match_limit_reached: int
    #: some lines were cut to ``GREP_MAX_LINE_LENGTH`` characters
    lines_truncated: bool


D = TypeVar("D")


class TypedToolResultEvent(Protocol, Generic[D]):
    """A ``ToolResultEvent`` whose ``details`` are known to be ``D`` (or None on error)."""

    tool_name: str
    tool_call_id: str
    input: dict[str, Any]
    content: list[Content]
    details: D | None
    is_error: bool


BashToolResultEvent = TypedToolResultEvent[BashToolDetails]
ReadToolResultEvent = TypedToolResultEvent[ReadToolDetails]
WriteToolResultEvent = TypedToolResultEvent[WriteToolDetails]
EditToolResultEvent = TypedToolResultEvent[EditToolDetails]
LsToolResultEvent = TypedToolResultEvent[LsToolDetails]
FindToolResultEvent = TypedToolResultEvent[FindToolDetails]
GrepToolResultEvent = TypedToolResultEvent[GrepToolDetails]


def is_bash_tool_result(event: ToolResultEvent) -> TypeGuard[BashToolResultEvent]:
    return event.tool_name == "bash"


def is_read_tool_result(event: ToolResultEvent) -> TypeGuard[ReadToolResultEvent]:
    return event.tool_name == "read"


def is_write_tool_result(event: ToolResultEvent) -> TypeGuard[WriteToolResultEvent]:
    return event.tool_name == "write"


def is_edit_tool_result(event: ToolResultEvent) -> TypeGuard[EditToolResultEvent]:
    return event.tool_name == "edit"


def is_ls_tool_result(event: ToolResultEvent) -> TypeGuard[LsToolResultEvent]:
    return event.tool_name == "ls"


def is_find_tool_result(event: ToolResultEvent) -> TypeGuard[FindToolResultEvent]:
    return event.tool_name == "find"


def is_grep_tool_result(event: ToolResultEvent) -> TypeGuard[GrepToolResultEvent]:
    return event.tool_name == "grep"
