"""The agent's side of Claude ``prompt`` and ``agent`` hooks.

A prompt hook is one model call that must answer ``{"ok": bool, "reason"?}``.
An agent hook is a restricted sub-agent: read-only tools, no hooks of its own
(a hook must not trigger hooks), and it must finish by calling the
``hook_result`` tool; past its turn budget it is cancelled. Sub-agents are
announced with ``subagent_start`` / ``subagent_stop``.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from hookline.agent.provider import ModelRequest, Provider, ToolSpec
from hookline.claude.model_hooks import ModelHookCancelled, ModelHookRequest
from hookline.core.events import Event, SubagentStartEvent, SubagentStopEvent
from hookline.core.messages import (
    AssistantMessage,
    Message,
    ToolResultMessage,
    content_text,
    tool_calls,
    user_message,
)
from hookline.core.tool import Tool
from hookline.tools import builtin_tools

PROMPT_SYSTEM = (
    "You evaluate a condition for a hook. Reply with one JSON object only: "
    '{"ok": true} when the condition holds, or {"ok": false, "reason": "why"}.'
)
AGENT_SYSTEM = (
    "You are a read-only verification agent run by a hook. Inspect files with the tools, "
    "then call hook_result exactly once with ok and, when not ok, a reason."
)
READ_ONLY = ("read", "ls", "find", "grep")
_RESULT_TOOL = ToolSpec(
    "hook_result",
    "Finish: report whether the hook's condition holds.",
    {
        "type": "object",
        "properties": {"ok": {"type": "boolean"}, "reason": {"type": "string"}},
        "required": ["ok"],
    },
)


def _parse_json_object(text: str) -> dict[str, Any]:
    match = re.search(r"\{.*\}", text, re.S)
    if not match:
        raise ValueError(f"the model did not answer with a JSON object: {text[:200]!r}")
    value = json.loads(match.group(0))
    if not isinstance(value, dict):
        raise ValueError("the model's answer is not a JSON object")
    return value


class ModelHookHost(Protocol):
    """What prompt and agent hooks need of the agent: its model now, its event stream."""

    provider: Provider

    def emit(self, event: Event) -> Awaitable[Any]: ...


class ModelHookRunner:
    """``ClaudeHooks``' ``ModelRunner``: runs prompt and agent hooks on the agent's current
    model. The Claude layer is built before the agent, so the agent is given by ``bind``;
    no hook runs before then."""

    def __init__(self, cwd: str) -> None:
        self.cwd = cwd
        self._host: ModelHookHost | None = None

    def bind(self, host: ModelHookHost) -> None:
        self._host = host

    async def __call__(self, request: ModelHookRequest) -> dict[str, Any]:
        if self._host is None:
            raise RuntimeError("a model hook ran before the agent was built")
        model = self._host.provider
        if request.max_turns is None:
            reply = await model.complete(
                ModelRequest(PROMPT_SYSTEM, [user_message(request.prompt)], [])
            )
            return _parse_json_object(content_text(reply["content"]))
        return await _run_agent(model, request, self.cwd, self._host.emit)


async def _run_agent(
    model: Provider,
    request: ModelHookRequest,
    cwd: str,
    emit: Callable[[Event], Awaitable[Any]],
) -> dict[str, Any]:
    agent_id = f"hook-{uuid.uuid4().hex[:8]}"
    await emit(SubagentStartEvent(agent_id=agent_id, agent_type="hook_agent"))
    tools: dict[str, Tool] = {t.name: t for t in builtin_tools(cwd) if t.name in READ_ONLY}
    specs = [ToolSpec(t.name, t.description, t.parameters) for t in tools.values()]
    specs.append(_RESULT_TOOL)
    messages: list[Message] = [user_message(request.prompt)]
    last: AssistantMessage | None = None
    try:
        for _ in range(request.max_turns or 50):
            reply = await model.complete(ModelRequest(AGENT_SYSTEM, messages, specs))
            messages.append(reply)
            last = reply
            calls = tool_calls(reply)
            if not calls:
                messages.append(user_message("Call hook_result to finish."))
                continue
            for call in calls:
                if call["name"] == "hook_result":
                    return dict(call["arguments"])
                messages.append(await _run_tool(tools, call["name"], call["id"], call["arguments"]))
        raise ModelHookCancelled(
            f"agent hook did not call hook_result within {request.max_turns or 50} turns"
        )
    finally:
        await emit(
            SubagentStopEvent(
                agent_id=agent_id,
                agent_type="hook_agent",
                stop_hook_active=False,
                last_message=last,
            )
        )


async def _run_tool(
    tools: dict[str, Tool], name: str, call_id: str, args: dict[str, Any]
) -> ToolResultMessage:
    tool = tools.get(name)
    try:
        if tool is None:
            raise LookupError(f"tool {name!r} is not available to a hook agent (read-only)")
        result = await tool.execute(call_id, args, None, None)
        content, is_error = result.content, result.is_error
    except Exception as exc:
        content, is_error = [{"type": "text", "text": str(exc)}], True
    return {
        "role": "tool",
        "tool_call_id": call_id,
        "tool_name": name,
        "content": content,
        "is_error": is_error,
    }
