"""``after_provider_response``: say when the provider answered with an error."""

from __future__ import annotations

from hookline import AfterProviderResponseEvent, HookAPI, HookContext


def register(pi: HookAPI) -> None:
    @pi.on("after_provider_response")
    def http_error(event: AfterProviderResponseEvent, ctx: HookContext) -> None:
        if event.status is not None and event.status >= 400:
            ctx.ui.notify(f"{event.provider}: HTTP {event.status}", "error")
