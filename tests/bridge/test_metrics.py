"""The bridge's metrics: real decisions through BridgeHooks, AnswerWorker and the pi bridge,
read back from the Prometheus exposition and OpenTelemetry's in-memory reader."""

from __future__ import annotations

import asyncio
import json
import os
import queue
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.parser import text_string_to_metric_families

from hookline.bridge import metrics as bridge_metrics
from hookline.bridge.engine import BridgeHooks, load_bridge
from hookline.bridge.mapping import ClaudeAnswer
from hookline.bridge.metrics import (
    MULTIPROC_ENV,
    BridgeMetrics,
    OtelSink,
    PrometheusSink,
    claude_outcome,
    metrics_response,
    shared_metrics_dir,
)
from hookline.bridge.worker import AnswerWorker

from .helpers import run_claude_hook
from .server import pre as pre_tool_use

GUARD = """
import asyncio, os

def register(pi):
    @pi.on("tool_call")
    def guard(event, ctx):
        command = event.input.get("command", "")
        if command.startswith("rm "):
            return {"block": True, "reason": "no rm"}
        if command == "ls":
            return {"permission": "allow"}
        if command == "boom":
            raise RuntimeError("guard broke")

    @pi.on("stop")
    def stop(event, ctx):
        raise RuntimeError("stop hook broke")
"""

#: A handler that suspends past the runner's deadline (async), and one that blocks its
#: thread (sync) until the test lets it go, past the worker's deadline.
SLOW = """
import asyncio, os, time

def register(pi):
    @pi.on("tool_call")
    async def wait(event, ctx):
        if event.input.get("command") == "wait":
            await asyncio.sleep(30)

    @pi.on("tool_call")
    def stuck(event, ctx):
        if event.input.get("command") == "stuck":
            while not os.path.exists(RELEASE):
                time.sleep(0.01)
"""


def _stop(cwd: Path) -> dict[str, Any]:
    return {"session_id": "s", "cwd": str(cwd), "hook_event_name": "Stop"}


def _samples(text: str) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    """Every sample of an exposition: (name, labels) → value."""
    return {
        (s.name, frozenset(s.labels.items())): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def _value(samples: dict[Any, float], name: str, **labels: str) -> float:
    """The sample of ``name`` whose labels include ``labels`` (summed when several do)."""
    wanted = set(labels.items())
    return sum(v for (n, ls), v in samples.items() if n == name and wanted <= ls)


@pytest.fixture
def registry() -> CollectorRegistry:
    return CollectorRegistry()


def _bridge(tmp_path: Path, source: str, registry: CollectorRegistry, **kw: Any) -> BridgeHooks:
    hook = tmp_path / "guard.py"
    hook.write_text(source, encoding="utf-8")
    metrics = BridgeMetrics([PrometheusSink(registry)])
    return load_bridge([str(hook)], cwd=str(tmp_path), discover=False, metrics=metrics, **kw)


def test_decisions_are_counted_by_event_hook_and_outcome(
    tmp_path: Path, registry: CollectorRegistry
) -> None:
    bridge = _bridge(tmp_path, GUARD, registry)
    hook = str(tmp_path / "guard.py")

    async def drive() -> None:
        for command in ("rm -rf /", "rm x", "ls", "echo hi", "boom"):
            await bridge.answer(pre_tool_use(command, cwd=str(tmp_path)))
        await bridge.answer(_stop(tmp_path))
        await bridge.answer({"hook_event_name": "Notification", "cwd": str(tmp_path)})

    asyncio.run(drive())
    bridge.answer_once(pre_tool_use("rm -r y", cwd=str(tmp_path)))  # claude-hook's path

    samples = _samples(generate_latest(registry).decode())
    decisions = "hookline_decisions_total"
    pre = {"host": "claude", "host_event": "PreToolUse", "event": "tool_call"}
    assert _value(samples, decisions, **pre, hook=hook, outcome="deny") == 4  # 3 rm + boom
    assert _value(samples, decisions, **pre, hook="none", outcome="allow") == 1
    assert _value(samples, decisions, **pre, hook="none", outcome="continue") == 1
    assert _value(samples, decisions, host_event="Stop", hook=hook, outcome="error") == 1
    notification = {"host_event": "Notification", "event": "notification", "hook": "none"}
    assert _value(samples, decisions, **notification, outcome="continue") == 1
    assert _value(samples, decisions) == 8
    failures = "hookline_hook_failures_total"
    assert _value(samples, failures, hook=hook, event="tool_call") == 1
    assert _value(samples, failures, hook=hook, event="stop") == 1
    assert _value(samples, "hookline_hook_timeouts_total") == 0
    # One latency observation per decision, in cumulative buckets ending at +Inf.
    latency = "hookline_decision_duration_seconds"
    assert _value(samples, latency + "_count", host_event="PreToolUse") == 6
    assert _value(samples, latency + "_bucket", host_event="PreToolUse", le="+Inf") == 6
    assert _value(samples, latency + "_bucket", host_event="PreToolUse", le="30.0") == 6
    assert _value(samples, latency + "_sum", host_event="PreToolUse") > 0


def test_event_names_from_the_input_cannot_mint_labels(
    tmp_path: Path, registry: CollectorRegistry
) -> None:
    bridge = _bridge(tmp_path, GUARD, registry)
    for name in ("Evil1", "Evil2", "x" * 500):
        bridge.answer_once({"hook_event_name": name, "cwd": str(tmp_path)})

    samples = _samples(generate_latest(registry).decode())
    events = {dict(ls).get("host_event") for (n, ls) in samples if n.startswith("hookline_")}
    assert events == {"unknown"}
    assert _value(samples, "hookline_decisions_total", host_event="unknown", event="none") == 3


def test_a_handler_past_the_runners_deadline_is_a_timeout_of_that_hook(
    tmp_path: Path, registry: CollectorRegistry
) -> None:
    source = SLOW.replace("RELEASE", repr(str(tmp_path / "release")))
    bridge = _bridge(tmp_path, source, registry, timeout=0.2)
    hook = str(tmp_path / "guard.py")

    answer = asyncio.run(bridge.answer(pre_tool_use("wait", cwd=str(tmp_path))))

    assert claude_outcome(answer) == "deny"
    samples = _samples(generate_latest(registry).decode())
    assert _value(samples, "hookline_hook_timeouts_total", hook=hook, event="tool_call") == 1
    assert _value(samples, "hookline_hook_failures_total") == 0
    assert _value(samples, "hookline_decisions_total", hook=hook, outcome="deny") == 1


def test_the_workers_deadline_is_a_timeout_and_the_late_answer_is_not_counted(
    tmp_path: Path, registry: CollectorRegistry
) -> None:
    release = tmp_path / "release"
    source = SLOW.replace("RELEASE", repr(str(release)))
    bridge = _bridge(tmp_path, source, registry)
    warned: list[str] = []
    worker = AnswerWorker(bridge, 0.2, warned.append)

    async def drive() -> tuple[ClaudeAnswer, ClaudeAnswer]:
        before = set(threading.enumerate())
        stuck = await worker.answer(pre_tool_use("stuck", cwd=str(tmp_path)))
        [abandoned] = set(threading.enumerate()) - before  # the thread running the hooks
        release.touch()  # the abandoned handler returns: its answer is dropped
        abandoned.join(10)
        assert not abandoned.is_alive()
        return stuck, await worker.answer(pre_tool_use("echo", cwd=str(tmp_path)))

    stuck, after = asyncio.run(drive())

    assert claude_outcome(stuck) == "deny" and warned
    assert claude_outcome(after) == "continue"
    samples = _samples(generate_latest(registry).decode())
    timeouts = "hookline_hook_timeouts_total"
    assert _value(samples, timeouts, hook="unknown", event="tool_call") == 1
    decisions = "hookline_decisions_total"
    assert _value(samples, decisions, hook="none", outcome="deny") == 1
    assert _value(samples, decisions) == 2


def test_answers_are_counted_in_opentelemetry(tmp_path: Path) -> None:
    from opentelemetry.sdk.metrics import MeterProvider
    from opentelemetry.sdk.metrics.export import InMemoryMetricReader

    reader = InMemoryMetricReader()
    hook = tmp_path / "guard.py"
    hook.write_text(GUARD, encoding="utf-8")
    metrics = BridgeMetrics([OtelSink(MeterProvider(metric_readers=[reader]))])
    bridge = load_bridge([str(hook)], cwd=str(tmp_path), discover=False, metrics=metrics)
    bridge.answer_once(pre_tool_use("rm x", cwd=str(tmp_path)))
    bridge.answer_once(_stop(tmp_path))

    data = reader.get_metrics_data()
    assert data is not None
    points = {
        m.name: [(dict(p.attributes or {}), p) for p in m.data.data_points]
        for rm in data.resource_metrics
        for sm in rm.scope_metrics
        for m in sm.metrics
    }
    decisions = {(a["host_event"], a["hook"], a["outcome"]): p.value for a, p in points[
        "hookline.bridge.decisions"]}  # fmt: skip
    assert decisions == {("PreToolUse", str(hook), "deny"): 1, ("Stop", str(hook), "error"): 1}
    [(labels, failure)] = points["hookline.bridge.hook_failures"]
    assert labels == {"hook": str(hook), "event": "stop"} and failure.value == 1
    durations = points["hookline.bridge.decision.duration"]
    assert sum(p.count for _, p in durations) == 2


def test_without_sinks_nothing_is_recorded_and_nothing_imported(tmp_path: Path) -> None:
    code = (
        "import sys, asyncio\n"
        "from hookline.bridge.engine import load_bridge\n"
        f"b = load_bridge([{str(tmp_path / 'guard.py')!r}], cwd={str(tmp_path)!r},"
        " discover=False)\n"
        f"b.answer_once({json.dumps(pre_tool_use('rm x', cwd=str(tmp_path)))})\n"
        "print(sorted(m for m in sys.modules if m.startswith(('prometheus', 'opentelemetry'))))\n"
    )
    (tmp_path / "guard.py").write_text(GUARD, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in (MULTIPROC_ENV, "HOOKLINE_TELEMETRY")}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_no_exposition_without_prometheus_client(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "prometheus_client", None)  # import fails
    assert metrics_response() is None


def test_the_exposition_of_this_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(MULTIPROC_ENV, raising=False)
    monkeypatch.delenv("HOOKLINE_TELEMETRY", raising=False)
    metrics = bridge_metrics.serving_metrics(scraped=True)
    (tmp_path / "guard.py").write_text(GUARD, encoding="utf-8")
    bridge = load_bridge(
        [str(tmp_path / "guard.py")], cwd=str(tmp_path), discover=False, metrics=metrics
    )
    hook = str(tmp_path / "guard.py")  # a label of its own: other tests' counts stay apart
    bridge.answer_once(pre_tool_use("rm x", cwd=str(tmp_path)))

    response = metrics_response()
    assert response is not None
    body, content_type = response
    assert content_type.startswith("text/plain; version=")
    samples = _samples(body.decode())
    assert _value(samples, "hookline_decisions_total", hook=hook, outcome="deny") == 1


# -- several processes -------------------------------------------------------------------

PI_GUARD = """
def register(pi):
    @pi.on("tool_call")
    def guard(event, ctx):
        if event.input.get("command", "").startswith("rm "):
            return {"block": True, "reason": "no rm"}

    @pi.on("input")
    def broken(event, ctx):
        raise RuntimeError("input hook broke")
"""


@pytest.fixture
def multiproc_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    folder = tmp_path / "metrics"
    folder.mkdir()
    monkeypatch.setenv(MULTIPROC_ENV, str(folder))
    yield folder


def _pi(request_id: int, kind: str, data: dict[str, Any]) -> str:
    return json.dumps({"id": request_id, "type": kind, "data": data}) + "\n"


def test_a_scrape_sums_every_process_of_the_service(tmp_path: Path, multiproc_dir: Path) -> None:
    """Two `hookline serve --stdio` processes answer pi and Claude Code events, writing to
    one multiprocess folder; one scrape (this process) reports both."""
    hook = tmp_path / "guard.py"
    hook.write_text(PI_GUARD, encoding="utf-8")
    call = {"toolName": "bash", "toolCallId": "c", "input": {"command": "rm -rf /"}}
    lines = (
        _pi(1, "tool_call", call)
        + _pi(2, "tool_call", {**call, "input": {"command": "ls"}})
        + _pi(3, "input", {"text": "hi"})
        + _pi(4, "no_such_event", {})
        + json.dumps({"id": 5, "input": pre_tool_use("rm x", cwd=str(tmp_path))})
        + "\n"
    )
    argv = [sys.executable, "-m", "hookline.cli", "serve", "--stdio", "--no-session"]
    argv += ["--hook", str(hook), "--cwd", str(tmp_path)]
    env = {**os.environ, "HOOKLINE_HOME": str(tmp_path / "home")}
    env.pop("HOOKLINE_TELEMETRY", None)
    procs = [
        subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            cwd=tmp_path,
        )
        for _ in range(2)
    ]
    for proc in procs:
        out, err = proc.communicate(lines, timeout=120)
        assert proc.returncode == 0, err
        assert len(out.splitlines()) == 5
    writers = {f.rsplit("_", 1)[1] for f in os.listdir(multiproc_dir) if f.endswith(".db")}
    assert writers == {f"{p.pid}.db" for p in procs}  # each process wrote its own counts

    response = metrics_response()
    assert response is not None
    samples = _samples(response[0].decode())
    decisions = "hookline_decisions_total"
    pi_call = {"host": "pi", "host_event": "tool_call", "event": "tool_call"}
    assert _value(samples, decisions, **pi_call, hook=str(hook), outcome="block") == 2
    assert _value(samples, decisions, **pi_call, hook="none", outcome="continue") == 2
    assert _value(samples, decisions, host="pi", host_event="input", outcome="continue") == 2
    assert _value(samples, decisions, host="pi", host_event="unknown", outcome="error") == 2
    claude = {"host": "claude", "host_event": "PreToolUse", "hook": str(hook)}
    assert _value(samples, decisions, **claude, outcome="deny") == 2
    assert _value(samples, "hookline_hook_failures_total", hook=str(hook), event="input") == 2
    latency = "hookline_decision_duration_seconds_count"
    assert _value(samples, latency, host="pi") == 8
    assert _value(samples, latency, host="claude") == 2


def test_the_shared_folder_is_made_and_removed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(MULTIPROC_ENV, raising=False)
    with shared_metrics_dir() as folder:
        assert os.environ[MULTIPROC_ENV] == folder and os.path.isdir(folder)
    assert MULTIPROC_ENV not in os.environ
    assert not os.path.exists(folder)


def test_a_given_folder_is_emptied_of_earlier_counts(multiproc_dir: Path) -> None:
    (multiproc_dir / "counter_123.db").write_bytes(b"old")
    (multiproc_dir / "keep.txt").write_text("not ours")
    with shared_metrics_dir() as folder:
        assert folder == str(multiproc_dir)
        assert sorted(os.listdir(folder)) == ["keep.txt"]
    assert multiproc_dir.is_dir()  # the deployment's: left in place


@pytest.mark.parametrize(
    ("answer", "outcome"),
    [
        (ClaudeAnswer(), "continue"),
        (ClaudeAnswer(0, {"hookSpecificOutput": {"permissionDecision": "ask"}}), "ask"),
        (ClaudeAnswer(0, {"hookSpecificOutput": {"decision": {"behavior": "allow"}}}), "allow"),
        (ClaudeAnswer(0, {"decision": "block", "reason": "r"}), "block"),
        (ClaudeAnswer(1, {}, "failed"), "error"),
        (ClaudeAnswer(2, {}, "blocked"), "block"),
    ],
)
def test_claude_outcomes(answer: ClaudeAnswer, outcome: str) -> None:
    assert claude_outcome(answer) == outcome


# -- claude-hook: OpenTelemetry, sent before the process leaves ----------------------------


@pytest.fixture
def collector() -> Iterator[tuple[str, queue.Queue[Any]]]:
    """A local OTLP/HTTP endpoint: each metrics export it receives, decoded, on a queue."""
    from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import (
        ExportMetricsServiceRequest,
    )

    received: queue.Queue[Any] = queue.Queue()

    class Receiver(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["Content-Length"]))
            if self.path == "/v1/metrics":
                received.put(ExportMetricsServiceRequest.FromString(body))
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()

    server = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", received
    finally:
        server.shutdown()
        server.server_close()


def _exported(request: Any) -> dict[str, list[dict[str, Any]]]:
    """Metric name → the attributes (and ``value``/``count``) of each of its points."""
    found: dict[str, list[dict[str, Any]]] = {}
    for rm in request.resource_metrics:
        for sm in rm.scope_metrics:
            for metric in sm.metrics:
                data = metric.sum if metric.HasField("sum") else metric.histogram
                for point in data.data_points:
                    attributes = {a.key: a.value.string_value for a in point.attributes}
                    number = {"value": point.as_int} if metric.HasField("sum") else {}
                    count = {} if metric.HasField("sum") else {"count": point.count}
                    found.setdefault(metric.name, []).append({**attributes, **number, **count})
    return found


def _otel_env(endpoint: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")}
    return {**env, "HOOKLINE_TELEMETRY": "1", "OTEL_EXPORTER_OTLP_ENDPOINT": endpoint}


def test_claude_hook_sends_its_count_before_it_leaves(
    tmp_path: Path, collector: tuple[str, queue.Queue[Any]]
) -> None:
    endpoint, received = collector
    (tmp_path / "guard.py").write_text(GUARD, encoding="utf-8")
    argv = ("--no-discovery", "--hook", "guard.py")
    answer = run_claude_hook(
        pre_tool_use("rm x", cwd=str(tmp_path)), *argv, cwd=tmp_path, env=_otel_env(endpoint)
    )

    assert answer.output["hookSpecificOutput"]["permissionDecision"] == "deny"
    found = _exported(received.get(timeout=60))
    [decision] = found["hookline.bridge.decisions"]
    hook = str(tmp_path / "guard.py")
    assert decision == {
        "host": "claude",
        "host_event": "PreToolUse",
        "event": "tool_call",
        "hook": hook,
        "outcome": "deny",
        "value": 1,
    }
    assert [p["count"] for p in found["hookline.bridge.decision.duration"]] == [1]


def test_claude_hooks_deadline_is_counted_by_the_process_that_answered(
    tmp_path: Path, collector: tuple[str, queue.Queue[Any]]
) -> None:
    endpoint, received = collector
    (tmp_path / "slow.py").write_text(
        "import time\n\ndef register(pi):\n    @pi.on('tool_call')\n"
        "    def slow(event, ctx):\n        time.sleep(60)\n",
        encoding="utf-8",
    )
    argv = ("--no-discovery", "--timeout", "0.5", "--hook", "slow.py")
    answer = run_claude_hook(
        pre_tool_use("ls", cwd=str(tmp_path)), *argv, cwd=tmp_path, env=_otel_env(endpoint)
    )

    assert answer.code == 2  # denied: the hooks gave no answer in time
    found = _exported(received.get(timeout=60))
    assert found["hookline.bridge.hook_timeouts"] == [
        {"hook": "unknown", "event": "tool_call", "value": 1}
    ]
    [decision] = found["hookline.bridge.decisions"]
    assert (decision["hook"], decision["outcome"]) == ("none", "deny")
