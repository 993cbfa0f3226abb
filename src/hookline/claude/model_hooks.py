"""``prompt`` and ``agent`` hooks: configured and deduped like the rest, run by the agent.

They need a model, so they run through a ``ModelRunner`` the agent provides
(``ClaudeHooks(model_runner=...)``). Without one — a library embedder, the
non-REPL paths — each returns a ``non_blocking_error`` saying the hook type is
unsupported outside the agent, as Claude Code's non-REPL executor does; a
hook marked ``blocking`` does not change that (nothing was evaluated, so
there is nothing to block on).

With a runner: ``{"ok": true}`` is success, ``{"ok": false, "reason": ...}``
blocks with the reason; output of any other shape is a non-blocking error
unless the hook is marked ``blocking``. The runner raises ``ModelHookCancelled``
(e.g. the agent hook's 50-turn guard) for a ``cancelled`` outcome.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from hookline.claude.config import HookDefinition
from hookline.claude.outcome import Outcome, new_outcome
from hookline.claude.timeouts import hook_timeout
from hookline.settings.models import AgentHookConfig, PromptHookConfig


class ModelHookCancelled(Exception):
    """Raised by a model runner that stopped a hook (turn limit, abort): outcome ``cancelled``."""


@dataclass(frozen=True, slots=True)
class ModelHookRequest:
    """What the agent needs to evaluate one prompt/agent hook."""

    hook: HookDefinition
    event: str
    prompt: str  # the configured prompt with ``$ARGUMENTS`` replaced by the input JSON
    payload: dict[str, Any]
    model: str | None
    max_turns: int | None  # agent hooks only
    timeout: float
    #: Output that is not ``{ok, reason}`` blocks instead of being reported.
    blocking: bool = False


ModelRunner = Callable[[ModelHookRequest], Awaitable[dict[str, Any]]]


def build_request(hook: HookDefinition, payload: dict[str, Any]) -> ModelHookRequest:
    spec = hook.spec
    assert isinstance(spec, PromptHookConfig | AgentHookConfig)
    args = json.dumps(payload)
    prompt = (
        spec.prompt.replace("$ARGUMENTS", args)
        if "$ARGUMENTS" in spec.prompt
        else (f"{spec.prompt}\n\n{args}")
    )
    return ModelHookRequest(
        hook,
        hook.event,
        prompt,
        payload,
        spec.model,
        spec.max_turns if isinstance(spec, AgentHookConfig) else None,
        hook_timeout(spec, hook.event, {}),  # prompt and agent: not the event's default
        spec.blocking,
    )


async def run_model_hook(
    hook: HookDefinition, payload: dict[str, Any], runner: ModelRunner | None
) -> Outcome:
    """Evaluate one prompt/agent hook; never raises."""
    started = time.monotonic()
    result = await _evaluate(hook, payload, runner)
    result.duration = time.monotonic() - started
    return result


async def _evaluate(
    hook: HookDefinition, payload: dict[str, Any], runner: ModelRunner | None
) -> Outcome:
    if runner is None:
        unsupported = f"{hook.type} hooks are unsupported outside the agent"
        return new_outcome(hook, "non_blocking_error", unsupported)
    request = build_request(hook, payload)
    try:
        value = await asyncio.wait_for(runner(request), request.timeout)
    except TimeoutError:
        return new_outcome(
            hook, "cancelled", f"{hook.type} hook timed out after {request.timeout:g}s"
        )
    except ModelHookCancelled as exc:
        return new_outcome(hook, "cancelled", str(exc) or f"{hook.type} hook cancelled")
    except Exception as exc:
        return new_outcome(hook, "non_blocking_error", f"{hook.type} hook failed: {exc}")
    ok = value.get("ok") if isinstance(value, dict) else None
    raw_reason = value.get("reason") if isinstance(value, dict) else None
    if not isinstance(ok, bool) or (raw_reason is not None and not isinstance(raw_reason, str)):
        blocking = request.blocking
        why = f"{hook.type} hook returned invalid output {value!r}, expected {{ok, reason?}}"
        return new_outcome(hook, "blocking" if blocking else "non_blocking_error", why)
    reason: str | None = raw_reason
    out = new_outcome(hook, "success" if ok else "blocking", reason)
    out.output = value
    if not ok:
        out.decision, out.decision_reason = "block", reason
        out.reason = reason or f"{hook.type} hook said no"
    return out
