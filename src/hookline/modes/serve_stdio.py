"""``hookline serve --stdio``: another agent's events in, the hooks' answers out, JSON lines.

A host agent (pi, through ``integrations/pi/hookline.ts``) sends one request
per event it is about to act on and applies the answer, so hookline's Python
hooks govern it. Names on the wire are the host's (pi's camelCase)::

    → {"id": 1, "type": "tool_call", "data": {"toolName": "bash", "toolCallId": "c1",
                                              "input": {"command": "rm -rf /"}}}
    ← {"id": 1, "result": {"block": true, "reason": "..."}}

Every request gets exactly one answer with its id: ``result`` (``null`` when
no hook changed anything) or ``error``. A ``tool_call`` that cannot be
decided (bad request, a hook error the rules turn into a block) answers a
block: the host fails closed, as it does while a hook module failed to load.
Events are answered in order, one at a time. An ``Observer`` (the bridge's
metrics) hears each answer, the hook that decided it and the hooks' failures.

The same stream may carry Claude Code hook inputs (``{"id", "input"}``, see
``hookline.bridge.serve``): the caller passes ``claude``, which answers those
lines; a line that is neither (not JSON, no ``type``) gets both refusals, so
either kind of host fails closed.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Protocol, TextIO

from hookline.agent.agent import Agent
from hookline.core.events import (
    BeforeAgentStartEvent,
    InputEvent,
    SessionShutdownEvent,
    SessionStartEvent,
    ToolCallEvent,
    ToolResultEvent,
)
from hookline.core.host import DetachedHost, ModelInfo, ModelRegistryView, RunMode, SessionView
from hookline.core.messages import Content
from hookline.core.results import (
    BeforeAgentStartResult,
    InputResult,
    ToolCallResult,
    ToolResultResult,
)
from hookline.core.runner import HookError, HookRunner
from hookline.modes.print_mode import LineWriter, dumps
from hookline.modes.rpc.events import wire_message
from hookline.modes.rpc.wire import LineTooLong, open_stdin, parse_command, read_lines


def _content_in(raw: Any) -> list[Content]:
    """pi content blocks (``mimeType``) as hookline's (``mime_type``); text and images only."""
    blocks: list[Content] = []
    for block in raw if isinstance(raw, list) else []:
        if isinstance(block, dict) and block.get("type") == "text":
            blocks.append({"type": "text", "text": str(block.get("text", ""))})
        elif isinstance(block, dict) and block.get("type") == "image":
            mime = str(block.get("mimeType", ""))
            blocks.append({"type": "image", "data": str(block.get("data", "")), "mime_type": mime})
    return blocks


def _content_out(blocks: list[Content]) -> list[dict[str, Any]]:
    out = wire_message({"content": blocks})["content"]
    assert isinstance(out, list)
    return out


def _dict(data: dict[str, Any], key: str) -> dict[str, Any]:
    value = data.get(key)
    if not isinstance(value, dict):
        raise ValueError(f'"data.{key}" must be an object')
    return value


def _text(data: dict[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise ValueError(f'"data.{key}" must be a string')
    return value


#: An event's answer (``result``) and the path of the hook that decided it (``None``: none).
Answered = tuple[Any, str | None]


async def _tool_call(runner: HookRunner, data: dict[str, Any]) -> Answered:
    event = ToolCallEvent(
        tool_name=_text(data, "toolName"),
        tool_call_id=str(data.get("toolCallId", "")),
        input=_dict(data, "input"),
    )
    result = await runner.emit_tool_call(event)
    if not isinstance(result, ToolCallResult):
        return None, None
    if result.block:
        return {"block": True, "reason": result.reason or "blocked by a hook"}, result.hook_path
    return ({"input": result.input} if result.input is not None else None), result.hook_path


async def _tool_result(runner: HookRunner, data: dict[str, Any]) -> Answered:
    event = ToolResultEvent(
        tool_name=_text(data, "toolName"),
        tool_call_id=str(data.get("toolCallId", "")),
        input=_dict(data, "input"),
        content=_content_in(data.get("content")),
        details=data.get("details"),
        is_error=data.get("isError") is True,
    )
    result = await runner.emit_tool_result(event)
    if not isinstance(result, ToolResultResult):
        return None, None
    patch: dict[str, Any] = {}
    content = result.content
    if result.append:
        content = [*(content if content is not None else event.content), *result.append]
    if content is not None:
        patch["content"] = _content_out(content)
    if result.details is not None:
        patch["details"] = result.details
    if result.is_error is not None:
        patch["isError"] = result.is_error
    return patch or None, result.hook_path


async def _input(runner: HookRunner, data: dict[str, Any]) -> Answered:
    source = data.get("source")
    event = InputEvent(
        text=_text(data, "text"),
        images=_content_in(data.get("images")),
        source=source if isinstance(source, str) else "extension",
    )
    result = await runner.emit(event)
    if not isinstance(result, InputResult):
        return {"action": "continue"}, None
    if result.handled:
        return {"action": "handled"}, result.hook_path
    if result.text is None and result.images is None:
        return {"action": "continue"}, None
    answer: dict[str, Any] = {"action": "transform", "text": result.text or event.text}
    if result.images is not None:
        answer["images"] = _content_out(result.images)
    return answer, result.hook_path


async def _before_agent_start(runner: HookRunner, data: dict[str, Any]) -> Answered:
    """A hook sets the prompt with ``ctx.set_system_prompt``; the change is the answer."""
    system_prompt = _text(data, "systemPrompt")
    host = runner.context.host
    host.set_system_prompt(system_prompt)
    event = BeforeAgentStartEvent(
        prompt=str(data.get("prompt", "")),
        images=_content_in(data.get("images")),
        system_prompt=system_prompt,
    )
    result = await runner.emit(event)
    answer: dict[str, Any] = {}
    if host.get_system_prompt() != system_prompt:
        answer["systemPrompt"] = host.get_system_prompt()
    if isinstance(result, BeforeAgentStartResult) and result.message is not None:
        message = result.message
        answer["message"] = {
            "customType": message.custom_type,
            "content": message.content,
            "display": message.display,
            **({"details": message.details} if message.details is not None else {}),
            **({"attribution": message.attribution} if message.attribution else {}),
        }
    return answer or None, None


async def _session_start(runner: HookRunner, data: dict[str, Any]) -> Answered:
    reason = data.get("reason")
    file = data.get("sessionFile")
    await runner.emit(
        SessionStartEvent(
            source=reason if isinstance(reason, str) else "startup",
            session_file=file if isinstance(file, str) else None,
        )
    )
    return None, None


async def _session_shutdown(runner: HookRunner, data: dict[str, Any]) -> Answered:
    await runner.emit(SessionShutdownEvent(reason="quit"))
    return None, None


_EVENTS: dict[str, Callable[[HookRunner, dict[str, Any]], Awaitable[Answered]]] = {
    "tool_call": _tool_call,
    "tool_result": _tool_result,
    "input": _input,
    "before_agent_start": _before_agent_start,
    "session_start": _session_start,
    "session_shutdown": _session_shutdown,
}


class ServeHost(DetachedHost):
    """The agent as hooks see it under ``serve --stdio``: the host agent runs the turns.

    So nothing a hook asks for starts one here (``pi.send_user_message``, a
    triggered ``pi.send_message``): hookline's own agent would otherwise run
    its model and its tools beside the host. What hooks send is dropped after
    each event, with a line on stderr; what needs an agent (``ctx.compact()``,
    ``new_session``) fails as it does without one. The system prompt a hook
    sets is the one ``before_agent_start`` answers with. The session, the model and
    the modes hooks read are the agent's.
    """

    def __init__(self, warn: Callable[[str], None], agent: Agent) -> None:
        super().__init__()
        self._warn = warn
        self._agent = agent

    def get_session_file(self) -> str | None:
        return self._agent.get_session_file()

    def get_session_manager(self) -> SessionView:
        return self._agent.get_session_manager()

    def get_model_info(self) -> ModelInfo:
        return self._agent.get_model_info()

    def get_model_registry(self) -> ModelRegistryView:
        return self._agent.get_model_registry()

    def get_mode(self) -> RunMode:
        return self._agent.get_mode()

    def get_permission_mode(self) -> str | None:
        return self._agent.get_permission_mode()

    def settle(self, event: str) -> None:
        """Drop what the hooks sent during ``event``, saying so."""
        if self.pending:
            kinds = ", ".join(sorted({name for name, _ in self.pending}))
            self._warn(f"{event}: hooks asked for {kinds}; the host agent runs the turns, dropped")
            self.pending.clear()


#: Answers one Claude Code hook-input line (``{"id", "input"}``) with its reply object.
ClaudeLines = Callable[[str | bytes | LineTooLong], Awaitable[dict[str, Any]]]


class Observer(Protocol):
    """Hears what the pi bridge answers (``hookline.bridge.metrics.BridgeMetrics``)."""

    def pi_answered(
        self, event: str | None, answer: Mapping[str, Any], hook: str | None, started: float
    ) -> None:
        """``answer`` to an ``event`` request (``None``: not an event answered here) that
        came at ``time.perf_counter()`` ``started``, decided by the hook at ``hook``
        (``None``: none)."""

    def hook_error(self, error: HookError) -> None:
        """A handler failed or timed out."""


async def serve_stdio(
    agent: Agent,
    out: TextIO | None = None,
    claude: ClaudeLines | None = None,
    broken: Sequence[str] = (),
    observer: Observer | None = None,
) -> int:
    """Answer event requests on stdin until EOF; a bad line is answered, never fatal.

    With ``claude``, lines shaped as Claude Code hook inputs go to it instead.
    ``broken`` names hook modules that are not there (failed to load, or an
    untrusted project's, skipped): every ``tool_call`` is then blocked, as the
    hook meant to guard it is missing (Claude Code's
    ``PreToolUse`` lines are denied alike). Hooks see a ``ServeHost``, never
    the agent: it runs no turns here. ``observer`` hears each pi answer and every
    hook failure.
    """
    write = LineWriter(out)
    host = ServeHost(
        lambda text: print(f"hookline serve: {text}", file=sys.stderr, flush=True), agent
    )
    agent.runner.bind_host(host)
    if observer is not None:
        agent.runner.on_error(observer.hook_error)
    async for line in read_lines(await open_stdin()):
        if isinstance(line, LineTooLong):  # refused in both shapes: either host fails closed
            error = f"line of {line.size} bytes is too long"
            answer = {"id": None, "error": error, "result": {"block": True, "reason": error}}
            write(dumps({**answer, **(await claude(line) if claude is not None else {})}))
            continue
        text = line.decode("utf-8", errors="replace").strip()
        if not text:
            continue
        if "\ufffd" in text and not _is_utf8(line):
            write(dumps(await _not_text(line, text, claude)))
            continue
        if claude is not None and _is_claude(text):
            write(dumps(await claude(text)))
            continue
        answer = await answer_event(agent.runner, text, broken, observer)
        kind = _object(text).get("type")
        host.settle(str(kind if kind is not None else "request")[:80])
        if claude is not None and "result" not in answer and kind is None:
            # Not a pi event and not a hook input: refuse in both shapes (fail closed).
            answer = {**answer, **await claude(text)}
        write(dumps(answer))
    return 0


def _is_utf8(line: bytes) -> bool:
    try:
        line.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


async def _not_text(line: bytes, text: str, claude: ClaudeLines | None) -> dict[str, Any]:
    """Refuse a line that is not UTF-8: what a hook would see is not what was sent. A
    ``tool_call`` (or a line of no known kind) is blocked; a Claude line is refused by
    ``claude``, which denies a PreToolUse."""
    request = _object(text)
    reason = "the line is not UTF-8 text"
    answer: dict[str, Any] = {"id": request.get("id"), "error": reason}
    if request.get("type") in ("tool_call", None):
        answer["result"] = {"block": True, "reason": f"hookline: {reason}"}
    if claude is not None and "type" not in request:
        answer.update(await claude(line.strip()))
    return answer


def _object(text: str) -> dict[str, Any]:
    """``text`` as a JSON object, or ``{}`` when it is none (never raises)."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return {}
    return value if isinstance(value, dict) else {}


def _is_claude(text: str) -> bool:
    """A Claude Code hook-input line: ``{"id", "input"}`` or a bare hook input, no ``type``."""
    request = _object(text)
    return "type" not in request and ("input" in request or "hook_event_name" in request)


async def answer_event(
    runner: HookRunner,
    text: str,
    broken: Sequence[str] = (),
    observer: Observer | None = None,
) -> dict[str, Any]:
    """The reply to one pi event request (``text``, its JSON), whatever carried it in
    (stdin here, ``POST /pi`` in ``hookline serve --http``);
    ``observer`` hears it (the runner's failures it hears by subscribing once, as
    ``serve_stdio`` does). ``broken``: as ``serve_stdio``'s."""
    started = time.perf_counter()
    answer, hook = await _answer(runner, text, broken)
    if observer is not None:
        kind = _object(text).get("type")
        if kind is not None:
            observer.pi_answered(known_event(kind), answer, hook, started)
    return answer


def known_event(kind: object) -> str | None:
    """``kind`` when it is a pi event this bridge answers (a label a client cannot invent)."""
    return kind if isinstance(kind, str) and kind in _EVENTS else None


async def _answer(
    runner: HookRunner, text: str, broken: Sequence[str]
) -> tuple[dict[str, Any], str | None]:
    """The reply to a pi event request, and the hook that decided it (``None``: none)."""
    request_id: Any = None
    event = ""
    try:
        request = parse_command(text)
        request_id = request.get("id")
        event = request["type"]
        handler = _EVENTS.get(event)
        if handler is None:
            known = ", ".join(_EVENTS)
            raise ValueError(f"unknown event {event[:80]!r}; known: {known}")
        data = request.get("data")
        if not isinstance(data, dict):
            raise ValueError('"data" must be an object')
        if event == "tool_call" and broken:
            failed = "; ".join(broken)
            reason = f"hookline: hook modules failed to load or were skipped: {failed}"
            return {"id": request_id, "result": {"block": True, "reason": reason}}, None
        result, hook = await handler(runner, data)
        return {"id": request_id, "result": result}, hook
    except Exception as exc:  # a hook's own failure is the runner's; this is a bad request
        answer: dict[str, Any] = {"id": request_id, "error": f"{type(exc).__name__}: {exc}"}
        if event == "tool_call":  # undecidable: the host blocks (fail closed)
            answer["result"] = {"block": True, "reason": f"hookline: {answer['error']}"}
        return answer, None
