"""The settings file schema (pydantic): one model validates every source and makes the JSON Schema.

Unknown top-level keys are kept (Claude Code settings carry many keys hookline
does not read); the keys hookline reads are validated strictly so a typo in a
hook definition is reported with its key path, not ignored.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

#: Claude Code's hook event names, as settings files spell them.
CLAUDE_EVENTS: tuple[str, ...] = (
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PermissionRequest",
    "UserPromptSubmit",
    "Notification",
    "Stop",
    "SubagentStart",
    "SubagentStop",
    "SessionStart",
    "SessionEnd",
    "PreCompact",
    "StatusLine",
    "FileSuggestion",
)

ClaudeEvent = Literal[
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PermissionRequest",
    "UserPromptSubmit",
    "Notification",
    "Stop",
    "SubagentStart",
    "SubagentStop",
    "SessionStart",
    "SessionEnd",
    "PreCompact",
    "StatusLine",
    "FileSuggestion",
]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class CommandHookConfig(_Strict):
    """``{"type": "command", "command": "...", "timeout": 60}`` (timeout in seconds)."""

    type: Literal["command"]
    command: str = Field(min_length=1)
    timeout: float | None = Field(default=None, gt=0)
    status_message: str | None = Field(default=None, alias="statusMessage")
    run_async: bool = Field(default=False, alias="async")
    once: bool = False


class PromptHookConfig(_Strict):
    """A hook that asks the model for ``{ok, reason}``."""

    type: Literal["prompt"]
    prompt: str = Field(min_length=1)
    timeout: float | None = Field(default=None, gt=0)
    model: str | None = None
    blocking: bool = False
    status_message: str | None = Field(default=None, alias="statusMessage")


class AgentHookConfig(_Strict):
    """A hook that runs a read-only sub-agent ending with a structured-output tool call."""

    type: Literal["agent"]
    prompt: str = Field(min_length=1)
    timeout: float | None = Field(default=None, gt=0)
    model: str | None = None
    blocking: bool = False
    max_turns: int = Field(default=50, ge=1, le=50, alias="maxTurns")
    status_message: str | None = Field(default=None, alias="statusMessage")


HookConfig = Annotated[
    CommandHookConfig | PromptHookConfig | AgentHookConfig, Field(discriminator="type")
]


class MatcherConfig(_Strict):
    """One matcher group: a regex on the match query and the hooks it runs."""

    matcher: str | None = None
    hooks: list[HookConfig] = Field(default_factory=list)


HooksConfig = dict[ClaudeEvent, list[MatcherConfig]]


class PermissionsConfig(BaseModel):
    model_config = ConfigDict(extra="allow", populate_by_name=True)

    allow: list[str] = Field(default_factory=list)
    deny: list[str] = Field(default_factory=list)
    ask: list[str] = Field(default_factory=list)
    default_mode: (
        Literal["default", "acceptEdits", "plan", "bypassPermissions", "dontAsk"] | None
    ) = Field(default=None, alias="defaultMode")


class Settings(BaseModel):
    """A settings file, or the merge of all of them.

    ``hooks`` is either a list of hook module paths (hookline/pi style) or a
    Claude-style object of command hooks keyed by event.
    """

    model_config = ConfigDict(extra="allow", populate_by_name=True)

    hooks: list[str] | HooksConfig | None = None
    hook_timeout: int | None = Field(default=None, alias="hookTimeout", gt=0)
    disable_all_hooks: bool | None = Field(default=None, alias="disableAllHooks")
    allow_managed_hooks_only: bool | None = Field(default=None, alias="allowManagedHooksOnly")
    permissions: PermissionsConfig | None = None
    env: dict[str, str] | None = None
    model: str | None = None

    def extra_keys(self) -> dict[str, Any]:
        return dict(self.model_extra or {})
