"""Watching agents from outside: OpenTelemetry traces and metrics, and a JSON-lines audit log.

Both listen to an agent's event stream; neither changes what the agent does.
The OpenTelemetry SDK is an extra (``hookline[otel]``), imported only when used.
"""

from hookline.telemetry.audit import AUDIT_ENV, AuditLog
from hookline.telemetry.otel import (
    CONTENT_ENV,
    ENABLE_ENV,
    OtelRecorder,
    TelemetryUnavailable,
    configure_from_env,
    enabled_by_env,
)

__all__ = [
    "AUDIT_ENV",
    "CONTENT_ENV",
    "ENABLE_ENV",
    "AuditLog",
    "OtelRecorder",
    "TelemetryUnavailable",
    "configure_from_env",
    "enabled_by_env",
]
