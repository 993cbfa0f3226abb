"""How long a hook may run when its ``timeout`` says nothing, and the Stop-block cap.

Claude Code's defaults: 600 s for ``command`` and ``http`` hooks, 30 s for
``prompt``, 60 s for ``agent`` and ``mcp_tool``. Some events lower the default
of ``command`` and ``http`` hooks (and cap ``mcp_tool`` ones):
``UserPromptSubmit`` (and the model-switch events) wait 30 s (the user is
waiting), ``MessageDisplay`` 10 s, ``SessionEnd`` 1.5 s (the session is
closing), raised or lowered with ``CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS``.
A hook's own ``timeout`` always wins.
"""

from __future__ import annotations

from collections.abc import Mapping

COMMAND_TIMEOUT = 600.0
HTTP_TIMEOUT = 600.0
PROMPT_TIMEOUT = 30.0
AGENT_TIMEOUT = 60.0
MCP_TOOL_TIMEOUT = 60.0
#: Lower defaults of command/http hooks on some events (seconds).
EVENT_TIMEOUTS: dict[str, float] = {
    "UserPromptSubmit": 30.0,
    "PreModelSwitch": 30.0,
    "PostModelSwitch": 30.0,
    "MessageDisplay": 10.0,
    "SessionEnd": 1.5,
}
SESSION_END_ENV = "CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS"

#: Consecutive Stop/SubagentStop blocks after which the turn ends anyway.
STOP_HOOK_BLOCK_CAP = 8
STOP_HOOK_BLOCK_CAP_ENV = "CLAUDE_CODE_STOP_HOOK_BLOCK_CAP"


def _positive(text: str | None) -> float | None:
    try:
        value = float(text) if text is not None else None
    except ValueError:
        return None
    return value if value is not None and value > 0 else None


def default_timeout(spec: object, event: str, env: Mapping[str, str]) -> float:
    """The timeout (seconds) of a hook of ``spec``'s type on ``event`` with no ``timeout``."""
    # Here, not at import: the agent reads the Stop cap below without any settings hook.
    from hookline.settings.models import AgentHookConfig, McpToolHookConfig, PromptHookConfig

    if isinstance(spec, AgentHookConfig):
        return AGENT_TIMEOUT
    if isinstance(spec, PromptHookConfig):
        return PROMPT_TIMEOUT
    by_event = EVENT_TIMEOUTS.get(event, COMMAND_TIMEOUT)
    if event == "SessionEnd":
        ms = _positive(env.get(SESSION_END_ENV))
        if ms is not None:
            by_event = ms / 1000.0
    if isinstance(spec, McpToolHookConfig):
        return min(by_event, MCP_TOOL_TIMEOUT)
    return by_event


def hook_timeout(spec: object, event: str, env: Mapping[str, str]) -> float:
    """The hook's own ``timeout`` when set, else :func:`default_timeout`."""
    own = getattr(spec, "timeout", None)
    return float(own) if own else default_timeout(spec, event, env)


def stop_block_cap(env: Mapping[str, str]) -> int:
    """``CLAUDE_CODE_STOP_HOOK_BLOCK_CAP`` when a positive integer, else 8."""
    value = _positive(env.get(STOP_HOOK_BLOCK_CAP_ENV, "").strip() or None)
    return int(value) if value is not None and value >= 1 else STOP_HOOK_BLOCK_CAP
