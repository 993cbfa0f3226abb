"""The tool contract: what the agent calls, what hooks wrap, what ``register_tool`` takes."""

from __future__ import annotations

import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeAlias

from hookline.core.messages import Content

if TYPE_CHECKING:
    import asyncio

    from pydantic import BaseModel

#: Called by a running tool with a partial result (streamed output).
ToolUpdate = Callable[["ToolResult"], None]


@dataclass(slots=True)
class ToolResult:
    """What a tool returns: content blocks for the model, typed details for UIs and hooks."""

    content: list[Content]
    details: Any = None
    is_error: bool = False


class ToolError(Exception):
    """A tool failed in a way the model should read (bad input, missing file, blocked)."""

    def __init__(self, message: str, details: Any = None) -> None:
        super().__init__(message)
        self.details = details


class ToolBlockedError(ToolError):
    """A ``tool_call`` hook blocked the call; the message is the reason."""


class ModelRef:
    """A pydantic model class named by its module and name, imported on first use.

    The built-in tools declare their parameters this way, so that creating them (every
    start-up) imports neither pydantic nor their models; a turn that never sends a
    schema nor runs a tool never pays for them. ``schema`` is the model's schema as
    JSON text, when it was written out beforehand: then sending it imports nothing.
    """

    __slots__ = ("_model", "module", "name", "schema")

    def __init__(self, module: str, name: str, schema: str | None = None) -> None:
        self.module = module
        self.name = name
        self.schema = schema
        self._model: type[BaseModel] | None = None

    def resolve(self) -> type[BaseModel]:
        """The model class (imported once)."""
        if self._model is None:
            __import__(self.module)
            self._model = getattr(sys.modules[self.module], self.name)
        return self._model

    def __repr__(self) -> str:
        return f"ModelRef({self.module}.{self.name})"


#: A tool's parameters: a JSON Schema dict (sent as it is), or a pydantic model class
#: (or a ``ModelRef`` to one) whose generated schema is sent and against which each
#: call's arguments are checked before ``execute`` runs (``hookline.core.tool_params``).
ToolParameters: TypeAlias = "dict[str, Any] | type[BaseModel] | ModelRef"


ToolExecute = Callable[
    [str, dict[str, Any], "asyncio.Event | None", "ToolUpdate | None"], Awaitable[ToolResult]
]


#: A hook tool's ``execute`` that takes the hook context (``ctx``) last.
ContextToolExecute = Callable[
    [str, dict[str, Any], "asyncio.Event | None", "ToolUpdate | None", Any],
    Awaitable[ToolResult],
]


@dataclass(slots=True)
class Tool:
    """A tool the model may call.

    ``execute(tool_call_id, params, signal, on_update)``: ``signal`` is an
    ``asyncio.Event`` set when the call is aborted; ``on_update`` receives
    partial results. ``parameters`` is the JSON Schema the model sees, or a
    pydantic model class that produces it; with a model, the arguments are
    validated against it before ``execute`` runs (a failure is the tool's error,
    naming the field) and ``execute`` still receives them as a dict
    (``parse_arguments`` gives the typed model).
    A tool a hook registers may take the hook context as a fifth argument
    (``execute(tool_call_id, params, signal, on_update, ctx)``).
    ``prompt_snippet`` (one line) and ``prompt_guidelines`` (bullets) go into
    the system prompt while the tool is active.
    """

    name: str
    description: str
    parameters: ToolParameters
    #: A ``ToolExecute``, or for a hook's tool a ``ContextToolExecute`` (``ctx`` last).
    execute: Callable[..., Awaitable[ToolResult]]
    label: str = ""
    meta: dict[str, Any] = field(default_factory=dict)
    prompt_snippet: str = ""
    prompt_guidelines: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class ToolInfo:
    """What ``get_all_tools()`` tells a hook about one tool; ``hook_path`` is None for a
    built-in."""

    name: str
    description: str
    parameters: dict[str, Any]
    hook_path: str | None = None


#: ``wrap_tool``'s function: ``execute(original, tool_call_id, params, signal, on_update,
#: ctx)``; ``original`` is the wrapped tool's own ``execute`` (four arguments).
ToolWrapperExecute = Callable[..., Awaitable[ToolResult]]
