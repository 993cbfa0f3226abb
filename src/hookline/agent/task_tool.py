"""The ``task`` tool: Claude Code's Task/Agent tool, a sub-agent run inside one tool call.

The model passes ``description``, ``prompt`` and an optional ``subagent_type``
(``general-purpose`` or a type from ``.claude/agents``). The sub-agent gets
its own conversation, its type's system prompt and tools, and the agent's
model unless its type names another. It cannot start sub-agents itself.

Every tool call it makes goes through the agent's own ``ToolExecution`` — the same
pipeline as the main agent's calls: module ``tool_call`` hooks, settings
PreToolUse hooks, the permission gate (rules, mode, asking), the tool, the
result hooks. Nothing is bypassed; the events carry ``agent_id`` and
``agent_type`` so hooks can tell. ``subagent_start`` is emitted before its
first model call and ``subagent_stop`` when it is about to answer; a
SubagentStop hook that blocks sends it on with the reason (at most
``MAX_STOP_CONTINUATIONS`` times). The final text is the tool's result.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Protocol

from hookline.agent.provider import ModelRequest, Provider, ProviderError, ToolSpec
from hookline.agent.providers.retry import complete_with_retry
from hookline.agent.steps import ToolExecution
from hookline.agent.subagents import GENERAL_PURPOSE, AgentDefinition, AgentTypes
from hookline.core.events import Event, SubagentStartEvent, SubagentStopEvent
from hookline.core.messages import (
    AssistantMessage,
    Message,
    content_text,
    text,
    tool_calls,
    user_message,
)
from hookline.core.pipeline import Denial, SubagentRef
from hookline.core.tool import Tool, ToolError, ToolResult, ToolUpdate

TASK_TOOL_NAME = "task"
MAX_STOP_CONTINUATIONS = 5


class SubagentHost(Protocol):
    """What the task tool needs from the agent that runs it (the ``Agent``)."""

    provider: Provider
    tools: dict[str, Tool]
    tool_execution: ToolExecution
    base_system_prompt: str
    denials: list[Denial]
    #: builds the model a sub-agent type names (None: no type may name one)
    make_provider: Callable[[str], Provider] | None

    def emit(self, event: Event) -> Awaitable[Any]: ...


def task_tool(host: SubagentHost, types: AgentTypes) -> Tool:
    """The ``task`` tool of the agent ``host``: sub-agents of the given types."""
    runner = _TaskRunner(host, types.by_name)
    listing = "\n".join(f"- {d.name}: {d.description}" for d in types.by_name.values())
    return Tool(
        name=TASK_TOOL_NAME,
        description=(
            "Launch a sub-agent to handle a task on its own, with its own context; it "
            "returns its final answer. Available agent types:\n" + listing
        ),
        parameters={
            "type": "object",
            "properties": {
                "description": {"type": "string", "description": "A short (3-5 word) summary"},
                "prompt": {"type": "string", "description": "The task for the sub-agent"},
                "subagent_type": {
                    "type": "string",
                    "description": f"The agent type to use (default {GENERAL_PURPOSE})",
                },
            },
            "required": ["description", "prompt"],
        },
        execute=runner.execute,
        label="Task",
    )


class _TaskRunner:
    def __init__(self, host: SubagentHost, types: Mapping[str, AgentDefinition]) -> None:
        self.host = host
        self.types = types

    async def execute(
        self,
        tool_call_id: str,
        params: dict[str, Any],
        signal: asyncio.Event | None,
        on_update: ToolUpdate | None,
    ) -> ToolResult:
        prompt = params.get("prompt")
        if not isinstance(prompt, str) or not prompt.strip():
            raise ToolError("task needs a non-empty `prompt`")
        kind = params.get("subagent_type") or GENERAL_PURPOSE
        definition = self.types.get(kind) if isinstance(kind, str) else None
        if definition is None:
            known = ", ".join(sorted(self.types))
            raise ToolError(f"unknown subagent_type {kind!r}; available: {known}")
        agent = self.host
        provider = agent.provider
        if definition.model is not None:
            try:
                if agent.make_provider is None:
                    raise RuntimeError("this agent has no provider factory")
                provider = agent.make_provider(definition.model)
            except Exception as exc:  # a bad model in the type file: the model should know
                raise ToolError(f"sub-agent {definition.name}: model: {exc}") from None
        ref = SubagentRef(f"agent-{uuid.uuid4().hex[:12]}", definition.name)
        await agent.emit(SubagentStartEvent(agent_id=ref.agent_id, agent_type=ref.agent_type))
        run = _Subagent(agent, provider, definition, ref, signal or asyncio.Event())
        answer, turns = await run.loop(prompt)
        return ToolResult(
            [text(answer)],
            {"agent_id": ref.agent_id, "agent_type": ref.agent_type, "turns": turns},
        )


class _Subagent:
    """One sub-agent conversation: model turns, its tool calls through the agent's step."""

    def __init__(
        self,
        agent: SubagentHost,
        provider: Provider,
        definition: AgentDefinition,
        ref: SubagentRef,
        signal: asyncio.Event,
    ) -> None:
        self.agent = agent
        self.provider = provider
        self.definition = definition
        self.ref = ref
        self.signal = signal
        self.tools = {n: t for n, t in agent.tools.items() if definition.allows(n)}
        self.system = definition.system_prompt or agent.base_system_prompt

    async def loop(self, prompt: str) -> tuple[str, int]:
        messages: list[Message] = [user_message(prompt)]
        specs = [ToolSpec(t.name, t.description, t.parameters) for t in self.tools.values()]
        continuations = 0
        last: AssistantMessage | None = None
        for turn in range(1, self.definition.max_turns + 1):
            reply = await self._complete(
                ModelRequest(self.system, list(messages), specs, signal=self.signal)
            )
            messages.append(reply)
            last = reply
            calls = tool_calls(reply)
            if reply.get("stop_reason") in ("error", "aborted") or self.signal.is_set():
                await self._stop(continuations > 0, reply)
                raise ToolError(
                    f"sub-agent {self.ref.agent_type} ended early: "
                    f"{reply.get('error') or reply.get('stop_reason')}"
                )
            if calls:
                for call in calls:
                    if self.signal.is_set():
                        break
                    result, denial = await self.agent.tool_execution.run(
                        call, self.tools, self.signal, self.ref
                    )
                    if denial is not None:  # the run's summary lists a sub-agent's too
                        self.agent.denials.append(denial)
                    messages.append(result)
                continue
            answer = content_text(reply["content"])
            verdict = await self._stop(continuations > 0, reply)
            if verdict is not None and continuations < MAX_STOP_CONTINUATIONS:
                continuations += 1
                messages.append(user_message(verdict))
                continue
            return answer, turn
        await self._stop(continuations > 0, last)
        raise ToolError(
            f"sub-agent {self.ref.agent_type} did not finish within "
            f"{self.definition.max_turns} turns"
        )

    async def _complete(self, request: ModelRequest) -> AssistantMessage:
        try:
            return await complete_with_retry(self.provider, request)
        except ProviderError as exc:
            await self._stop(False)
            raise ToolError(f"sub-agent {self.ref.agent_type}: model error: {exc}") from None

    async def _stop(self, active: bool, last: AssistantMessage | None = None) -> str | None:
        """``subagent_stop`` (``last``: the sub-agent's final reply); the reason to go on
        when a hook blocks, else ``None``."""
        result = await self.agent.emit(
            SubagentStopEvent(
                agent_id=self.ref.agent_id,
                agent_type=self.ref.agent_type,
                stop_hook_active=active,
                last_message=last,
            )
        )
        from hookline.core.results import StopResult  # here: sub-agents are rare

        if isinstance(result, StopResult) and result.block:
            return result.reason or "A SubagentStop hook asked the sub-agent to continue."
        return None
