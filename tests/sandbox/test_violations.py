"""What the sandbox refused is visible: a ``<sandbox_violations>`` note in the tool result,
a ``sandbox_violation`` event, a line in the audit log and a counter and span event in
OpenTelemetry. The network proxy is stood in for at its seam (``NetworkProxy``)."""

from __future__ import annotations

import json
import os
import types
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

import hookline.sandbox.launcher
from hookline.agent.sandbox_side import sandbox_violation_event
from hookline.sandbox.launcher import Sandbox
from hookline.telemetry.audit import AuditLog
from hookline.telemetry.otel import OtelRecorder
from hookline.tools.bash import create_bash_tool
from hookline.tools.leftovers import ToolLeftovers
from tests.sandbox.helpers import BWRAP, config_for, needs_bwrap


@dataclass(frozen=True)
class Decision:
    host: str
    port: int
    outcome: str = "refused"
    reason: str = "not in allowedDomains"


@dataclass
class Channel:
    inside_fd: int
    refused: list[Decision] = field(default_factory=list)
    spawned_calls: int = 0
    closed: bool = False

    def spawned(self) -> None:
        self.spawned_calls += 1
        os.close(self.inside_fd)

    async def aclose(self) -> None:
        self.closed = True
        self.refused.append(Decision("evil.example", 443))


class Proxy:
    def __init__(self) -> None:
        self.channels: list[Channel] = []

    def open_channel(self) -> Channel:
        read, write = os.pipe()
        os.close(write)
        self.channels.append(Channel(read))
        return self.channels[-1]


@pytest.fixture
def fake_network(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The launcher's ``network`` module as a stand-in: the forwarder is a plain
    pass-through here, so the command itself runs (the real one: test_network_sandbox)."""
    module = types.ModuleType("hookline.sandbox.network")

    def inside_argv(python: str, channel_fd: int, command: Sequence[str]) -> list[str]:
        return [
            *command[:2],
            f"test -e /proc/self/fd/{channel_fd} && echo fd-inherited; " + command[2],
        ]

    module.inside_argv = inside_argv  # type: ignore[attr-defined]
    module.proxy_env = lambda: {"HTTPS_PROXY": "http://127.0.0.1:3128"}  # type: ignore[attr-defined]
    monkeypatch.setattr(hookline.sandbox.launcher, "network", module)
    yield


@needs_bwrap
@pytest.mark.usefixtures("fake_network")
def test_a_refused_connection_is_a_note_in_the_result_and_a_violation(tmp_path: Path) -> None:
    import asyncio

    assert BWRAP is not None
    seen: list[Any] = []
    proxy = Proxy()
    sandbox = Sandbox(config_for(tmp_path), bwrap=BWRAP, proxy=proxy, on_violation=seen.append)
    leftovers = ToolLeftovers()
    tool = create_bash_tool(str(tmp_path), sandbox=sandbox, leftovers=leftovers)
    try:
        result = asyncio.run(tool.execute("t", {"command": "echo $HTTPS_PROXY"}))
    finally:
        leftovers.close()
    text = result.content[0]["text"]
    assert "fd-inherited" in text and "http://127.0.0.1:3128" in text
    assert "<sandbox_violations>" in text and "evil.example:443 refused" in text
    assert result.details["sandbox_violations"][0]["host"] == "evil.example"
    assert seen == [Decision("evil.example", 443)]
    channel = proxy.channels[0]
    assert channel.closed and channel.spawned_calls == 1


def test_the_audit_log_records_a_violation(tmp_path: Path) -> None:
    log = AuditLog(str(tmp_path / "audit.jsonl"))
    log.on_event(sandbox_violation_event(Decision("evil.example", 443)))
    log.close()
    line = json.loads((tmp_path / "audit.jsonl").read_text().splitlines()[0])
    assert line["kind"] == "sandbox_violation"
    assert (line["host"], line["port"], line["violation"]) == ("evil.example", 443, "network")


def test_opentelemetry_counts_a_violation_on_the_tool_span() -> None:
    exporter = InMemorySpanExporter()
    tracer_provider = TracerProvider()
    tracer_provider.add_span_processor(SimpleSpanProcessor(exporter))
    reader = InMemoryMetricReader()
    recorder = OtelRecorder(tracer_provider, MeterProvider(metric_readers=[reader]))
    recorder.on_event({"type": "tool_execution_start", "tool_name": "bash", "tool_call_id": "c"})
    recorder.on_event(sandbox_violation_event(Decision("evil.example", 443)))
    recorder.on_event({"type": "tool_execution_end", "tool_name": "bash", "tool_call_id": "c"})
    recorder.close()
    (span,) = exporter.get_finished_spans()
    assert [e.name for e in span.events] == ["hookline.sandbox_violation"]
    assert span.events[0].attributes is not None
    assert span.events[0].attributes["host"] == "evil.example"
    data = reader.get_metrics_data()
    assert data is not None
    names = {m.name: m for r in data.resource_metrics for s in r.scope_metrics for m in s.metrics}
    assert names["hookline.sandbox_violations"].data.data_points[0].value == 1
