"""``callback`` hooks: Python callables registered in code, Claude Agent SDK style.

``fn(input_data, tool_use_id, context)`` gets the same input dict a command
hook reads on stdin and returns the JSON object a command hook would print
(or ``None``). The Python SDK's ``continue_``/``async_`` spellings are
accepted. A callback that raises, times out or returns a non-dict is reported
like a failing command hook (``non_blocking_error`` / ``cancelled``) — Claude
semantics, fail open; hookline's module hooks are the fail-closed path.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from dataclasses import dataclass
from typing import Any

from hookline.claude.config import CallbackHookConfig, HookDefinition
from hookline.claude.outcome import Outcome, apply_output, new_outcome

DEFAULT_CALLBACK_TIMEOUT = 60.0


@dataclass(frozen=True, slots=True)
class CallbackContext:
    """The SDK's ``HookContext``: a ``signal`` that is set when the run is aborted."""

    signal: asyncio.Event | None = None


def _normalise(value: dict[str, Any]) -> dict[str, Any]:
    return {k[:-1] if k in ("continue_", "async_") else k: v for k, v in value.items()}


async def run_callback_hook(
    hook: HookDefinition,
    payload: dict[str, Any],
    tool_use_id: str | None,
    signal: asyncio.Event | None = None,
) -> Outcome:
    """Call the callable under its timeout; never raises."""
    spec = hook.spec
    assert isinstance(spec, CallbackHookConfig)
    timeout = spec.timeout or DEFAULT_CALLBACK_TIMEOUT
    started = time.monotonic()
    out = new_outcome(hook, "success", None)
    try:
        value = spec.fn(dict(payload), tool_use_id, CallbackContext(signal))
        if inspect.isawaitable(value):
            value = await asyncio.wait_for(value, timeout)
    except TimeoutError:
        out.kind, out.reason = "cancelled", f"callback timed out after {timeout:g}s"
    except Exception as exc:
        out.kind, out.reason = "non_blocking_error", f"callback raised {type(exc).__name__}: {exc}"
    else:
        if isinstance(value, dict):
            apply_output(out, _normalise(value))
        elif value is not None:
            out.kind = "non_blocking_error"
            out.reason = f"callback returned {type(value).__name__}, expected a dict or None"
    out.duration = time.monotonic() - started
    return out
