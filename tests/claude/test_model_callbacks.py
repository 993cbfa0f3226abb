"""prompt/agent hooks (unsupported without the agent; the model_runner seam) and callbacks."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from hookline.claude import (
    ClaudeHooks,
    HookSource,
    ModelHookCancelled,
    ModelHookRequest,
)
from hookline.settings.models import AgentHookConfig, MatcherConfig, PromptHookConfig

CALL = {"tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "toolu_9"}


def model_source(*specs: PromptHookConfig | AgentHookConfig) -> HookSource:
    return HookSource("user", Path("/u.json"), {"PreToolUse": [MatcherConfig(hooks=list(specs))]})


PROMPT = PromptHookConfig(type="prompt", prompt="Is $ARGUMENTS safe?")
AGENT = AgentHookConfig(type="agent", prompt="Check the change")


async def test_model_hooks_unsupported_outside_the_agent(tmp_path: Path) -> None:
    blocking = PromptHookConfig(type="prompt", prompt="other", blocking=True)
    hooks = ClaudeHooks([model_source(PROMPT, AGENT, blocking)], project_dir=tmp_path)
    run = await hooks.engine.run("PreToolUse", dict(CALL))
    assert [(o.kind, o.reason) for o in run.outcomes] == [
        ("non_blocking_error", "prompt hooks are unsupported outside the agent"),
        ("non_blocking_error", "agent hooks are unsupported outside the agent"),
        ("non_blocking_error", "prompt hooks are unsupported outside the agent"),
    ]


async def test_model_runner_seam(tmp_path: Path) -> None:
    seen: list[ModelHookRequest] = []

    async def runner(req: ModelHookRequest) -> dict[str, Any]:
        seen.append(req)
        return {"ok": False, "reason": "looks risky"} if req.hook.type == "prompt" else {"ok": True}

    hooks = ClaudeHooks([model_source(PROMPT, AGENT)], project_dir=tmp_path, model_runner=runner)
    run = await hooks.engine.run("PreToolUse", dict(CALL))
    assert [(o.kind, o.reason) for o in run.outcomes] == [
        ("blocking", "looks risky"),
        ("success", None),
    ]
    assert '"tool_name": "Bash"' in seen[0].prompt and seen[0].prompt.startswith("Is {")
    assert seen[1].max_turns == 50 and seen[1].timeout == 60.0 and seen[0].timeout == 30.0
    assert run.verdict.blocked


@pytest.mark.parametrize(("blocking", "kind"), [(False, "non_blocking_error"), (True, "blocking")])
async def test_invalid_model_output(tmp_path: Path, blocking: bool, kind: str) -> None:
    async def runner(req: ModelHookRequest) -> dict[str, Any]:
        return {"answer": 42}

    spec = PromptHookConfig(type="prompt", prompt="p", blocking=blocking)
    hooks = ClaudeHooks([model_source(spec)], project_dir=tmp_path, model_runner=runner)
    (o,) = (await hooks.engine.run("PreToolUse", dict(CALL))).outcomes
    assert o.kind == kind and o.reason is not None and "invalid output" in o.reason


async def test_model_runner_cancel_and_timeout(tmp_path: Path) -> None:
    async def runner(req: ModelHookRequest) -> dict[str, Any]:
        if req.hook.type == "agent":
            raise ModelHookCancelled("agent hook exceeded 50 turns")
        await asyncio.sleep(10)
        return {"ok": True}

    fast = PromptHookConfig(type="prompt", prompt="p", timeout=0.1)
    hooks = ClaudeHooks([model_source(fast, AGENT)], project_dir=tmp_path, model_runner=runner)
    run = await hooks.engine.run("PreToolUse", dict(CALL))
    assert [(o.kind, o.reason) for o in run.outcomes] == [
        ("cancelled", "prompt hook timed out after 0.1s"),
        ("cancelled", "agent hook exceeded 50 turns"),
    ]


async def test_callbacks_sdk_style(tmp_path: Path) -> None:
    calls: list[tuple[dict[str, Any], str | None]] = []

    async def deny_rm(data: dict[str, Any], tool_use_id: str | None, ctx: Any) -> dict[str, Any]:
        calls.append((data, tool_use_id))
        return {
            "continue_": True,
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": "no",
            },
        }

    def sync_none(data: dict[str, Any], tool_use_id: str | None, ctx: Any) -> None:
        return None

    hooks = ClaudeHooks(project_dir=tmp_path)
    hooks.add_callback("PreToolUse", deny_rm, matcher="Bash")
    hooks.add_callback("PreToolUse", sync_none)
    hooks.add_callback("PreToolUse", deny_rm, matcher="Edit")
    run = await hooks.engine.run("PreToolUse", dict(CALL))
    assert [(o.kind, o.reason) for o in run.outcomes] == [("blocking", "no"), ("success", None)]
    assert calls[0][1] == "toolu_9" and calls[0][0]["hook_event_name"] == "PreToolUse"
    assert run.outcomes[0].hook_id.startswith("callback:test_callbacks_sdk_style.<locals>.deny_rm")


async def test_callback_failures(tmp_path: Path) -> None:
    def boom(data: dict[str, Any], tid: str | None, ctx: Any) -> dict[str, Any]:
        raise RuntimeError("kaput")

    async def slow(data: dict[str, Any], tid: str | None, ctx: Any) -> dict[str, Any]:
        await asyncio.sleep(5)
        return {}

    def wrong(data: dict[str, Any], tid: str | None, ctx: Any) -> str:
        return "yes"

    hooks = ClaudeHooks(project_dir=tmp_path)
    hooks.add_callback("Stop", boom)
    hooks.add_callback("Stop", slow, timeout=0.1)
    hooks.add_callback("Stop", wrong)
    run = await hooks.engine.run("Stop", {"stop_hook_active": False})
    assert [(o.kind, o.reason) for o in run.outcomes] == [
        ("non_blocking_error", "callback raised RuntimeError: kaput"),
        ("cancelled", "callback timed out after 0.1s"),
        ("non_blocking_error", "callback returned str, expected a dict or None"),
    ]
