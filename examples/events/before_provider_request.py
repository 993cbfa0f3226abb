"""``before_provider_request``: ask the provider for deterministic answers."""

from __future__ import annotations

from typing import Any

from hookline import BeforeProviderRequestEvent, HookAPI, HookContext


def register(pi: HookAPI) -> None:
    @pi.on("before_provider_request")
    def deterministic(event: BeforeProviderRequestEvent, ctx: HookContext) -> dict[str, Any] | None:
        return {**event.payload, "temperature": 0}  # a dict is the new payload
