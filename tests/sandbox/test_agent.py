"""The sandbox through the real agent: ``--mode json`` with a scripted model, judged by what
is on disk afterwards and by the permission events of the run."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests.modes.helpers import json_lines, run_cli, write_script
from tests.sandbox.helpers import needs_bwrap, write_settings

pytestmark = needs_bwrap

#: A program that opens the file itself: the rules cannot see it (only the sandbox holds it),
#: and the parser can read the line (inline code such as ``python3 -c`` is never auto-allowed).
WRITE_ENV = "echo pwned | tee .env; echo ran > ran.txt"


@pytest.fixture(autouse=True)
def _project_files(project: Path) -> None:
    """What every test here finds in the project folder."""
    root = project
    (root / ".env").write_text("KEY=original\n")


def run(
    project: Path, commands: list[dict[str, Any] | str], *args: str, **env: str
) -> tuple[int, list[dict[str, Any]], str]:
    """One turn of bash calls, then the end; returns the exit code, events and stderr."""
    calls = [
        {
            "id": f"c{i}",
            "name": "bash",
            "arguments": {"command": c} if isinstance(c, str) else c,
        }
        for i, c in enumerate(commands)
    ]
    model = write_script(
        project.parent / "script.json", [{"text": "", "tool_calls": calls}, {"text": "done"}]
    )
    done = run_cli(
        "--mode", "json", "-p", "go", "--model", model, "--cwd", str(project), *args,
        env={**os.environ, **env},
    )  # fmt: skip
    events = json_lines(done.stdout) if done.returncode == 0 else []
    return done.returncode, events, done.stderr


def outcome(events: list[dict[str, Any]], call_id: str) -> tuple[str, str]:
    """``("denied", source)`` or ``("ran", result text)`` for one call."""
    for event in events:
        if event["type"] == "tool_denied" and event["tool_call_id"] == call_id:
            return "denied", str(event["source"])
    for event in events:
        if event["type"] == "tool_execution_end" and event["tool_call_id"] == call_id:
            return "ran", json.dumps(event["result"])
    raise AssertionError(f"no end for {call_id}")


def enable(project: Path, **sandbox: Any) -> None:
    write_settings(project, {"sandbox": {"enabled": True, **sandbox}})


def test_a_sandboxed_call_is_auto_allowed_and_the_kernel_holds_the_rule(project: Path) -> None:
    enable(project)
    write_settings(project, {"permissions": {"deny": ["Edit(.env)"]}}, "settings.local.json")
    code, events, err = run(project, [WRITE_ENV], "--trust-project")
    assert code == 0, err
    status, text = outcome(events, "c0")
    assert status == "ran" and "Read-only file system" in text
    assert (project / "ran.txt").exists()
    assert (project / ".env").read_text() == "KEY=original\n"


def test_without_the_sandbox_the_same_line_needs_approval(project: Path) -> None:
    code, events, err = run(project, [WRITE_ENV])
    assert code == 0, err
    assert outcome(events, "c0") == ("denied", "no_ui")
    assert (project / ".env").read_text() == "KEY=original\n"


def test_without_the_sandbox_bypass_lets_a_program_write_what_an_edit_rule_denies(
    project: Path,
) -> None:
    """What the sandbox is for: the rules alone do not see a program's own writes."""
    write_settings(project, {"permissions": {"deny": ["Edit(.env)"]}})
    code, _events, err = run(
        project, [WRITE_ENV], "--permission-mode", "bypassPermissions", "--trust-project"
    )
    assert code == 0, err
    assert (project / ".env").read_text() == "pwned\n"
    enable(project)
    write_settings(project, {"permissions": {"deny": ["Edit(.env)"]}}, "settings.local.json")
    (project / ".env").write_text("KEY=original\n")
    code, _events, err = run(
        project, [WRITE_ENV], "--permission-mode", "bypassPermissions", "--trust-project"
    )
    assert code == 0, err
    assert (project / ".env").read_text() == "KEY=original\n"


def test_deny_and_ask_rules_still_win_over_auto_allow(project: Path) -> None:
    enable(project)
    write_settings(
        project,
        {"permissions": {"deny": ["Bash(python3 *)"], "ask": ["Bash(touch *)"]}},
        "settings.local.json",
    )
    code, events, err = run(
        project, ["python3 -c 1", "touch asked", "echo fine > fine.txt"], "--trust-project"
    )
    assert code == 0, err
    assert outcome(events, "c0") == ("denied", "rule")
    assert outcome(events, "c1")[0] == "denied"
    assert not (project / "asked").exists()
    assert (project / "fine.txt").read_text() == "fine\n"


@pytest.mark.parametrize(
    "line",
    [
        "source /dev/null; touch x",
        ". /dev/null; touch x",
        "echo $$ > x",
        "(touch x)",
        'eval "$(echo touch x)"',
    ],
)
def test_lines_the_sandbox_cannot_vet_are_not_auto_allowed(project: Path, line: str) -> None:
    enable(project)
    code, events, err = run(project, [line])
    assert code == 0, err
    assert outcome(events, "c0") == ("denied", "no_ui")
    assert not (project / "x").exists() and not (project / "y").exists()


def test_dangerously_disable_sandbox_asks_in_default_and_runs_in_bypass(
    project: Path, tmp_path: Path
) -> None:
    enable(project)
    escaped = tmp_path / "escaped"
    call = {"command": f"touch {escaped}", "dangerouslyDisableSandbox": True}
    code, events, err = run(project, [call])
    assert code == 0, err
    assert outcome(events, "c0") == ("denied", "no_ui")
    assert not escaped.exists()
    code, events, err = run(project, [call], "--permission-mode", "bypassPermissions")
    assert code == 0, err
    assert outcome(events, "c0")[0] == "ran"
    assert escaped.exists()  # outside the project: only unsandboxed can write there


def test_allow_unsandboxed_commands_false_ignores_the_argument(
    project: Path, tmp_path: Path
) -> None:
    enable(project, allowUnsandboxedCommands=False)
    escaped = tmp_path / "escaped"
    call = {"command": f"touch {escaped}", "dangerouslyDisableSandbox": True}
    for mode in ("default", "bypassPermissions"):
        code, events, err = run(project, [call], "--permission-mode", mode, "--trust-project")
        assert code == 0, err
        status, text = outcome(events, "c0")
        assert status == "ran" and "Read-only file system" in text
        assert not escaped.exists()


def test_excluded_commands_run_outside_and_go_through_permissions(
    project: Path, tmp_path: Path
) -> None:
    enable(project, excludedCommands=["touch"])
    outside = tmp_path / "outside"
    code, events, err = run(project, [f"touch {outside}"], "--trust-project")
    assert code == 0, err
    assert outcome(events, "c0") == ("denied", "no_ui")  # unsandboxed: not auto-allowed
    code, events, err = run(
        project,
        [f"touch {outside}", f"touch {outside}2 && echo x > {outside}3"],
        "--trust-project",
        "--permission-mode",
        "bypassPermissions",
    )
    assert code == 0, err
    assert outside.exists()  # the excluded command ran outside the sandbox
    assert not (tmp_path / "outside3").exists()  # a mixed line stays inside
    assert not (tmp_path / "outside2").exists()


def test_fail_if_unavailable_refuses_to_start(project: Path) -> None:
    enable(project, failIfUnavailable=True)
    code, _events, err = run(
        project, ["touch x"], "--trust-project", HOOKLINE_BWRAP="/nonexistent/bwrap"
    )
    assert code == 1
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert "sandbox required but unavailable" in lines[0]
    assert "bubblewrap (bwrap) not installed" in lines[0]
    assert not (project / "x").exists()


def test_fail_if_unavailable_refuses_when_bwrap_is_broken(project: Path, tmp_path: Path) -> None:
    fake = tmp_path / "bwrap"
    fake.write_text(
        "#!/bin/sh\necho 'bwrap: No permissions to creating new namespace' >&2\nexit 1\n"
    )
    fake.chmod(0o755)
    enable(project, failIfUnavailable=True)
    code, _, err = run(project, ["touch x"], HOOKLINE_BWRAP=str(fake))
    assert code == 1
    assert "sandbox required but unavailable" in err and "namespace" in err


def test_unavailable_without_fail_warns_and_asks_as_usual(project: Path) -> None:
    enable(project)
    code, events, err = run(project, ["touch x"], HOOKLINE_BWRAP="/nonexistent/bwrap")
    assert code == 0, err
    assert "sandbox unavailable" in err
    assert outcome(events, "c0") == ("denied", "no_ui")  # no auto-allow without the sandbox
    assert not (project / "x").exists()


def test_an_untrusted_project_cannot_loosen_the_sandbox(project: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    write_settings(
        project,
        {
            "sandbox": {
                "enabled": True,
                "excludedCommands": ["python3"],
                "filesystem": {"allowWrite": [str(elsewhere)]},
                "network": {"allowedDomains": ["example.com"]},
            },
            "permissions": {"deny": ["Edit(.env)"]},
        },
    )
    code, _events, err = run(
        project,
        [WRITE_ENV, f"echo x > {elsewhere}/planted"],
        "--permission-mode",
        "bypassPermissions",
    )
    assert code == 0, err
    assert "sandbox.excludedCommands" in err and "sandbox.filesystem.allowWrite" in err
    assert "sandbox.network.allowedDomains" in err
    assert (project / ".env").read_text() == "KEY=original\n"  # python3 stayed sandboxed
    assert not (elsewhere / "planted").exists()


def test_an_untrusted_project_that_enables_the_sandbox_does_not_switch_on_auto_allow(
    project: Path,
) -> None:
    # enabling the sandbox restricts, so it survives; auto-allow would loosen, so it does not
    enable(project)
    code, events, err = run(project, ["touch made"])
    assert code == 0, err
    assert outcome(events, "c0") == ("denied", "no_ui")
    assert not (project / "made").exists()
    # the same project, trusted: sandboxed and auto-allowed
    code, events, err = run(project, ["touch made"], "--trust-project")
    assert code == 0, err
    assert outcome(events, "c0")[0] == "ran" and (project / "made").exists()


def test_a_refused_write_is_a_note_an_event_and_an_audit_line(project: Path) -> None:
    enable(project)
    write_settings(project, {"permissions": {"deny": ["Edit(.env)"]}}, "settings.local.json")
    audit = project.parent / "audit.jsonl"
    code, events, err = run(project, [WRITE_ENV], "--trust-project", "--audit-log", str(audit))
    assert code == 0, err
    status, text = outcome(events, "c0")
    assert status == "ran" and "<sandbox_violations>" in text and "filesystem:" in text
    violations = [e for e in events if e["type"] == "sandbox_violation"]
    assert [v["kind"] for v in violations] == ["filesystem"]
    assert "Read-only file system" in violations[0]["reason"]
    lines = [json.loads(line) for line in audit.read_text().splitlines()]
    logged = [line for line in lines if line["kind"] == "sandbox_violation"]
    assert [line["violation"] for line in logged] == ["filesystem"]
    assert (project / ".env").read_text() == "KEY=original\n"
