"""The permission modes Shift+Tab steps through, in Claude Code's order.

default → acceptEdits → plan → (bypassPermissions, only when the session may
enter it) → default. ``dontAsk`` is not on the ring: from it the next mode is
``default``, as in Claude Code.
"""

from __future__ import annotations

from hookline.core.vocabulary import PermissionMode

#: The ring, bypassPermissions included; ``next_mode`` leaves it out when it is not allowed.
CYCLE: tuple[PermissionMode, ...] = ("default", "acceptEdits", "plan", "bypassPermissions")


def ring(*, bypass_available: bool) -> list[PermissionMode]:
    """The modes Shift+Tab steps through in a session, in order."""
    return [m for m in CYCLE if m != "bypassPermissions" or bypass_available]


def next_mode(current: PermissionMode, *, bypass_available: bool) -> PermissionMode:
    """The mode after ``current``; a mode off the ring (``dontAsk``) goes to ``default``."""
    modes = ring(bypass_available=bypass_available)
    if current not in modes:
        return "default"
    return modes[(modes.index(current) + 1) % len(modes)]
