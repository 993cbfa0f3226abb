"""Turning telemetry and the audit log on for a CLI run, from flags and the environment."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from hookline.telemetry.audit import AUDIT_ENV, AuditLog
from hookline.telemetry.otel import (
    OtelRecorder,
    TelemetryUnavailable,
    configure_from_env,
    enabled_by_env,
)


def attach_observers(
    agent: Any, *, audit_log: str | None, warn: Callable[[str], None]
) -> Callable[[], None]:
    """Attach what is asked for (``HOOKLINE_TELEMETRY=1``, ``--audit-log`` or
    ``HOOKLINE_AUDIT_LOG``); returns the function that detaches and flushes them.

    A problem (no SDK, an audit file that cannot be opened) is one warning line and
    the run goes on without that observer: watching must never stop the work.
    """
    stops: list[Callable[[], None]] = []
    path = audit_log or os.environ.get(AUDIT_ENV)
    if path:
        try:
            stops.append(AuditLog(path).attach(agent))
        except OSError as exc:
            warn(f"audit log {path}: {exc.strerror or exc}; running without it")
    if enabled_by_env():
        try:
            tracer_provider, meter_provider = configure_from_env()
        except TelemetryUnavailable as exc:
            warn(str(exc))
        else:
            detach = OtelRecorder(tracer_provider, meter_provider).attach(agent)

            def stop_otel() -> None:
                detach()
                for provider in (tracer_provider, meter_provider):
                    try:
                        provider.shutdown()  # flushes what is buffered
                    except Exception as exc:
                        warn(f"telemetry: {exc}")

            stops.append(stop_otel)

    def stop_all() -> None:
        for stop in reversed(stops):
            stop()

    return stop_all
