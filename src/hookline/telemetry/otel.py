"""OpenTelemetry traces and metrics for a fleet of agents: what ran, what hooks blocked.

``OtelRecorder`` listens to an agent's event stream (the same one the JSON mode
prints) and to its hook runner's errors, and turns them into spans — a run,
its turns, each model call, each tool call, each settings hook — and counters:
tool calls, blocks by source, hook failures and timeouts, tokens. Prompts, tool
inputs and outputs are left out unless ``include_content`` is set: a collector
is usually shared. Exporters are configured by the standard ``OTEL_*``
variables (``configure_from_env``); any tracer/meter provider can be passed in,
such as the SDK's in-memory ones in tests.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from opentelemetry.metrics import MeterProvider
    from opentelemetry.sdk.metrics import MeterProvider as SdkMeterProvider
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider as SdkTracerProvider
    from opentelemetry.trace import Span, TracerProvider

#: Environment switches (the exporters read the standard ``OTEL_*`` variables themselves).
ENABLE_ENV = "HOOKLINE_TELEMETRY"
CONTENT_ENV = "HOOKLINE_OTEL_LOG_CONTENT"
_INSTRUMENTATION = "hookline"
_MAX_ATTRIBUTE = 4096


class TelemetryUnavailable(RuntimeError):
    """Telemetry was asked for but the OpenTelemetry SDK is not installed."""


def enabled_by_env(environ: dict[str, str] | None = None) -> bool:
    """``HOOKLINE_TELEMETRY=1`` (or ``true``/``yes``) turns telemetry on."""
    env = os.environ if environ is None else environ
    return env.get(ENABLE_ENV, "").strip().lower() in ("1", "true", "yes", "on")


def configure_from_env() -> tuple[SdkTracerProvider, SdkMeterProvider]:
    """SDK providers exporting over OTLP/HTTP, set up by ``OTEL_*`` (endpoint, headers,
    service name, resource attributes, ``OTEL_TRACES_EXPORTER=console`` for stdout…)."""
    resource = _resource()
    try:
        from opentelemetry.sdk.trace import TracerProvider as _TracerProvider
        from opentelemetry.sdk.trace.export import BatchSpanProcessor
    except ImportError:
        raise TelemetryUnavailable(_no_sdk()) from None
    tracer_provider = _TracerProvider(resource=resource)
    if os.environ.get("OTEL_TRACES_EXPORTER", "otlp") == "console":
        from opentelemetry.sdk.trace.export import ConsoleSpanExporter

        tracer_provider.add_span_processor(BatchSpanProcessor(ConsoleSpanExporter()))
    elif os.environ.get("OTEL_TRACES_EXPORTER", "otlp") != "none":
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

        tracer_provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    return tracer_provider, meter_from_env(resource)


def meter_from_env(resource: Resource | None = None) -> SdkMeterProvider:
    """The SDK meter provider alone (for processes that count, with no spans to send):
    exporting over OTLP/HTTP unless ``OTEL_METRICS_EXPORTER`` says otherwise."""
    try:
        from opentelemetry.sdk.metrics import MeterProvider as _MeterProvider
        from opentelemetry.sdk.metrics.export import MetricReader, PeriodicExportingMetricReader
    except ImportError:
        raise TelemetryUnavailable(_no_sdk()) from None
    metric_readers: list[MetricReader] = []
    if os.environ.get("OTEL_METRICS_EXPORTER", "otlp") == "otlp":
        from opentelemetry.exporter.otlp.proto.http.metric_exporter import OTLPMetricExporter

        metric_readers.append(PeriodicExportingMetricReader(OTLPMetricExporter()))
    return _MeterProvider(resource=resource or _resource(), metric_readers=metric_readers)


def _no_sdk() -> str:
    from hookline._extras import install_hint

    return "telemetry needs the OpenTelemetry SDK: " + install_hint("otel")


def _resource() -> Resource:
    try:
        from opentelemetry.sdk.resources import Resource
    except ImportError:
        raise TelemetryUnavailable(_no_sdk()) from None
    return Resource.create({"service.name": os.environ.get("OTEL_SERVICE_NAME", "hookline")})


def _clip(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= _MAX_ATTRIBUTE else text[:_MAX_ATTRIBUTE] + "…"


class OtelRecorder:
    """Spans and counters from one agent's events; ``attach`` starts, the returned
    function stops (open spans are ended, so nothing is left dangling on exit)."""

    def __init__(
        self,
        tracer_provider: TracerProvider | None = None,
        meter_provider: MeterProvider | None = None,
        *,
        include_content: bool | None = None,
    ) -> None:
        from opentelemetry import metrics, trace

        self._trace = trace
        self.tracer = trace.get_tracer(_INSTRUMENTATION, tracer_provider=tracer_provider)
        meter = metrics.get_meter(_INSTRUMENTATION, meter_provider=meter_provider)
        self.include_content = (
            os.environ.get(CONTENT_ENV, "") in ("1", "true")
            if include_content is None
            else include_content
        )
        self.tool_calls = meter.create_counter("hookline.tool_calls", description="tool calls")
        self.blocks = meter.create_counter("hookline.tool_blocks", description="tool calls denied")
        self.hook_failures = meter.create_counter(
            "hookline.hook_failures", description="hook errors and timeouts"
        )
        self.hook_runs = meter.create_counter(
            "hookline.hook_runs", description="settings hooks run"
        )
        self.tokens = meter.create_counter("hookline.tokens", unit="{token}", description="tokens")
        self.sandbox_violations = meter.create_counter(
            "hookline.sandbox_violations", description="what the sandbox refused"
        )
        self._run: Span | None = None
        self._turn: Span | None = None
        self._model: Span | None = None
        self._tools: dict[str, Span] = {}
        # A denial is published just after its call's tool_execution_end, so a tool span
        # ends at the next event, once it is known whether one came.
        self._ending: Span | None = None
        self._model_id = ""

    # -- wiring ----------------------------------------------------------------------

    def attach(self, agent: Any) -> Callable[[], None]:
        """Listen to ``agent`` (its events and its hook runner's errors)."""
        self._model_id = str(getattr(agent.provider, "model_id", ""))
        unsubscribe = agent.subscribe(self.on_event)
        stop_errors = agent.runner.on_error(self.on_hook_error)

        def detach() -> None:
            unsubscribe()
            stop_errors()
            self.close()

        return detach

    def close(self) -> None:
        """End whatever is still open (an interrupted run), innermost first."""
        self._end_tool()
        for span in [*self._tools.values(), self._model, self._turn, self._run]:
            if span is not None and span.is_recording():
                span.set_attribute("hookline.interrupted", True)
                span.end()
        self._tools.clear()
        self._model = self._turn = self._run = None

    # -- events ----------------------------------------------------------------------

    def _start(self, name: str, parent: Span | None, **attributes: Any) -> Span:
        context = self._trace.set_span_in_context(parent) if parent is not None else None
        return self.tracer.start_span(name, context=context, attributes=attributes)

    def _end_tool(self) -> None:
        if self._ending is not None:
            self._ending.end()
            self._ending = None

    def on_event(self, payload: dict[str, Any]) -> None:
        kind = payload.get("type")
        if kind != "tool_denied":
            self._end_tool()
        handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
        if handler is not None:
            handler(self, payload)

    def _on_agent_start(self, payload: dict[str, Any]) -> None:
        self._run = self._start("hookline.run", None, **{"gen_ai.request.model": self._model_id})

    def _on_agent_end(self, payload: dict[str, Any]) -> None:
        if self._run is not None:
            self._run.set_attribute("hookline.messages", int(payload.get("message_count", 0)))
            self._run.set_attribute("hookline.denials", len(payload.get("denials") or []))
            self._run.end()
            self._run = None

    def _on_turn_start(self, payload: dict[str, Any]) -> None:
        self._turn = self._start(
            "hookline.turn", self._run, **{"hookline.turn_index": int(payload["turn_index"])}
        )

    def _on_turn_end(self, payload: dict[str, Any]) -> None:
        if self._turn is not None:
            if payload.get("stop_reason"):
                self._turn.set_attribute("hookline.stop_reason", str(payload["stop_reason"]))
            self._turn.end()
            self._turn = None

    def _on_context(self, payload: dict[str, Any]) -> None:
        self._model = self._start(
            "hookline.model_call",
            self._turn or self._run,
            **{
                "gen_ai.request.model": self._model_id,
                "hookline.context.message_count": int(payload.get("message_count", 0)),
            },
        )

    def _on_message(self, payload: dict[str, Any]) -> None:
        message = payload.get("message") or {}
        if message.get("role") != "assistant" or self._model is None:
            return
        span, self._model = self._model, None
        usage = message.get("usage") or {}
        for key, kind in (("input", "input"), ("output", "output")):
            count = usage.get(key) or usage.get(f"{key}_tokens")
            if isinstance(count, int):
                span.set_attribute(f"gen_ai.usage.{kind}_tokens", count)
                self.tokens.add(count, {"type": kind, "model": self._model_id})
        if message.get("stop_reason"):
            span.set_attribute("gen_ai.response.finish_reason", str(message["stop_reason"]))
        if self.include_content:
            span.set_attribute("hookline.content", _clip(message.get("content")))
        span.end()

    def _on_tool_execution_start(self, payload: dict[str, Any]) -> None:
        attributes: dict[str, Any] = {
            "gen_ai.tool.name": str(payload.get("tool_name")),
            "gen_ai.tool.call.id": str(payload.get("tool_call_id")),
        }
        if self.include_content:
            attributes["hookline.tool.input"] = _clip(payload.get("input"))
        span = self._start("hookline.tool_call", self._turn or self._run, **attributes)
        self._tools[str(payload.get("tool_call_id"))] = span

    def _on_tool_denied(self, payload: dict[str, Any]) -> None:
        source = str(payload.get("source", "unknown"))
        self.blocks.add(1, {"tool": str(payload.get("tool_name")), "source": source})
        span = self._ending
        if span is not None:
            span.set_attribute("hookline.denied", True)
            span.set_attribute("hookline.denial.source", source)
            if self.include_content:
                span.set_attribute("hookline.denial.reason", _clip(payload.get("reason", "")))

    def _on_tool_execution_end(self, payload: dict[str, Any]) -> None:
        span = self._tools.pop(str(payload.get("tool_call_id")), None)
        is_error = bool(payload.get("is_error"))
        outcome = "error" if is_error else "ok"
        self.tool_calls.add(1, {"tool": str(payload.get("tool_name")), "outcome": outcome})
        if span is None:
            return
        span.set_attribute("hookline.tool.is_error", is_error)
        if self.include_content:
            span.set_attribute("hookline.tool.output", _clip(payload.get("result", "")))
        self._ending = span

    def _on_settings_hook_outcome(self, payload: dict[str, Any]) -> None:
        """A settings hook's run, as a span of its own duration under the current step."""
        duration = float(payload.get("duration") or 0.0)
        end = time.time_ns()
        parent = next(reversed(self._tools.values()), None) or self._turn or self._run
        context = self._trace.set_span_in_context(parent) if parent is not None else None
        kind = str(payload.get("kind"))
        span = self.tracer.start_span(
            "hookline.hook",
            context=context,
            start_time=end - int(duration * 1e9),
            attributes={
                "hookline.hook.event": str(payload.get("event")),
                "hookline.hook.id": str(payload.get("hook_id")),
                "hookline.hook.type": str(payload.get("hook_type")),
                "hookline.hook.origin": str(payload.get("origin")),
                "hookline.hook.outcome": kind,
            },
        )
        span.end(end_time=end)
        self.hook_runs.add(1, {"event": str(payload.get("event")), "outcome": kind})
        if kind in ("non_blocking_error", "cancelled"):
            reason = str(payload.get("reason") or "")
            failure = "timeout" if "timed out" in reason else "error"
            self.hook_failures.add(
                1,
                {
                    "hook": str(payload.get("origin")),
                    "event": str(payload.get("event")),
                    "kind": failure,
                },
            )

    def _on_sandbox_violation(self, payload: dict[str, Any]) -> None:
        """The sandbox refused something: counted, and an event on the current span."""
        attributes = {
            "kind": str(payload.get("kind")),
            "host": str(payload.get("host")),
            "port": str(payload.get("port")),
            "reason": str(payload.get("reason")),
        }
        self.sandbox_violations.add(1, {"kind": attributes["kind"]})
        current = next(reversed(self._tools.values()), None) or self._turn or self._run
        if current is not None:
            current.add_event("hookline.sandbox_violation", attributes)

    def on_hook_error(self, error: Any) -> None:
        """A module hook failed or timed out: counted, and an event on the current span."""
        failure = "timeout" if getattr(error, "timed_out", False) else "error"
        attributes = {
            "hook": str(getattr(error, "hook_path", "")),
            "event": str(getattr(error, "event", "")),
            "kind": failure,
        }
        self.hook_failures.add(1, attributes)
        current = next(reversed(self._tools.values()), None) or self._turn or self._run
        if current is not None:
            current.add_event("hookline.hook_error", attributes)


#: Agent stream event ``type`` → what the recorder does with it (the rest it ignores).
_HANDLERS: dict[str, Callable[[OtelRecorder, dict[str, Any]], None]] = {
    "agent_start": OtelRecorder._on_agent_start,
    "agent_end": OtelRecorder._on_agent_end,
    "turn_start": OtelRecorder._on_turn_start,
    "turn_end": OtelRecorder._on_turn_end,
    "context": OtelRecorder._on_context,
    "message": OtelRecorder._on_message,
    "tool_execution_start": OtelRecorder._on_tool_execution_start,
    "tool_denied": OtelRecorder._on_tool_denied,
    "tool_execution_end": OtelRecorder._on_tool_execution_end,
    "settings_hook_outcome": OtelRecorder._on_settings_hook_outcome,
    "sandbox_violation": OtelRecorder._on_sandbox_violation,
}
