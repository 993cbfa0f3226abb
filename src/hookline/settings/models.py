"""The settings file schema (pydantic): one model validates every source and makes the JSON Schema.

Unknown top-level keys are kept (Claude Code settings carry many keys hookline
does not read); the keys hookline reads are validated strictly. Files are
checked entry by entry before these models see them (``validate.py``), so an
entry hookline does not understand is skipped with a warning naming its key
path instead of invalidating the whole file.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag

from hookline.core.vocabulary import PermissionMode

ClaudeEvent = Literal[
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PostToolBatch",
    "PermissionRequest",
    "PermissionDenied",
    "UserPromptSubmit",
    "UserPromptExpansion",
    "Notification",
    "Stop",
    "StopFailure",
    "SubagentStart",
    "SubagentStop",
    "SessionStart",
    "SessionEnd",
    "Setup",
    "PreCompact",
    "PostCompact",
    "InstructionsLoaded",
    "ConfigChange",
    "CwdChanged",
    "FileChanged",
    "Elicitation",
    "ElicitationResult",
    "TeammateIdle",
    "TaskCreated",
    "TaskCompleted",
    "WorktreeCreate",
    "WorktreeRemove",
    "PreModelSwitch",
    "PostModelSwitch",
    "MessageDisplay",
    "DirectoryAdded",
    "StatusLine",
    "FileSuggestion",
]

#: Every hook event name Claude Code's settings accept today, as settings files spell
#: them: the one list. All are accepted; ``hookline.claude.names.NEVER_FIRES`` lists
#: those whose moment hookline does not have. An event not listed here is warned
#: about and skipped, never run.
CLAUDE_EVENTS: tuple[str, ...] = get_args(ClaudeEvent)

#: The permission modes, loosest first (see ``hookline.settings.policy`` for strictness).


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True, defer_build=True)


#: Events whose input names a tool call: where a hook's ``if`` condition is evaluated.
CONDITION_EVENTS: frozenset[str] = frozenset(
    {"PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest", "PermissionDenied"}
)

#: ``onFailure``: ``"block"`` turns a hook that cannot start, times out or fails into a block.
OnFailure = Literal["continue", "block"]

_IF_DESCRIPTION = (
    "A permission rule such as 'Bash(git *)': the hook runs only for tool calls the rule "
    "touches (tool events only; on other events a hook with 'if' never runs)."
)
_ON_FAILURE_DESCRIPTION = (
    "'block': a hook that cannot start, times out or fails blocks the action instead of "
    "letting it through (default 'continue')."
)
_ONCE_DESCRIPTION = "Run at most once per session."


class CommandHookConfig(_Strict):
    """``{"type": "command", "command": "...", "timeout": 600}`` (timeout in seconds).

    With ``args`` the command is the program and runs with those arguments, no shell.
    """

    type: Literal["command"]
    command: str = Field(min_length=1)
    args: list[str] | None = Field(
        default=None,
        description="Exec form: 'command' is the program, these its arguments; no shell.",
    )
    shell: Literal["bash", "sh", "powershell"] | None = Field(
        default=None, description="The shell of the shell form (default bash, else sh)."
    )
    timeout: float | None = Field(default=None, gt=0)
    if_: str | None = Field(default=None, alias="if", min_length=1, description=_IF_DESCRIPTION)
    status_message: str | None = Field(default=None, alias="statusMessage")
    run_async: bool = Field(default=False, alias="async")
    async_rewake: bool = Field(
        default=False,
        alias="asyncRewake",
        description="Run in the background; exit 2 wakes the model with the hook's stderr.",
    )
    on_failure: OnFailure | None = Field(
        default=None, alias="onFailure", description=_ON_FAILURE_DESCRIPTION
    )
    once: bool = Field(default=False, description=_ONCE_DESCRIPTION)

    @property
    def background(self) -> bool:
        """Runs in the background from the start (``async`` or ``asyncRewake``)."""
        return self.run_async or self.async_rewake

    def label(self) -> str:
        """The command as a person would type it."""
        return self.command if self.args is None else shlex.join([self.command, *self.args])

    def identity(self, plugin_root: Path | None) -> tuple[str, ...]:
        """Claude Code's dedupe identity. A plugin's command is a template run in its own
        root: the same text in two plugins is two hooks, so the root is part of it."""
        key: tuple[str, ...] = ("command", self.command)
        if self.args is not None:  # exec form: the program and its arguments
            key = ("command", json.dumps([self.command, *self.args]))
        return key if plugin_root is None else (*key, str(plugin_root))


class HttpHookConfig(_Strict):
    """``{"type": "http", "url": "...", "headers": {...}}``: POST the input JSON to ``url``."""

    type: Literal["http"]
    url: str = Field(min_length=1, pattern=r"^[Hh][Tt][Tt][Pp][Ss]?://")
    headers: dict[str, str] = Field(
        default_factory=dict,
        description="Header values may use $VAR / ${VAR} for variables in allowedEnvVars.",
    )
    allowed_env_vars: list[str] = Field(
        default_factory=list,
        alias="allowedEnvVars",
        description="Environment variables header values may interpolate (others become '').",
    )
    timeout: float | None = Field(default=None, gt=0)
    if_: str | None = Field(default=None, alias="if", min_length=1, description=_IF_DESCRIPTION)
    status_message: str | None = Field(default=None, alias="statusMessage")
    on_failure: OnFailure | None = Field(
        default=None, alias="onFailure", description=_ON_FAILURE_DESCRIPTION
    )
    once: bool = Field(default=False, description=_ONCE_DESCRIPTION)

    def label(self) -> str:
        return f"http: {self.url}"

    def identity(self, plugin_root: Path | None) -> tuple[str, ...]:
        return ("http", self.url)


class PromptHookConfig(_Strict):
    """A hook that asks the model for ``{ok, reason}``."""

    type: Literal["prompt"]
    prompt: str = Field(min_length=1)
    timeout: float | None = Field(default=None, gt=0)
    model: str | None = None
    blocking: bool = False
    if_: str | None = Field(default=None, alias="if", min_length=1, description=_IF_DESCRIPTION)
    status_message: str | None = Field(default=None, alias="statusMessage")
    once: bool = Field(default=False, description=_ONCE_DESCRIPTION)

    def label(self) -> str:
        return f"prompt: {self.prompt[:60]}"

    def identity(self, plugin_root: Path | None) -> tuple[str, ...]:
        return ("prompt", self.prompt)


class AgentHookConfig(_Strict):
    """A hook that runs a read-only sub-agent ending with a structured-output tool call."""

    type: Literal["agent"]
    prompt: str = Field(min_length=1)
    timeout: float | None = Field(default=None, gt=0)
    model: str | None = None
    blocking: bool = False
    max_turns: int = Field(default=50, ge=1, le=50, alias="maxTurns")
    if_: str | None = Field(default=None, alias="if", min_length=1, description=_IF_DESCRIPTION)
    status_message: str | None = Field(default=None, alias="statusMessage")
    once: bool = Field(default=False, description=_ONCE_DESCRIPTION)

    def label(self) -> str:
        return f"agent: {self.prompt[:60]}"

    def identity(self, plugin_root: Path | None) -> tuple[str, ...]:
        # agent prompts are templates; stringified with empty arguments they are the text
        return ("agent", self.prompt.replace("$ARGUMENTS", ""))


class McpToolHookConfig(_Strict):
    """``{"type": "mcp_tool", "server": "...", "tool": "...", "input": {...}}``.

    Calls a tool of a connected MCP server; its text output is read like a
    command hook's stdout. String values in ``input`` may use ``${path}``
    (``${tool_input.file_path}``) to take a field of the hook's input JSON.
    """

    type: Literal["mcp_tool"]
    server: str = Field(min_length=1, description="The MCP server's name, as configured.")
    tool: str = Field(min_length=1, description="The tool's name on that server (no mcp__ prefix).")
    input: dict[str, Any] = Field(
        default_factory=dict,
        description=(
            "The tool's arguments. In string values ${path} is replaced by that field of "
            "the hook's input JSON (e.g. ${tool_input.file_path}); a missing field is ''."
        ),
    )
    timeout: float | None = Field(default=None, gt=0)
    if_: str | None = Field(default=None, alias="if", min_length=1, description=_IF_DESCRIPTION)
    status_message: str | None = Field(default=None, alias="statusMessage")
    on_failure: OnFailure | None = Field(
        default=None, alias="onFailure", description=_ON_FAILURE_DESCRIPTION
    )
    once: bool = Field(default=False, description=_ONCE_DESCRIPTION)

    def label(self) -> str:
        return f"mcp_tool: {self.server}/{self.tool}"

    def identity(self, plugin_root: Path | None) -> tuple[str, ...]:
        return ("mcp_tool", self.server, self.tool, json.dumps(self.input, sort_keys=True))


HookConfig = Annotated[
    CommandHookConfig | HttpHookConfig | McpToolHookConfig | PromptHookConfig | AgentHookConfig,
    Field(discriminator="type"),
]


class MatcherConfig(_Strict):
    """One matcher group: a regex on the match query and the hooks it runs."""

    matcher: str | None = None
    hooks: list[HookConfig] = Field(default_factory=list)


HooksConfig = dict[ClaudeEvent, list[MatcherConfig]]

#: The tags of the ``hooks`` union; they show up in pydantic error locations
#: (``hooks.events...``) and are dropped again when errors are reported.
HOOKS_UNION_TAGS: tuple[str, str] = ("paths", "events")


def _hooks_kind(value: Any) -> str | None:
    """Pick the ``hooks`` branch from the JSON type, so errors come from one branch only."""
    if isinstance(value, list):
        return HOOKS_UNION_TAGS[0]
    if isinstance(value, dict):
        return HOOKS_UNION_TAGS[1]
    return None


HooksField = Annotated[
    Annotated[list[str], Tag(HOOKS_UNION_TAGS[0])]
    | Annotated[HooksConfig, Tag(HOOKS_UNION_TAGS[1])],
    Discriminator(
        _hooks_kind,
        custom_error_type="hooks_type",
        custom_error_message=(
            "must be a list of hook module paths or an object of Claude-style event hooks"
        ),
    ),
]


class PermissionsConfig(BaseModel):
    """Tool permission rules; other keys are kept for Claude Code compatibility."""

    model_config = ConfigDict(extra="allow", populate_by_name=True, defer_build=True)

    allow: list[str] = Field(default_factory=list)
    deny: list[str] = Field(default_factory=list)
    ask: list[str] = Field(default_factory=list)
    default_mode: PermissionMode | None = Field(default=None, alias="defaultMode")
    additional_directories: list[str] = Field(
        default_factory=list,
        alias="additionalDirectories",
        description="More working directories: acceptEdits covers edits inside them too.",
    )
    disable_bypass_permissions_mode: Literal["disable"] | None = Field(
        default=None,
        alias="disableBypassPermissionsMode",
        description='"disable" forbids bypassPermissions mode (honoured from the managed file).',
    )


class _Open(BaseModel):
    """A Claude Code settings object whose keys hookline does not all read: unknown keys are
    kept (Claude adds some often), the keys hookline reads are validated."""

    model_config = ConfigDict(extra="allow", populate_by_name=True, defer_build=True)


_PATHS = (
    " Paths: '/abs' or '//abs' absolute, '~/x' the home folder, './x' or 'x' the project root "
    "(user settings: the settings file's folder); globs such as '**/*.pem' allowed."
)


class SandboxFilesystemConfig(_Open):
    """``sandbox.filesystem``: where sandboxed commands may write and what they may not see."""

    allow_write: list[str] = Field(
        default_factory=list,
        alias="allowWrite",
        description="More folders sandboxed commands may write to." + _PATHS,
    )
    deny_write: list[str] = Field(
        default_factory=list,
        alias="denyWrite",
        description="Paths made read-only inside the sandbox (with every Edit deny rule)." + _PATHS,
    )
    deny_read: list[str] = Field(
        default_factory=list,
        alias="denyRead",
        description="Paths hidden inside the sandbox (with every Read deny rule)." + _PATHS,
    )
    allow_read: list[str] = Field(
        default_factory=list,
        alias="allowRead",
        description="Paths readable again inside a denyRead folder." + _PATHS,
    )
    allow_managed_read_paths_only: bool | None = Field(
        default=None,
        alias="allowManagedReadPathsOnly",
        description="Managed settings only: allowRead is read from the managed file alone.",
    )


class SandboxNetworkConfig(_Open):
    """``sandbox.network``: which hosts sandboxed commands reach through hookline's proxy."""

    allowed_domains: list[str] = Field(
        default_factory=list,
        alias="allowedDomains",
        description="Hosts reachable without asking ('example.com', '*.example.com').",
    )
    denied_domains: list[str] = Field(
        default_factory=list,
        alias="deniedDomains",
        description="Hosts always refused (wins over allowedDomains).",
    )
    allow_managed_domains_only: bool | None = Field(
        default=None,
        alias="allowManagedDomainsOnly",
        description="Managed settings only: allowedDomains is read from the managed file alone.",
    )
    allow_unix_sockets: list[str] = Field(
        default_factory=list,
        alias="allowUnixSockets",
        description="Accepted for Claude Code compatibility; not enforced by hookline.",
    )
    allow_all_unix_sockets: bool | None = Field(
        default=None,
        alias="allowAllUnixSockets",
        description="Accepted for Claude Code compatibility; not enforced by hookline.",
    )
    allow_local_binding: bool | None = Field(
        default=None,
        alias="allowLocalBinding",
        description="Accepted; inside the sandbox's own network namespace binding always works.",
    )
    http_proxy_port: int | None = Field(
        default=None,
        alias="httpProxyPort",
        ge=1,
        le=65535,
        description="Accepted for Claude Code compatibility; hookline always runs its own proxy.",
    )
    socks_proxy_port: int | None = Field(
        default=None,
        alias="socksProxyPort",
        ge=1,
        le=65535,
        description="Accepted for Claude Code compatibility; hookline always runs its own proxy.",
    )


class SandboxConfigModel(_Open):
    """``sandbox``: Claude Code's bash sandbox, with Claude Code's keys and meaning."""

    enabled: bool | None = Field(
        default=None, description="Run bash commands in the sandbox (default false)."
    )
    fail_if_unavailable: bool | None = Field(
        default=None,
        alias="failIfUnavailable",
        description="Refuse to start when the sandbox cannot run (default false: warn).",
    )
    auto_allow_bash_if_sandboxed: bool | None = Field(
        default=None,
        alias="autoAllowBashIfSandboxed",
        description="A sandboxed bash call needs no approval (default true); rules still hold.",
    )
    excluded_commands: list[str] = Field(
        default_factory=list,
        alias="excludedCommands",
        description="Commands that run outside the sandbox ('docker', 'git push *').",
    )
    allow_unsandboxed_commands: bool | None = Field(
        default=None,
        alias="allowUnsandboxedCommands",
        description=(
            "Let the bash tool's dangerouslyDisableSandbox run a call outside the sandbox, "
            "through the normal permission flow (default true; false ignores it)."
        ),
    )
    filesystem: SandboxFilesystemConfig | None = None
    network: SandboxNetworkConfig | None = None


class StreamRuleConfig(BaseModel):
    """A Time-Traveling Stream Rule (``ttsrRules``): a regex over the model's streamed
    output and the reminder injected when it matches."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    name: str = Field(min_length=1)
    pattern: str = Field(min_length=1, description="A Python regular expression.")
    text: str = Field(min_length=1, description="Injected as a system reminder on a match.")


class Settings(BaseModel):
    """A settings file, or the merge of all of them.

    ``hooks`` is either a list of hook module paths (hookline/pi style) or a
    Claude-style object of command hooks keyed by event. In the merged
    settings ``hooks`` is always ``None``: the two shapes do not merge, so the
    loader hands them out per source instead (see ``LoadedSettings``).
    """

    # defer_build: validators are built on first use, not when `hookline --help` imports this.
    model_config = ConfigDict(
        extra="allow", populate_by_name=True, title="hookline settings", defer_build=True
    )

    hooks: HooksField | None = Field(
        default=None,
        description=(
            "A list of hook module paths (relative to the project, or to the home "
            "folder for user settings), or Claude Code command hooks keyed by event."
        ),
    )
    hook_timeout: int | None = Field(
        default=None,
        alias="hookTimeout",
        gt=0,
        description="Timeout of in-process hook handlers, in milliseconds (default 30000).",
    )
    disable_all_hooks: bool | None = Field(
        default=None,
        alias="disableAllHooks",
        description="Run no hooks at all. A value in the managed settings file wins.",
    )
    allow_managed_hooks_only: bool | None = Field(
        default=None,
        alias="allowManagedHooksOnly",
        description="Run only hooks from the managed settings file (managed file only).",
    )
    permissions: PermissionsConfig | None = None
    env: dict[str, str] | None = Field(
        default=None,
        description=(
            "Environment variables for tools and hooks (from trusted settings files only). "
            "CLAUDE_CODE_SUBPROCESS_ENV_SCRUB=1 removes provider credentials and OTEL_* "
            "from hook and bash subprocesses."
        ),
    )
    model: str | None = Field(default=None, description="Default model, e.g. 'anthropic:NAME'.")
    required_hooks: list[str] | None = Field(
        default=None,
        alias="requiredHooks",
        description=(
            "Hook module paths that must load, or the agent refuses to start (relative to "
            "the project, or to the home folder for user settings)."
        ),
    )
    allowed_http_hook_urls: list[str] | None = Field(
        default=None,
        alias="allowedHttpHookUrls",
        description=(
            "URL patterns ('*' matches any text) http hooks may post to; unset: any URL, "
            "an empty list: none."
        ),
    )
    http_hook_allowed_env_vars: list[str] | None = Field(
        default=None,
        alias="httpHookAllowedEnvVars",
        description=(
            "Environment variables http hook headers may use at most (each hook's "
            "allowedEnvVars is cut to this list); unset: no limit."
        ),
    )

    sandbox: SandboxConfigModel | None = Field(
        default=None,
        description="Claude Code's bash sandbox settings (see the sandbox page of the manual).",
    )
    ttsr_rules: list[StreamRuleConfig] | None = Field(
        default=None,
        alias="ttsrRules",
        description=(
            "Time-Traveling Stream Rules: when a rule's pattern matches the model's streamed "
            "output, the stream is cut, its text injected as a system reminder, and the "
            "request retried (each rule once per turn)."
        ),
    )

    def extra_keys(self) -> dict[str, Any]:
        """Keys hookline does not read (kept, so Claude Code settings round-trip)."""
        return dict(self.model_extra or {})
