"""OpenTelemetry and the audit log, on real agent runs.

Spans and metrics are read back from the SDK's in-memory exporter and reader;
the CLI run exports over OTLP/HTTP to a receiver on loopback, whose requests
are decoded with the OTLP protobuf types; the audit log is a real file.
"""

from __future__ import annotations

import http.server
import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from hookline.telemetry import AuditLog, OtelRecorder

from .conftest import MakeAgent

BLOCK_RM = """
def register(pi):
    @pi.on("tool_call")
    def no_rm(event, ctx):
        if "rm " in event.input.get("command", ""):
            return {"block": True, "reason": "no rm here"}
"""

TURNS: list[Any] = [
    {"tool_calls": [{"name": "bash", "arguments": {"command": "echo secret-output"}}]},
    {"tool_calls": [{"name": "bash", "arguments": {"command": "rm -rf build"}}]},
    "All done.",
]


def _counters(reader: InMemoryMetricReader) -> dict[str, list[tuple[dict[str, Any], int]]]:
    data = reader.get_metrics_data()
    out: dict[str, list[tuple[dict[str, Any], int]]] = {}
    assert data is not None
    for resource in data.resource_metrics:
        for scope in resource.scope_metrics:
            for metric in scope.metrics:
                points = [(dict(p.attributes or {}), int(p.value)) for p in metric.data.data_points]
                out[metric.name] = points
    return out


@pytest.fixture
def otel() -> Iterator[tuple[InMemorySpanExporter, InMemoryMetricReader, OtelRecorder]]:
    exporter = InMemorySpanExporter()
    tracer_provider = TracerProvider()
    tracer_provider.add_span_processor(SimpleSpanProcessor(exporter))
    reader = InMemoryMetricReader()
    recorder = OtelRecorder(tracer_provider, MeterProvider(metric_readers=[reader]))
    yield exporter, reader, recorder


async def test_a_run_becomes_spans_for_run_turns_model_calls_and_tools(
    make_agent: MakeAgent, otel: tuple[InMemorySpanExporter, InMemoryMetricReader, OtelRecorder]
) -> None:
    exporter, reader, recorder = otel
    h = await make_agent(TURNS, hooks={"block_rm": BLOCK_RM})
    detach = recorder.attach(h.agent)
    await h.agent.prompt("clean up")
    detach()
    spans = exporter.get_finished_spans()
    names = [s.name for s in spans]
    assert names.count("hookline.run") == 1
    assert names.count("hookline.turn") == 3 and names.count("hookline.model_call") == 3
    run = next(s for s in spans if s.name == "hookline.run")
    turns = [s for s in spans if s.name == "hookline.turn"]
    assert all(t.parent is not None and t.parent.span_id == run.context.span_id for t in turns)
    tools = sorted((s for s in spans if s.name == "hookline.tool_call"), key=lambda s: s.start_time)
    assert [s.attributes["gen_ai.tool.name"] for s in tools] == ["bash", "bash"]
    assert tools[0].attributes.get("hookline.denied") is None
    assert tools[1].attributes["hookline.denied"] is True
    assert tools[1].attributes["hookline.denial.source"] == "hook"
    assert tools[1].parent is not None and tools[1].parent.span_id == turns[1].context.span_id
    # no content by default: a shared collector must not receive prompts or outputs
    for span in spans:
        assert not any("secret-output" in str(v) for v in (span.attributes or {}).values())
    counters = _counters(reader)
    assert sorted(v for _, v in counters["hookline.tool_calls"]) == [1, 1]
    assert counters["hookline.tool_blocks"] == [({"tool": "bash", "source": "hook"}, 1)]


async def test_content_is_recorded_only_when_asked(
    make_agent: MakeAgent, otel: tuple[InMemorySpanExporter, InMemoryMetricReader, OtelRecorder]
) -> None:
    exporter, _, _ = otel
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    recorder = OtelRecorder(provider, MeterProvider(), include_content=True)
    h = await make_agent([*TURNS[:1], "ok"])
    detach = recorder.attach(h.agent)
    await h.agent.prompt("go")
    detach()
    tool = next(s for s in exporter.get_finished_spans() if s.name == "hookline.tool_call")
    assert "secret-output" in str(tool.attributes["hookline.tool.output"])
    assert "echo secret-output" in str(tool.attributes["hookline.tool.input"])


async def test_module_hook_failures_are_counted(
    make_agent: MakeAgent, otel: tuple[InMemorySpanExporter, InMemoryMetricReader, OtelRecorder]
) -> None:
    _, reader, recorder = otel
    broken = (
        'def register(pi):\n    @pi.on("turn_start")\n'
        '    def bad(e, ctx):\n        raise KeyError("x")\n'
    )
    h = await make_agent(["hello"], hooks={"broken": broken})
    detach = recorder.attach(h.agent)
    await h.agent.prompt("go")
    detach()
    failures = _counters(reader)["hookline.hook_failures"]
    assert [(a["event"], a["kind"], v) for a, v in failures] == [("turn_start", "error", 1)]
    assert failures[0][0]["hook"].endswith("broken.py")


async def test_the_audit_log_has_every_decision_and_hook_outcome(
    make_agent: MakeAgent, tmp_path: Path
) -> None:
    settings = {
        "hooks": {
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "exit 0"}]}]
        }
    }
    h = await make_agent(TURNS, hooks={"block_rm": BLOCK_RM}, claude_settings=settings)
    path = tmp_path / "audit.jsonl"
    detach = AuditLog(str(path)).attach(h.agent)
    await h.agent.prompt("clean up")
    detach()
    records = [json.loads(line) for line in path.read_text().splitlines()]
    decisions = [r for r in records if r["kind"] == "permission"]
    assert [(r["decision"], r.get("source")) for r in decisions] == [
        ("allow", None),
        ("deny", "hook"),
    ]
    assert "no rm here" in decisions[1]["reason"]
    assert "input" not in decisions[0]  # inputs only with include_input
    hooks = [r for r in records if r["kind"] == "settings_hook"]
    assert hooks and all(r["event"] == "PreToolUse" and r["outcome"] == "success" for r in hooks)
    assert oct(path.stat().st_mode & 0o777) == "0o600"


# --- the CLI, exporting over OTLP/HTTP to a receiver on loopback -----------------------


class _Receiver(http.server.BaseHTTPRequestHandler):
    received: ClassVar[list[tuple[str, bytes]]] = []
    done: ClassVar[threading.Event] = threading.Event()

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("content-length") or 0))
        type(self).received.append((self.path, body))
        if self.path == "/v1/traces":
            type(self).done.set()
        self.send_response(200)
        self.send_header("content-type", "application/x-protobuf")
        self.send_header("content-length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet."""


@pytest.fixture
def receiver() -> Iterator[tuple[str, type[_Receiver]]]:
    handler = type("Receiver", (_Receiver,), {"received": [], "done": threading.Event()})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", handler
    server.shutdown()


def test_the_cli_exports_traces_and_metrics_over_otlp_http(
    tmp_path: Path, receiver: tuple[str, type[_Receiver]]
) -> None:
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
        ExportTraceServiceRequest,
    )

    endpoint, handler = receiver
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"turns": [*TURNS[:1], "done"]}))
    env = {
        **os.environ,
        "HOOKLINE_HOME": str(tmp_path / "home"),
        "HOOKLINE_TELEMETRY": "1",
        "OTEL_EXPORTER_OTLP_ENDPOINT": endpoint,
        "OTEL_SERVICE_NAME": "agent-fleet-7",
    }
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "hookline",
            "-p",
            "go",
            "--model",
            f"scripted:{script}",
            "--no-session",
            "--permission-mode",
            "bypassPermissions",
            "--audit-log",
            str(tmp_path / "audit.jsonl"),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert handler.done.wait(30)  # shutdown flushed the batch before the process ended
    paths = {path for path, _ in handler.received}
    assert {"/v1/traces", "/v1/metrics"} <= paths
    names, services = set(), set()
    for path, body in handler.received:
        if path != "/v1/traces":
            continue
        request = ExportTraceServiceRequest.FromString(body)
        for resource_spans in request.resource_spans:
            for attribute in resource_spans.resource.attributes:
                if attribute.key == "service.name":
                    services.add(attribute.value.string_value)
            for scope in resource_spans.scope_spans:
                names.update(span.name for span in scope.spans)
    assert {"hookline.run", "hookline.turn", "hookline.model_call", "hookline.tool_call"} <= names
    assert services == {"agent-fleet-7"}
    audit = (tmp_path / "audit.jsonl").read_text().splitlines()
    assert json.loads(audit[0])["decision"] == "allow"


def test_telemetry_without_the_sdk_warns_and_the_run_goes_on(tmp_path: Path) -> None:
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"turns": ["fine"]}))
    code = (
        "import sys; sys.modules['opentelemetry.sdk'] = None\n"
        "from hookline.cli import main\nsys.exit(main(sys.argv[1:]))\n"
    )
    env = {**os.environ, "HOOKLINE_HOME": str(tmp_path / "h"), "HOOKLINE_TELEMETRY": "1"}
    done = subprocess.run(
        [sys.executable, "-c", code, "-p", "go", "--model", f"scripted:{script}", "--no-session"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0 and done.stdout.strip() == "fine"
    needs = "telemetry needs the OpenTelemetry SDK: pip install '.[otel]' in a clone of"
    assert needs in done.stderr
