"""Settings hooks by Claude Code event: which events fire, what hookline sends them and reads.

Each event that fires has an example settings file (``examples/settings-events/``) and a
*scenario*: how to make hookline fire it in a ``HookHarness`` (the bus event to emit, or
the call the agent makes). The scenario runs the example; the reference lists the input
fields a recording callback saw there, so the page shows what the engine really sends.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hookline.authoring.harness import HookHarness
from hookline.claude.adapter import BUS_EVENTS, HANDLERS, UNBOUND_EVENTS, ClaudeHooks
from hookline.claude.names import NEVER_FIRES
from hookline.settings.models import CLAUDE_EVENTS
from tools.reference.facts import ROOT

SETTINGS_EXAMPLES = ROOT / "examples" / "settings-events"

_TEXT = [{"type": "text", "text": "ok"}]
_ASSISTANT = {"role": "assistant", "content": [{"type": "text", "text": "done"}]}


async def _bash_call(h: HookHarness) -> Any:
    return await h.tool_call("bash", {"command": "git push --force"})


async def _bash_result(h: HookHarness) -> Any:
    return await h.emit("tool_result", tool_name="bash", input={"command": "ls"}, content=_TEXT)


async def _failed_read(h: HookHarness) -> Any:
    content = [{"type": "text", "text": "no such file"}]
    return await h.emit(
        "tool_result", tool_name="read", input={"path": "x"}, content=content, is_error=True
    )


async def _turn_with_tools(h: HookHarness) -> Any:
    call = {"type": "toolCall", "id": "c1", "name": "bash", "arguments": {"command": "ls"}}
    message = {"role": "assistant", "content": [call]}
    result = {"role": "tool", "tool_call_id": "c1", "tool_name": "bash", "content": _TEXT}
    return await h.emit("turn_end", turn_index=0, message=message, tool_results=[result])


async def _failed_turn(h: HookHarness) -> Any:
    message = {**_ASSISTANT, "stop_reason": "error", "error": "529 overloaded"}
    return await h.emit("turn_end", turn_index=0, message=message)


async def _denied(h: HookHarness) -> Any:
    assert h.claude is not None
    context = h.runner.context
    return await h.claude.permission_denied("bash", "c1", {"command": "rm x"}, "denied", context)


async def _settings_changed(h: HookHarness) -> Any:
    assert h.claude is not None
    settings = Path(h.cwd, ".claude", "settings.json")
    settings.parent.mkdir(exist_ok=True)
    h.claude.watch_settings([(str(settings), "project")])
    settings.write_text("{}")
    return await h.emit("turn_start", turn_index=1)


async def _env_changed(h: HookHarness) -> Any:
    Path(h.cwd, ".env").write_text("PORT=8080\n")
    return await h.emit("turn_start", turn_index=1)


def _emit(event: str, **fields: Any) -> Callable[[HookHarness], Awaitable[Any]]:
    async def run(h: HookHarness) -> Any:
        return await h.emit(event, fields)

    return run


#: Claude event → how the harness makes hookline fire it.
SCENARIOS: dict[str, Callable[[HookHarness], Awaitable[Any]]] = {
    "PreToolUse": _bash_call,
    "PostToolUse": _bash_result,
    "PostToolUseFailure": _failed_read,
    "PostToolBatch": _turn_with_tools,
    "PermissionRequest": _emit("permission_request", tool_name="read", input={"path": "a"}),
    "PermissionDenied": _denied,
    "UserPromptSubmit": _emit("input", text="my password is hunter2"),
    "Notification": _emit("notification", message="needs you", notification_type="idle_prompt"),
    "Stop": _emit("stop", last_message=_ASSISTANT),
    "StopFailure": _failed_turn,
    "SubagentStart": _emit("subagent_start", agent_id="a1", agent_type="explore"),
    "SubagentStop": _emit("subagent_stop", agent_id="a1", agent_type="explore"),
    "SessionStart": _emit("session_start", source="startup"),
    "SessionEnd": _emit("session_shutdown", reason="quit"),
    "PreCompact": _emit("session_before_compact", trigger="manual"),
    "PostCompact": _emit("session_compact", summary="s", trigger="auto"),
    "InstructionsLoaded": _emit(
        "instructions_loaded",
        file_path="CLAUDE.md",
        memory_type="Project",
        load_reason="session_start",
    ),
    "ConfigChange": _settings_changed,
    "FileChanged": _env_changed,
}


def firing() -> list[str]:
    """The Claude events hookline fires, in the settings schema's order."""
    return [e for e in CLAUDE_EVENTS if e not in NEVER_FIRES and e not in UNBOUND_EVENTS]


def settings_example(event: str) -> Path:
    return SETTINGS_EXAMPLES / f"{event}.json"


def bus_events_of(event: str) -> list[str]:
    """The module events whose moment fires ``event``."""
    return [bus for bus, claudes in BUS_EVENTS.items() if event in claudes]


def behaviour(event: str) -> str:
    """What hookline does with ``event``'s answer: the paragraph of the adapter's handler
    (or ``ClaudeHooks.permission_denied``) that starts with ``event``'s name."""
    handlers: list[Any] = [HANDLERS[b] for b in bus_events_of(event)]
    handlers.append(ClaudeHooks.permission_denied)
    mark = f"``{event}``:"
    for fn in handlers:
        for paragraph in _paragraphs(fn.__doc__):
            if paragraph.startswith(mark):
                return paragraph[len(mark) :].strip()
    return ""


def _paragraphs(doc: str | None) -> list[str]:
    import inspect

    return [" ".join(p.split()) for p in inspect.cleandoc(doc or "").split("\n\n")]


@dataclass(frozen=True, slots=True)
class Run:
    """One scenario's run: what it returned and the input the hooks were given."""

    returned: Any
    input: dict[str, Any]
    harness: HookHarness


async def run_example(event: str, cwd: str | os.PathLike[str]) -> Run:
    """Fire ``event`` with its example settings file loaded (plus a recording callback)."""
    harness = HookHarness(cwd).use_settings(settings_example(event))
    assert harness.claude is not None
    seen: list[dict[str, Any]] = []

    async def record(data: dict[str, Any], tool_use_id: str | None, context: Any) -> dict[str, Any]:
        seen.append(data)
        return {}

    harness.claude.add_callback(event, record)
    returned = await SCENARIOS[event](harness)
    if not seen:
        raise RuntimeError(f"{event}: the scenario did not fire it")
    return Run(returned, seen[0], harness)


def input_fields(event: str) -> dict[str, Any]:
    """The input ``event``'s hooks get (a sample), by running its scenario in a scratch dir."""
    with tempfile.TemporaryDirectory() as cwd:
        return asyncio.run(run_example(event, os.path.realpath(cwd))).input
