"""Shift+Tab's ring of permission modes and who may enter bypassPermissions."""

from __future__ import annotations

import pytest

from hookline.agent.gate import ModeUnavailableError, PermissionGate
from hookline.agent.mode_cycle import next_mode
from hookline.core.runner import HookRunner
from hookline.core.vocabulary import PermissionMode


def _ring(start: PermissionMode, bypass: bool, steps: int) -> list[PermissionMode]:
    seen = [start]
    for _ in range(steps):
        seen.append(next_mode(seen[-1], bypass_available=bypass))
    return seen


def test_without_bypass_the_ring_is_default_accept_edits_plan() -> None:
    assert _ring("default", False, 4) == [
        "default",
        "acceptEdits",
        "plan",
        "default",
        "acceptEdits",
    ]


def test_with_bypass_it_comes_after_plan_and_before_default() -> None:
    assert _ring("default", True, 5) == [
        "default",
        "acceptEdits",
        "plan",
        "bypassPermissions",
        "default",
        "acceptEdits",
    ]


@pytest.mark.parametrize("bypass", [True, False])
def test_a_mode_off_the_ring_goes_to_default(bypass: bool) -> None:
    assert next_mode("dontAsk", bypass_available=bypass) == "default"
    # a bypass no longer available (never so in a session, but the ring holds)
    assert next_mode("bypassPermissions", bypass_available=False) == "default"


def test_the_gate_refuses_bypass_it_was_not_started_able_to_enter() -> None:
    gate = PermissionGate(HookRunner())
    gate.set_mode("plan")
    with pytest.raises(ModeUnavailableError, match="--allow-dangerously-skip-permissions"):
        gate.set_mode("bypassPermissions")
    assert gate.mode == "plan"


def test_a_gate_started_in_bypass_or_allowed_it_may_enter_it() -> None:
    started = PermissionGate(HookRunner(), mode="bypassPermissions")
    started.set_mode("default")
    started.set_mode("bypassPermissions")
    allowed = PermissionGate(HookRunner(), bypass_available=True)
    allowed.set_mode("bypassPermissions")
    assert started.mode == allowed.mode == "bypassPermissions"
