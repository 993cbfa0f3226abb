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
from typing import Protocol

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


class _Timed(Protocol):
    """A hook's settings, as far as its timeout goes."""

    @property
    def type(self) -> str: ...
    @property
    def timeout(self) -> float | None: ...


#: Hook types with a default of their own, whatever the event.
_TYPE_DEFAULTS: dict[str, float] = {"prompt": PROMPT_TIMEOUT, "agent": AGENT_TIMEOUT}
#: Hook types whose event default is capped.
_TYPE_CAPS: dict[str, float] = {"mcp_tool": MCP_TOOL_TIMEOUT}


def default_timeout(spec: _Timed, event: str, env: Mapping[str, str]) -> float:
    """The timeout (seconds) of a hook of ``spec``'s type on ``event`` with no ``timeout``."""
    own = _TYPE_DEFAULTS.get(spec.type)
    if own is not None:
        return own
    by_event = EVENT_TIMEOUTS.get(event, COMMAND_TIMEOUT)
    if event == "SessionEnd":
        ms = _positive(env.get(SESSION_END_ENV))
        if ms is not None:
            by_event = ms / 1000.0
    return min(by_event, _TYPE_CAPS.get(spec.type, by_event))


def hook_timeout(spec: _Timed, event: str, env: Mapping[str, str]) -> float:
    """The hook's own ``timeout`` when set, else :func:`default_timeout`."""
    return float(spec.timeout) if spec.timeout else default_timeout(spec, event, env)


def stop_block_cap(env: Mapping[str, str]) -> int:
    """``CLAUDE_CODE_STOP_HOOK_BLOCK_CAP`` when a positive integer, else 8."""
    value = _positive(env.get(STOP_HOOK_BLOCK_CAP_ENV, "").strip() or None)
    return int(value) if value is not None and value >= 1 else STOP_HOOK_BLOCK_CAP
