"""The agent's side of the sandbox: how it starts, and what it reports.

The session's ``SandboxState`` is built before the agent (the bash tool and
the permission gate read it), and it may start a sandbox at once. The
sandbox's network proxy asks the session's UI about hosts nobody listed and
lets them through in bypassPermissions; its refusals become
``sandbox_violation`` events on the agent's stream, which audit logs and OTel
record. ``SandboxSide`` starts it, and is given the agent by ``bind`` once
the agent exists: before then a refusal is not reported and no host is let
through by the mode.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from hookline.agent.gate import PermissionGate
from hookline.core.runner import HookRunner

if TYPE_CHECKING:
    from hookline.sandbox.config import SandboxConfig
    from hookline.sandbox.network import NetworkProxy
    from hookline.sandbox.start import SandboxStart


class SandboxHost(Protocol):
    """What the sandbox's side needs of the agent: its gate (the mode), its stream."""

    gate: PermissionGate

    def publish(self, payload: dict[str, Any]) -> None: ...


class SandboxSide:
    """Starts the session's sandbox (``SandboxState``'s ``start``) and reports its refusals."""

    def __init__(self, cwd: str, runner: HookRunner) -> None:
        self.cwd = cwd
        self.runner = runner
        self._host: SandboxHost | None = None

    def bind(self, host: SandboxHost) -> None:
        self._host = host

    def start(self, config: SandboxConfig) -> SandboxStart:
        """A sandbox for ``config``, with its network proxy, reporting to the agent."""
        from hookline.sandbox.start import start_sandbox

        return start_sandbox(config, proxy=self._network_proxy(config), on_violation=self.violation)

    def violation(self, decision: Any) -> None:
        """One refusal, as an event on the agent's stream."""
        if self._host is not None:
            self._host.publish(sandbox_violation_event(decision))

    def bypass(self) -> bool:
        """Whether the proxy lets an unlisted host through: in bypassPermissions (the mode
        is read where it lives, when a host is asked about)."""
        return self._host is not None and self._host.gate.mode == "bypassPermissions"

    def _network_proxy(self, config: SandboxConfig) -> NetworkProxy:
        """The sandbox's way out: allowed domains pass, denied ones never, the rest are
        asked about in the session's UI (refused without one) or let through in
        bypassPermissions; an "always" answer is saved as Claude Code saves it."""
        from hookline.agent.network_ask import make_host_asker, make_host_rememberer
        from hookline.sandbox.network import DomainPolicy, NetworkProxy

        return NetworkProxy(
            DomainPolicy(allowed=config.allowed_domains, denied=config.denied_domains),
            ask=make_host_asker(self.runner),
            bypass=self.bypass,
            remember=make_host_rememberer(self.cwd),
        )


def sandbox_violation_event(decision: Any) -> dict[str, Any]:
    """The ``sandbox_violation`` event for one refusal: a connection (``NetworkDecision``)
    or a write (``WriteRefused``)."""
    from hookline.sandbox.launcher import violation_fields

    return {
        "type": "sandbox_violation",
        **violation_fields(decision),
        "outcome": getattr(decision, "outcome", "refused"),
    }
