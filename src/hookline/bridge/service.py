"""``HookService``: the hook modules one ``hookline serve`` process answers with.

Claude Code hook inputs and pi's events are answered by the same loaded hooks,
one event at a time on an ``AnswerWorker``. ``reload`` loads the modules again
beside the running set and swaps them in whole: requests in flight finish on
the old set, the next ones go to the new. A reload where a module fails to load
keeps the old set (and says why), so a typo in a hook never turns a working
service into one that denies every call.

``HookSource`` says what to load; it is plain data, so each worker process of
the server loads the hooks itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hookline.bridge.engine import BridgeHooks, EventHost, load_bridge
from hookline.bridge.mapping import BridgeInputError, ClaudeAnswer, input_failure, parse_input
from hookline.bridge.metrics import NO_METRICS, UNKNOWN_EVENT, BridgeMetrics, serving_metrics
from hookline.bridge.worker import AnswerWorker
from hookline.core.calling import describe


@dataclass(frozen=True, slots=True)
class HookSource:
    """Which hook modules to load, as ``hookline claude-hook`` finds them."""

    hooks: tuple[str, ...]
    cwd: str
    project_dir: str
    discover: bool
    trust_project: bool
    allow_skip: bool
    #: Each event's deadline, and each handler's once it suspends.
    timeout: float

    def load(self, metrics: BridgeMetrics) -> BridgeHooks:
        """The hooks, counting their answers and failures in ``metrics``."""
        return load_bridge(
            self.hooks,
            cwd=self.cwd,
            project_dir=self.project_dir,
            discover=self.discover,
            trust_project=self.trust_project,
            allow_skip=self.allow_skip,
            timeout=self.timeout,
            metrics=metrics,
        )


@dataclass(frozen=True, slots=True)
class Reload:
    """What a reload did: ``ok`` when the new hooks answer now; ``message`` says so or why not."""

    ok: bool
    message: str


class HookService:
    """The loaded hooks of one process, answering both hosts, replaced whole on ``reload``."""

    def __init__(self, source: HookSource, warn: Callable[[str], None]) -> None:
        self.source = source
        self._warn = warn
        self._worker: AnswerWorker | None = None
        #: This process's counts (made in the process that answers: a worker's own).
        self.metrics: BridgeMetrics = NO_METRICS
        self._reloading: asyncio.Lock | None = None
        self._retired: set[asyncio.Task[None]] = set()

    def start(self) -> None:
        """Load the hooks (before the first request); what failed or was skipped is said."""
        self.metrics = serving_metrics(scraped=True, warn=self._warn)
        bridge = self.source.load(self.metrics)
        for problem in bridge.load_errors:
            self._warn(f"{problem} (tool calls will be denied)")
        for skipped in bridge.skipped:
            then = "let through" if self.source.allow_skip else "denied"
            self._warn(f"skipped {skipped} (tool calls will be {then})")
        self._worker = self._answering(bridge)

    def unready(self) -> list[str]:
        """Why this process cannot answer yet (empty: it can)."""
        return [] if self._worker is not None else ["the hook modules are not loaded yet"]

    def load_errors(self) -> list[str]:
        """The hook modules that did not load: their tool calls are denied."""
        return list(self._worker.bridge.load_errors) if self._worker is not None else []

    async def answer_claude(self, body: bytes) -> ClaudeAnswer:
        """A Claude Code hook input's answer (a deny for input that cannot be read)."""
        return await answer_text(self._current(), body)

    async def answer_pi(self, body: bytes) -> dict[str, Any]:
        """A pi event request's answer, as ``hookline serve --stdio`` gives it."""
        worker = self._current()
        request = _object(body)
        request_id, kind = request.get("id"), request.get("type")
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            return pi_refusal(request_id, kind, "the request is not UTF-8 text")
        bridge = worker.bridge
        started = time.perf_counter()

        def late(reason: str) -> dict[str, Any]:
            from hookline.modes.serve_stdio import known_event

            refusal = pi_refusal(request_id, kind, reason)
            known = known_event(kind)
            bridge.metrics.event_timed_out(known or UNKNOWN_EVENT)
            bridge.metrics.pi_answered(known, refusal, None, started)
            return refusal

        return await worker.run(lambda: _pi_event(bridge, text), late, f"pi {str(kind)[:80]}")

    async def reload(self) -> Reload:
        """Load the hook modules again and answer with them from now on, unless one fails."""
        if self._reloading is None:
            self._reloading = asyncio.Lock()
        async with self._reloading:
            try:
                bridge = await asyncio.to_thread(self.source.load, self.metrics)
            except Exception as exc:
                return self._said(Reload(False, f"reload failed ({describe(exc)})"))
            if bridge.load_errors:
                failed = "; ".join(bridge.load_errors)
                return self._said(Reload(False, f"reload failed, the loaded hooks stay: {failed}"))
            old, self._worker = self._worker, self._answering(bridge)
            if old is not None:  # its thread stops once its event in flight is answered
                task = asyncio.create_task(old.close())
                self._retired.add(task)
                task.add_done_callback(self._retired.discard)
            return self._said(Reload(True, "hook modules reloaded"))

    async def close(self) -> None:
        if self._worker is not None:
            await self._worker.close()

    def _current(self) -> AnswerWorker:
        if self._worker is None:  # the server answers no request before start()
            raise RuntimeError("the hook modules are not loaded")
        return self._worker

    def _answering(self, bridge: BridgeHooks) -> AnswerWorker:
        return AnswerWorker(bridge, self.source.timeout, self._warn)

    def _said(self, result: Reload) -> Reload:
        self._warn(f"{result.message} (pid {os.getpid()})")
        return result


async def answer_text(worker: AnswerWorker, body: str | bytes) -> ClaudeAnswer:
    """The answer to a hook input as text: a deny when it cannot be read."""
    try:
        payload = parse_input(body)
    except BridgeInputError as exc:
        return input_failure(body, str(exc))
    return await worker.answer(payload)


def pi_refusal(request_id: Any, kind: Any, reason: str) -> dict[str, Any]:
    """A pi request that got no answer from the hooks: an error, and a block for a
    ``tool_call`` (or a request of no known kind) so pi fails closed."""
    answer: dict[str, Any] = {"id": request_id, "error": reason}
    if kind in ("tool_call", None):
        answer["result"] = {"block": True, "reason": f"hookline: {reason}"}
    return answer


async def _pi_event(bridge: BridgeHooks, text: str) -> dict[str, Any]:
    """One pi event through ``bridge``'s hooks, with a host of its own: what a hook sets
    or sends during it (a system prompt, messages) ends with it."""
    from hookline.modes.serve_stdio import answer_event

    host = EventHost(bridge.mode)
    with contextlib.ExitStack() as lending:
        lending.callback(bridge.runner.on_error(bridge.metrics.hook_error))
        for context in (bridge.runner.context, *bridge.lent):
            lending.enter_context(context.lend(host))
        return await answer_event(bridge.runner, text, bridge.missing(), bridge.metrics)


def _object(body: bytes) -> dict[str, Any]:
    """``body`` as a JSON object, or ``{}`` (never raises)."""
    try:
        value = json.loads(body)
    except (ValueError, RecursionError):
        return {}
    return value if isinstance(value, dict) else {}
