"""Watching agents from outside: OpenTelemetry traces and metrics, and a JSON-lines audit log.

Both listen to an agent's event stream; neither changes what the agent does.
The OpenTelemetry SDK is an extra (``hookline[otel]``), imported only when used.
"""

from typing import TYPE_CHECKING

from hookline._lazy import lazy_exports

if TYPE_CHECKING:
    from hookline.telemetry.audit import AUDIT_ENV, AuditLog
    from hookline.telemetry.otel import (
        CONTENT_ENV,
        ENABLE_ENV,
        OtelRecorder,
        TelemetryUnavailable,
        configure_from_env,
        enabled_by_env,
        meter_from_env,
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
    "meter_from_env",
]

#: Public name → the module that defines it, imported when the name is first read.
_EXPORTS = {
    "AUDIT_ENV": "hookline.telemetry.audit",
    "AuditLog": "hookline.telemetry.audit",
    "CONTENT_ENV": "hookline.telemetry.otel",
    "ENABLE_ENV": "hookline.telemetry.otel",
    "OtelRecorder": "hookline.telemetry.otel",
    "TelemetryUnavailable": "hookline.telemetry.otel",
    "configure_from_env": "hookline.telemetry.otel",
    "enabled_by_env": "hookline.telemetry.otel",
    "meter_from_env": "hookline.telemetry.otel",
}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
