"""Every Claude Code event hookline fires has an example settings file (examples/
settings-events/, shown on the settings-hooks reference page) that does what the page says:
its scenario fires the event through the real engine and the example's effect is checked."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tools.reference.claude_events import (
    SCENARIOS,
    SETTINGS_EXAMPLES,
    Run,
    firing,
    run_example,
    settings_example,
)

Check = Callable[[Run], None]


def _blocked(reason: str) -> Check:
    def check(run: Run) -> None:
        run.returned.assert_blocked(reason)

    return check


def _appended(fragment: str) -> Check:
    def check(run: Run) -> None:
        run.returned.assert_patched(fragment)

    return check


def _context(fragment: str) -> Check:
    """The hook's context reached the model as a hidden message."""

    def check(run: Run) -> None:
        texts = [str(m["content"]) for m in run.harness.host.messages]
        assert any(fragment in t for t in texts), texts

    return check


def _logged(name: str, event: str) -> Check:
    def check(run: Run) -> None:
        text = Path(run.harness.cwd, name).read_text()
        assert f'"hook_event_name": "{event}"' in text.replace('":"', '": "'), text

    return check


def _notified(fragment: str) -> Check:
    def check(run: Run) -> None:
        text = " ".join(m for _, m in run.harness.ui.notifications)
        assert fragment in text, text

    return check


def _result(**expected: Any) -> Check:
    def check(run: Run) -> None:
        for key, value in expected.items():
            assert getattr(run.returned.result, key) == value

    return check


def _retry(run: Run) -> None:
    assert run.returned is True


#: Claude event → what its example must have done.
CHECKS: dict[str, Check] = {
    "PreToolUse": _blocked("no force pushes"),
    "PostToolUse": _appended("Check the exit status"),
    "PostToolUseFailure": _appended("read the error before retrying"),
    "PostToolBatch": _context("Run the linter"),
    "PermissionRequest": _result(decision="allow"),
    "PermissionDenied": _retry,
    "UserPromptSubmit": lambda run: run.returned.assert_blocked(),
    "Notification": _logged("notifications.log", "Notification"),
    "Stop": _blocked("Run the tests, then stop."),
    "StopFailure": _logged("failures.log", "StopFailure"),
    "SubagentStart": _context("must not edit files"),
    "SubagentStop": _blocked("Check your work"),
    "SessionStart": _context("release branch is frozen"),
    "SessionEnd": _logged("sessions.log", "SessionEnd"),
    "PreCompact": lambda run: run.returned.assert_blocked(),
    "PostCompact": _logged("compactions.log", "PostCompact"),
    "InstructionsLoaded": _logged("instructions.log", "InstructionsLoaded"),
    "ConfigChange": _notified("settings changed: restart to use them"),
    "FileChanged": _context("The .env file changed"),
}


def test_every_event_that_fires_has_one_example_scenario_and_check() -> None:
    assert sorted(p.stem for p in SETTINGS_EXAMPLES.glob("*.json")) == sorted(firing())
    assert sorted(SCENARIOS) == sorted(firing())
    assert sorted(CHECKS) == sorted(firing())


@pytest.mark.parametrize("event", firing())
async def test_the_example_does_what_it_says(event: str, tmp_path: Path) -> None:
    assert settings_example(event).exists()
    run = await run_example(event, tmp_path)
    assert run.input["hook_event_name"] == event
    CHECKS[event](run)
