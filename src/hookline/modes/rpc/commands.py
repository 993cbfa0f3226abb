"""The commands: one handler per command name, in one table (``COMMANDS``).

A handler gets the server (what it may use of it: ``Server``) and the
command, reads the command's fields with ``protocol``'s readers, and returns
the response's ``data``; a ``ValueError`` (a bad field, nothing to do) is the
error response. pi's commands keep pi's names and fields (camelCase);
hookline's own follow them in the table.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Protocol

from hookline.agent.agent import QUEUE_MODES, THINKING_LEVELS, Agent
from hookline.agent.model_catalog import ModelCatalog, ModelEntry
from hookline.agent.permissions import PERMISSION_MODES
from hookline.core.messages import Content, content_text, user_message
from hookline.modes.rpc.events import wire_message, wire_usage
from hookline.modes.rpc.protocol import (
    Request,
    boolean,
    image_blocks,
    optional_string,
    string,
)


class Server(Protocol):
    """What a handler may use of the server that runs it."""

    @property
    def agent(self) -> Agent: ...

    @property
    def catalog(self) -> ModelCatalog:
        """The models ``get_available_models`` lists and ``cycle_model`` goes through."""
        ...

    @property
    def make_provider(self) -> Callable[[str], Any] | None:
        """Builds a provider for a model spec; ``None``: the model cannot change."""
        ...

    @property
    def bash_signals(self) -> set[asyncio.Event]:
        """The stop signals of running ``bash`` commands."""
        ...

    def respond(
        self, command: str, request_id: Any, data: Any = None, error: str | None = None
    ) -> None: ...

    def track(self, task: asyncio.Task[Any], kind: str) -> None:
        """Work a command leaves running: abort and EOF wait for it."""

    async def abort_running(self) -> dict[str, int]: ...


#: A command's handler: its response's ``data`` (or ``ANSWERED``).
Handler = Callable[[Server, Request], Awaitable[Any]]


#: A handler that answered its command itself (``prompt`` answers before its run ends).
ANSWERED = object()


async def _prompt(s: Server, m: Request) -> Any:
    """pi's ``prompt``: answered at once, events stream; a later failure is a second response.

    ``/name args`` runs a hook command (even while streaming); while a run
    streams, a plain prompt needs ``streamingBehavior`` ``steer`` or ``followUp``.
    """
    text, images = string(m, "message"), image_blocks(m)
    behavior = optional_string(m, "streamingBehavior")
    if behavior not in (None, "steer", "followUp"):
        raise ValueError('"streamingBehavior" must be "steer" or "followUp"')
    name, _, args = text[1:].partition(" ")
    command = s.agent.runner.get_command(name) if text.startswith("/") else None
    if command is None and s.agent.is_streaming and behavior is None:
        raise ValueError(
            'the agent is streaming: send "streamingBehavior": "steer" or "followUp" '
            "(or use the steer / follow_up commands)"
        )
    s.respond("prompt", m.get("id"))
    if command is not None:
        await s.agent.runner.run_command(name, args)
    elif behavior == "followUp" and s.agent.is_streaming:
        await _follow_up(s, m)
    else:
        await s.agent.prompt(text, images=images, source="rpc")
    return ANSWERED


async def _steer(s: Server, m: Request) -> Any:
    """Delivered at the end of the current turn (a new run when idle)."""
    text, images = string(m, "message"), image_blocks(m)
    s.agent.send(text, images)
    return None


async def _follow_up(s: Server, m: Request) -> Any:
    """Delivered when the agent would stop (``set_follow_up_mode``: all at once or one per
    stop); when idle, a run of its own."""
    text, images = string(m, "message"), image_blocks(m)
    if s.agent.is_streaming:
        content: list[Content] = [{"type": "text", "text": text}, *images]
        s.agent.deliver(user_message(content), "follow_up", True)
    else:
        s.track(
            asyncio.ensure_future(s.agent.prompt(text, images=images, source="rpc")), "follow_up"
        )
    return None


async def _abort(s: Server, m: Request) -> Any:
    return await s.abort_running()


def _current(s: Server) -> ModelEntry:
    return s.catalog.entry(s.agent.provider.model_id)


async def _state(s: Server, m: Request) -> Any:
    a = s.agent
    state: dict[str, Any] = {
        "model": _current(s).to_pi(),
        "thinkingLevel": a.get_thinking_level(),
        "isStreaming": a.is_streaming,
        "isCompacting": False,
        "steeringMode": a.steering_mode,
        "followUpMode": a.follow_up_mode,
        "sessionFile": a.session.get_session_file(),
        "sessionId": a.session.get_session_id(),
        "autoCompactionEnabled": a.compaction.auto_compact,
        "messageCount": len(a.session.build_context_messages()),
        "pendingMessageCount": a.pending_message_count(),
        # hookline's own fields
        "autoRetryEnabled": a.retry.enabled,  # pi's AgentSession.autoRetryEnabled
        "leafId": a.session.get_leaf_id(),
        "permissionMode": a.gate.mode,
        "turnIndex": a.turn_index,
        # Disk full or a size limit: the run goes on in memory; these entries are not saved.
        "unsavedEntryIds": a.session.unsaved_entry_ids,
        "saveError": str(a.session.save_error) if a.session.save_error else None,
    }
    name = a.get_session_name()  # the name hooks give with pi.set_session_name, too
    if name is not None:
        state["sessionName"] = name
    return state


async def _messages(s: Server, m: Request) -> Any:
    return {"messages": [wire_message(x) for x in s.agent.session.build_context_messages()]}


async def _new_session(s: Server, m: Request) -> Any:
    parent = optional_string(m, "parentSession")
    return {"cancelled": not await s.agent.new_session(parent)}


async def _switch(s: Server, m: Request) -> Any:
    return {"cancelled": not await s.agent.switch_session(string(m, "sessionPath"))}


async def _branch(s: Server, m: Request) -> Any:
    turn = m.get("turnIndex")
    if turn is not None and (isinstance(turn, bool) or not isinstance(turn, int)):
        raise ValueError('"turnIndex" must be an integer')
    entry = optional_string(m, "entryId")
    return {"cancelled": not await s.agent.branch(turn, entry)}


def _user_text(entry: Mapping[str, Any]) -> str | None:
    message = entry.get("message") if entry.get("type") == "message" else None
    if not isinstance(message, dict) or message.get("role") != "user":
        return None
    return content_text(message["content"])


async def _fork(s: Server, m: Request) -> Any:
    """pi forks *before* a user message: the new session ends at its parent."""
    entry_id = optional_string(m, "entryId")
    if entry_id is None:
        text, done = "", await s.agent.fork()
    else:
        entry = s.agent.session.get_entry(entry_id)
        found = _user_text(entry) if entry is not None else None
        if found is None:
            raise ValueError(f"no user message with entryId {entry_id[:80]!r}")
        text, done = found, await s.agent.fork_before(entry_id)
    return {"text": text, "cancelled": not done, "sessionFile": s.agent.session.get_session_file()}


async def _fork_messages(s: Server, m: Request) -> Any:
    found = []
    for entry in s.agent.session.get_branch():
        text = _user_text(entry)
        if text is not None:
            found.append({"entryId": entry["id"], "text": text})
    return {"messages": found}


async def _last_text(s: Server, m: Request) -> Any:
    for message in reversed(s.agent.session.build_context_messages()):
        if message["role"] == "assistant":
            return {"text": content_text(message["content"])}
    return {"text": None}


async def _tree(s: Server, m: Request) -> Any:
    return {"cancelled": not await s.agent.navigate_tree(string(m, "targetId"))}


async def _compact(s: Server, m: Request) -> Any:
    before = len(s.agent.session.get_entries())
    if not await s.agent.compact(optional_string(m, "customInstructions")):
        raise ValueError("nothing was compacted (too little to summarise, or a hook cancelled)")
    added = s.agent.session.get_entries()[before:]
    entry = next((e for e in reversed(added) if e["type"] == "compaction"), None)
    if entry is None:
        return {"summary": "", "firstKeptEntryId": None, "tokensBefore": 0, "details": {}}
    return {
        "summary": entry.get("summary", ""),
        "firstKeptEntryId": entry.get("first_kept_entry_id"),
        "tokensBefore": entry.get("tokens_before", 0),
        "details": entry.get("details") or {},
    }


async def _auto_compaction(s: Server, m: Request) -> Any:
    s.agent.compaction.auto_compact = boolean(m, "enabled")
    return None


async def _switch_model(s: Server, spec: str) -> ModelEntry:
    """Use ``spec``; the thinking level is kept where the new model takes it, else clamped."""
    if s.make_provider is None:
        raise ValueError("this server cannot change models")
    await s.agent.set_model(s.make_provider(spec))
    entry = _current(s)
    s.agent.set_thinking_level(clamp_thinking(s.agent.get_thinking_level(), entry))
    return entry


async def _set_model(s: Server, m: Request) -> Any:
    provider, model_id = string(m, "provider"), string(m, "modelId")
    spec = model_id if provider == "hookline" else f"{provider}:{model_id}"
    return (await _switch_model(s, spec)).to_pi()


async def _cycle_model(s: Server, m: Request) -> Any:
    """The next available model (pi answers ``null`` when there is only one)."""
    models = s.catalog.available(s.agent.provider.model_id)
    if len(models) < 2:
        return None
    current = _current(s).spec
    at = next((i for i, e in enumerate(models) if e.spec == current), -1)
    entry = await _switch_model(s, models[(at + 1) % len(models)].spec)
    return {
        "model": entry.to_pi(),
        "thinkingLevel": s.agent.get_thinking_level(),
        "isScoped": False,
    }


async def _models(s: Server, m: Request) -> Any:
    return {"models": [e.to_pi() for e in s.catalog.available(s.agent.provider.model_id)]}


def clamp_thinking(level: str, model: ModelEntry) -> str:
    """``level`` if ``model`` takes it, else the nearest it takes (upwards first, as pi)."""
    available = model.thinking_levels()
    if level in available:
        return level
    order = list(THINKING_LEVELS)
    at = order.index(level) if level in order else 0
    for candidate in [*order[at:], *reversed(order[:at])]:
        if candidate in available:
            return candidate
    return available[0]


async def _set_thinking(s: Server, m: Request) -> Any:
    level = string(m, "level")
    if level not in THINKING_LEVELS:
        raise ValueError(f'"level" must be one of {", ".join(THINKING_LEVELS)}, not {level!r}')
    s.agent.set_thinking_level(clamp_thinking(level, _current(s)))
    return None


async def _cycle_thinking(s: Server, m: Request) -> Any:
    """The next level the model takes, wrapping to ``off``; ``null`` for a model that does
    not reason."""
    entry = _current(s)
    if not entry.reasoning:
        return None
    levels = entry.thinking_levels()
    current = s.agent.get_thinking_level()
    at = levels.index(current) if current in levels else -1
    level = levels[(at + 1) % len(levels)]
    s.agent.set_thinking_level(level)
    return {"level": level}


def _queue_mode(m: Request) -> str:
    mode = string(m, "mode")
    if mode not in QUEUE_MODES:
        raise ValueError(f'"mode" must be one of {", ".join(map(repr, QUEUE_MODES))}')
    return mode


async def _steering_mode(s: Server, m: Request) -> Any:
    s.agent.set_queue_modes(steering=_queue_mode(m))
    return None


async def _follow_up_mode(s: Server, m: Request) -> Any:
    s.agent.set_queue_modes(follow_up=_queue_mode(m))
    return None


async def _auto_retry(s: Server, m: Request) -> Any:
    s.agent.retry.enabled = boolean(m, "enabled")
    return None


async def _abort_retry(s: Server, m: Request) -> Any:
    """Ends a retry wait in progress: that model call's error stands (the run goes on to
    its end); no effect when no retry is waiting."""
    s.agent.retry.cancel_wait()
    return None


async def _export_html(s: Server, m: Request) -> Any:
    from hookline.modes.export_html import export_session_html

    a = s.agent
    path = export_session_html(
        a.session,
        optional_string(m, "outputPath"),
        cwd=a.cwd,
        model=a.provider.model_id,
        system_prompt=a.get_system_prompt(),
        tools=[(t.name, t.description) for t in a.active_tools().values()],
    )
    return {"path": path}


async def _mode(s: Server, m: Request) -> Any:
    mode = string(m, "mode")
    if mode not in PERMISSION_MODES:
        raise ValueError(f"unknown permission mode {mode!r}; one of {', '.join(PERMISSION_MODES)}")
    s.agent.set_permission_mode(mode)
    return {"permissionMode": mode}


async def _command(s: Server, m: Request) -> Any:
    name = string(m, "name").lstrip("/")
    args = optional_string(m, "args") or ""
    if not await s.agent.runner.run_command(name, args):
        raise ValueError(f"no command /{name}")
    return None


async def _commands(s: Server, m: Request) -> Any:
    return {
        "commands": [
            {
                "name": c.name,
                "description": c.description,
                "source": "extension",
                **({"path": c.hook_path} if c.hook_path else {}),
            }
            for c in s.agent.runner.get_registered_commands()
        ]
    }


async def _bash(s: Server, m: Request) -> Any:
    stop = asyncio.Event()
    s.bash_signals.add(stop)
    try:
        result = await s.agent.run_user_bash(string(m, "command"), signal=stop)
    finally:
        s.bash_signals.discard(stop)
    details = result.details or {}
    return {
        "output": content_text(result.content),
        "exitCode": details.get("exit_code"),
        "cancelled": stop.is_set(),
        "truncated": False,
    }


async def _abort_bash(s: Server, m: Request) -> Any:
    for stop in s.bash_signals:
        stop.set()
    return None


async def _stats(s: Server, m: Request) -> Any:
    messages = s.agent.session.build_context_messages()
    tokens = {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0}
    calls = 0
    for message in messages:
        if message["role"] == "assistant":
            calls += sum(1 for b in message["content"] if b["type"] == "tool_call")
            for key, value in wire_usage(message.get("usage") or {}).items():
                if key in tokens and isinstance(value, int):
                    tokens[key] += value
    roles = [x["role"] for x in messages]
    return {
        "sessionFile": s.agent.session.get_session_file(),
        "sessionId": s.agent.session.get_session_id(),
        "userMessages": roles.count("user"),
        "assistantMessages": roles.count("assistant"),
        "toolCalls": calls,
        "toolResults": roles.count("tool"),
        "totalMessages": len(messages),
        "tokens": {**tokens, "total": sum(tokens.values())},
        "cost": 0,
    }


async def _session_name_cmd(s: Server, m: Request) -> Any:
    name = string(m, "name").strip()
    if not name:
        raise ValueError('"name" must not be empty')
    s.agent.set_session_name(name)
    return None


COMMANDS: dict[str, Handler] = {
    # pi's commands (docs/rpc.md)
    "prompt": _prompt,
    "steer": _steer,
    "follow_up": _follow_up,
    "abort": _abort,
    "new_session": _new_session,
    "get_state": _state,
    "get_messages": _messages,
    "set_model": _set_model,
    "cycle_model": _cycle_model,
    "get_available_models": _models,
    "set_thinking_level": _set_thinking,
    "cycle_thinking_level": _cycle_thinking,
    "set_steering_mode": _steering_mode,
    "set_follow_up_mode": _follow_up_mode,
    "compact": _compact,
    "set_auto_compaction": _auto_compaction,
    "set_auto_retry": _auto_retry,
    "abort_retry": _abort_retry,
    "bash": _bash,
    "abort_bash": _abort_bash,
    "get_session_stats": _stats,
    "export_html": _export_html,
    "switch_session": _switch,
    "fork": _fork,
    "get_fork_messages": _fork_messages,
    "get_last_assistant_text": _last_text,
    "set_session_name": _session_name_cmd,
    "get_commands": _commands,
    # hookline's own
    "branch": _branch,
    "navigate_tree": _tree,
    "set_permission_mode": _mode,
    "command": _command,
}
