"""The Prometheus text ``GET /metrics`` answers (a placeholder until metrics are recorded)."""

from __future__ import annotations


def metrics_response() -> tuple[bytes, str] | None:
    """The body and its content type; ``None`` when Prometheus is not available."""
    return None
