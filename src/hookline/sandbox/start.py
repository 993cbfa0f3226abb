"""Starting a session's sandbox from its configuration: on, off, or refused.

``failIfUnavailable`` true and the sandbox cannot run: :class:`SandboxUnavailable`
(the agent does not start, one line says what is missing). Unset: one warning, and
bash runs unsandboxed with the normal permission flow (no auto-allow).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hookline.sandbox.availability import probe
from hookline.sandbox.config import SandboxConfig
from hookline.sandbox.launcher import Sandbox
from hookline.sandbox.policy import SandboxPolicy

if TYPE_CHECKING:
    from hookline.sandbox.network import NetworkProxy


class SandboxUnavailable(RuntimeError):
    """The settings require the sandbox (``failIfUnavailable``) and it cannot run here."""


@dataclass(frozen=True, slots=True)
class SandboxStart:
    """What the session runs with: the policy, the sandbox (None: off), a warning to say."""

    policy: SandboxPolicy
    sandbox: Sandbox | None = None
    warning: str | None = None


def start_sandbox(
    config: SandboxConfig,
    *,
    proxy: NetworkProxy | None = None,
    on_violation: Callable[[Any], None] | None = None,
) -> SandboxStart:
    """The session's sandbox for ``config``; raise :class:`SandboxUnavailable` when it is
    required and cannot run."""
    if not config.enabled:
        return SandboxStart(SandboxPolicy(config, active=False))
    found = probe()
    if found.problem is not None or found.bwrap is None:
        problem = found.problem or "bubblewrap (bwrap) not installed"
        if config.fail_if_unavailable:
            raise SandboxUnavailable(f"sandbox required but unavailable: {problem}")
        return SandboxStart(
            SandboxPolicy(config, active=False),
            warning=(
                f"sandbox unavailable: {problem}; bash commands run unsandboxed and are "
                "asked about as usual"
            ),
        )
    sandbox = Sandbox(
        config,
        bwrap=found.bwrap,
        proxy=proxy,
        on_violation=on_violation,
        disable_userns=found.disables_userns,
    )
    return SandboxStart(SandboxPolicy(config, active=True), sandbox)
