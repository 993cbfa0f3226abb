"""The bridge's decisions, counted: by hook, event and outcome, their latency, and hook
failures and timeouts; exported through Prometheus and OpenTelemetry.

Recorded where an answer is made (``BridgeHooks``, ``AnswerWorker``, the pi bridge),
whatever carried the event in. A ``BridgeMetrics`` without sinks records nothing,
so a process no one watches pays one empty loop per decision; neither
``prometheus_client`` nor OpenTelemetry is imported until a sink is built.

Outcomes (``OUTCOMES``) are what the host agent does with the answer: ``allow``,
``deny`` and ``ask`` (a permission decision), ``block`` (a blocking decision that
is not a permission: a Claude ``decision: block``, a pi ``block`` or ``handled``),
``continue`` (nothing stopped: no opinion, or a change the host applies) and
``error`` (no decision could be made and the host goes on, a non-blocking error).
An answer made for hooks that failed or gave none in time is the fail-closed one
(``deny`` or ``block`` where the event can be stopped), counted by its effect.

Several worker processes: with ``PROMETHEUS_MULTIPROC_DIR`` set (before the
workers start; ``shared_metrics_dir`` makes one), each process writes its counts
to files there and a scrape of any of them sums every process's.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from hookline.bridge.mapping import EVENT_MAP, ClaudeAnswer
from hookline.core.vocabulary import CLAUDE_ONLY_EVENTS, HOOKLINE_EVENT_NAMES

if TYPE_CHECKING:
    from collections.abc import Callable

    from opentelemetry.metrics import MeterProvider
    from prometheus_client import CollectorRegistry

    from hookline.core.calling import HookError

#: What a host does with an answer (the module docstring says when each is counted).
OUTCOMES = ("allow", "deny", "ask", "block", "continue", "error")
#: The ``hook`` label when no hook decided (no opinion, or the bridge answered for them).
NO_HOOK = "none"
#: The ``hook`` label of a timeout the bridge saw for the whole event, not one handler.
UNKNOWN_HOOK = "unknown"
#: The ``event`` label when no hookline event was emitted (an unknown or unreadable input).
NO_EVENT = "none"
#: The ``host_event`` label of an event name the host's vocabulary does not have: labels
#: come from the request, and a client must not mint series without end.
UNKNOWN_EVENT = "unknown"
_CLAUDE_EVENTS = frozenset(HOOKLINE_EVENT_NAMES) | CLAUDE_ONLY_EVENTS
#: Latency buckets, in seconds: a decision takes well under a millisecond to the deadline.
BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)
#: prometheus_client's multiprocess mode: the folder every worker writes its counts to.
MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"


class Decision(NamedTuple):
    """One answer's labels: the host (``claude``, ``pi``), its event name, hookline's event,
    the hook that decided (its path, or ``NO_HOOK``) and the outcome (``OUTCOMES``).
    A tuple: made on every answer, and a key to the instruments' labelled children."""

    host: str
    host_event: str
    event: str
    hook: str
    outcome: str


def claude_outcome(answer: ClaudeAnswer) -> str:
    """What Claude Code does with ``answer`` (one of ``OUTCOMES``)."""
    specific = answer.output.get("hookSpecificOutput")
    if isinstance(specific, Mapping):
        decision = specific.get("permissionDecision")
        behavior = specific.get("decision")
        if isinstance(behavior, Mapping):
            decision = behavior.get("behavior")
        if decision in ("allow", "deny", "ask"):
            return str(decision)
    if answer.output.get("decision") == "block" or answer.exit_code == 2:
        return "block"
    return "error" if answer.exit_code else "continue"


def claude_decision(claude_event: str, hook: str | None, answer: ClaudeAnswer) -> Decision:
    """The labels of a Claude Code hook input's ``answer`` (``claude_event``: its
    ``hook_event_name``, ``UNKNOWN_EVENT`` when Claude Code has no such event)."""
    event = EVENT_MAP.get(claude_event, NO_EVENT)
    known = claude_event if claude_event in _CLAUDE_EVENTS else UNKNOWN_EVENT
    return Decision("claude", known, event, hook or NO_HOOK, claude_outcome(answer))


def pi_decision(pi_event: str | None, hook: str | None, answer: Mapping[str, Any]) -> Decision:
    """The labels of the pi bridge's ``answer`` (``{"id", "result"}`` or ``{"id", "error"}``)
    to a ``pi_event`` request (``None``: an event the bridge does not answer); pi's event
    names are hookline's."""
    result = answer.get("result")
    if isinstance(result, Mapping) and (
        result.get("block") is True or result.get("action") == "handled"
    ):
        outcome = "block"
    else:
        outcome = "error" if "error" in answer else "continue"
    host_event = pi_event or UNKNOWN_EVENT
    return Decision("pi", host_event, pi_event or NO_EVENT, hook or NO_HOOK, outcome)


class Sink(Protocol):
    """Where counts go: one exporter's instruments."""

    def decided(self, decision: Decision, seconds: float) -> None: ...

    def failed(self, hook: str, event: str, timed_out: bool) -> None: ...

    def flush(self) -> None: ...


class BridgeMetrics:
    """Counts decisions and hook failures into its sinks (none: nothing is recorded)."""

    __slots__ = ("sinks",)

    def __init__(self, sinks: Iterable[Sink] = ()) -> None:
        self.sinks = tuple(sinks)

    def decided(self, decision: Decision, started: float) -> None:
        """Count ``decision``, answered ``time.perf_counter() - started`` seconds after its
        input came."""
        if not self.sinks:
            return
        seconds = time.perf_counter() - started
        for sink in self.sinks:
            sink.decided(decision, seconds)

    def pi_answered(
        self, event: str | None, answer: Mapping[str, Any], hook: str | None, started: float
    ) -> None:
        """Count the pi bridge's ``answer`` to an ``event`` request (``pi_decision``)."""
        if self.sinks:
            self.decided(pi_decision(event, hook, answer), started)

    def hook_error(self, error: HookError) -> None:
        """A handler failed (raised, returned something invalid) or its deadline ended it."""
        for sink in self.sinks:
            sink.failed(error.hook_path, error.event, error.timed_out)

    def event_timed_out(self, event: str) -> None:
        """The hooks gave no answer to a whole event in time (the handler is not known)."""
        for sink in self.sinks:
            sink.failed(UNKNOWN_HOOK, event, True)

    def flush(self) -> None:
        """Send what is buffered (an exporting process about to leave)."""
        for sink in self.sinks:
            sink.flush()


#: Records nothing: a bridge no one watches.
NO_METRICS = BridgeMetrics()


# -- Prometheus --------------------------------------------------------------------------


class PrometheusSink:
    """prometheus_client instruments: in ``registry``, or, in multiprocess mode (``directory``),
    in files there that ``metrics_response`` sums over every process."""

    def __init__(self, registry: CollectorRegistry | None, directory: str | None = None) -> None:
        from prometheus_client import Counter, Histogram, values

        if directory is not None:  # read at import time by prometheus_client: set it here too
            values.ValueClass = values.MultiProcessValue()  # type: ignore[no-untyped-call]
        self.registry = registry
        #: The labelled children of one decision's counter and histogram (``labels`` checks
        #: and locks on each call; a decision's labels repeat).
        self._children: dict[Decision, tuple[Any, Any]] = {}
        self.decisions = Counter(
            "hookline_decisions",
            "Answers the bridge gave, by host, event, deciding hook and outcome",
            ("host", "host_event", "event", "hook", "outcome"),
            registry=registry,
        )
        self.latency = Histogram(
            "hookline_decision_duration_seconds",
            "Seconds from a hook input to its answer",
            ("host", "host_event"),
            registry=registry,
            buckets=BUCKETS,
        )
        self.failures = Counter(
            "hookline_hook_failures",
            "Hook handlers that raised or returned something invalid",
            ("hook", "event"),
            registry=registry,
        )
        self.timeouts = Counter(
            "hookline_hook_timeouts",
            "Hook handlers (or whole events, hook=unknown) that gave no answer in time",
            ("hook", "event"),
            registry=registry,
        )

    def decided(self, decision: Decision, seconds: float) -> None:
        children = self._children.get(decision)
        if children is None:
            d = decision
            children = (
                self.decisions.labels(d.host, d.host_event, d.event, d.hook, d.outcome),
                self.latency.labels(d.host, d.host_event),
            )
            self._children[decision] = children
        children[0].inc()
        children[1].observe(seconds)

    def failed(self, hook: str, event: str, timed_out: bool) -> None:
        (self.timeouts if timed_out else self.failures).labels(hook, event).inc()

    def flush(self) -> None:
        """Nothing to send: a scrape reads the counts."""


def prometheus_available() -> bool:
    """Whether prometheus_client (the ``serve`` extra) can be imported."""
    try:
        import prometheus_client  # noqa: F401
    except ImportError:
        return False
    return True


#: This process's Prometheus instruments, built once (a registry takes each name once).
_prometheus: PrometheusSink | None = None


def _prometheus_sink() -> PrometheusSink:
    global _prometheus
    if _prometheus is None:
        directory = os.environ.get(MULTIPROC_ENV) or None
        if directory is not None:
            _prometheus = PrometheusSink(None, directory)
        else:
            from prometheus_client import CollectorRegistry

            _prometheus = PrometheusSink(CollectorRegistry(auto_describe=True))
    return _prometheus


def metrics_response() -> tuple[bytes, str] | None:
    """The Prometheus text exposition of this service's metrics and its content type, or
    ``None`` when prometheus_client is not installed (the ``serve`` extra).

    With ``PROMETHEUS_MULTIPROC_DIR`` set it is the sum over every process writing there
    (all the workers of the service), else this process's counts.
    """
    if not prometheus_available():
        return None
    from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
    from prometheus_client.multiprocess import MultiProcessCollector

    directory = os.environ.get(MULTIPROC_ENV)
    registry = _prometheus.registry if _prometheus is not None else None
    if directory or registry is None:
        registry = CollectorRegistry()
        if directory:
            MultiProcessCollector(registry, directory)  # type: ignore[no-untyped-call]
    return generate_latest(registry), CONTENT_TYPE_LATEST


@contextlib.contextmanager
def shared_metrics_dir() -> Iterator[str]:
    """``PROMETHEUS_MULTIPROC_DIR`` for a server and the workers it starts: the one the
    deployment set (emptied first: counts of an earlier run must not be summed in), else
    a new temporary folder, removed on exit. Enter it before the workers start."""
    import shutil
    import tempfile

    given = os.environ.get(MULTIPROC_ENV)
    if given:
        os.makedirs(given, exist_ok=True)
        for name in os.listdir(given):
            if name.endswith(".db"):
                with contextlib.suppress(FileNotFoundError):
                    os.remove(os.path.join(given, name))
        yield given
        return
    made = tempfile.mkdtemp(prefix="hookline-metrics-")
    os.environ[MULTIPROC_ENV] = made
    try:
        yield made
    finally:
        os.environ.pop(MULTIPROC_ENV, None)
        shutil.rmtree(made, ignore_errors=True)


# -- OpenTelemetry -----------------------------------------------------------------------


class OtelSink:
    """OpenTelemetry instruments from ``meter_provider`` (``None``: the global one)."""

    def __init__(self, meter_provider: MeterProvider | None = None) -> None:
        from opentelemetry import metrics

        self.meter_provider = meter_provider
        meter = metrics.get_meter("hookline.bridge", meter_provider=meter_provider)
        self.decisions = meter.create_counter(
            "hookline.bridge.decisions", description="answers the bridge gave"
        )
        self.latency = meter.create_histogram(
            "hookline.bridge.decision.duration",
            unit="s",
            description="seconds from a hook input to its answer",
            explicit_bucket_boundaries_advisory=list(BUCKETS),
        )
        self.failures = meter.create_counter(
            "hookline.bridge.hook_failures", description="hook handlers that failed"
        )
        self.timeouts = meter.create_counter(
            "hookline.bridge.hook_timeouts", description="hook handlers that gave no answer in time"
        )

    def decided(self, decision: Decision, seconds: float) -> None:
        d = decision
        labels = {"host": d.host, "host_event": d.host_event, "event": d.event}
        self.decisions.add(1, {**labels, "hook": d.hook, "outcome": d.outcome})
        self.latency.record(seconds, {"host": d.host, "host_event": d.host_event})

    def failed(self, hook: str, event: str, timed_out: bool) -> None:
        (self.timeouts if timed_out else self.failures).add(1, {"hook": hook, "event": event})

    def flush(self) -> None:
        flush = getattr(self.meter_provider, "force_flush", None)
        if flush is not None:
            flush()


def _otel_sinks(warn: Callable[[str], None]) -> list[Sink]:
    """An ``OtelSink`` exporting as ``OTEL_*`` says, when ``HOOKLINE_TELEMETRY`` is on."""
    from hookline.telemetry.otel import TelemetryUnavailable, enabled_by_env, meter_from_env

    if not enabled_by_env():
        return []
    try:
        return [OtelSink(meter_from_env())]
    except TelemetryUnavailable as exc:
        warn(str(exc))
        return []


# -- the process's recorders ---------------------------------------------------------------


def serving_metrics(scraped: bool, warn: Callable[[str], None] | None = None) -> BridgeMetrics:
    """The recorder of a process that serves (``hookline serve``, a worker of the service):
    OpenTelemetry when ``HOOKLINE_TELEMETRY`` is on; Prometheus, when prometheus_client is
    installed, if this process is ``scraped`` (it answers ``GET /metrics``) or writes to
    ``PROMETHEUS_MULTIPROC_DIR`` for another that is. ``warn`` hears why a sink is missing."""
    sinks: list[Sink] = _otel_sinks(warn or _ignore)
    if (scraped or os.environ.get(MULTIPROC_ENV)) and prometheus_available():
        sinks.insert(0, _prometheus_sink())
    return BridgeMetrics(sinks)


def hook_metrics(warn: Callable[[str], None] | None = None) -> BridgeMetrics:
    """The recorder of ``claude-hook`` (a process per event, nothing to scrape; files per
    process in a multiprocess folder would grow without end): OpenTelemetry when
    ``HOOKLINE_TELEMETRY`` is on, else none."""
    sinks = _otel_sinks(warn or _ignore)
    return BridgeMetrics(sinks) if sinks else NO_METRICS


def _ignore(text: str) -> None:
    pass
