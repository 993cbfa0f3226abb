"""The permission controls of the real app: Shift+Tab through the modes, shown in the
footer and holding from the next call, and ``/permissions`` listing the rules by file and
editing ``.claude/settings.local.json`` — judged by the screen, the files and what ran."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .helpers import app, bash
from .pane import Pane

#: tmux's name for Shift+Tab: it sends the terminal's back-tab, ``ESC [ Z``.
SHIFT_TAB = "BTab"
#: The working line while a dialog waits (the approval's own wording is not relied on).
ASKED = "Waiting for your answer…"
ACCEPT = "⏵⏵ accept edits on (shift+tab to cycle)"
PLAN = "⏸ plan mode on (shift+tab to cycle)"
BYPASS = "⏵⏵ bypass permissions on (shift+tab to cycle)"


def _write(path: str) -> dict[str, Any]:
    return {"tool_calls": [{"name": "write", "arguments": {"path": path, "content": "x\n"}}]}


def _footer(pane: Pane) -> str:
    """The footer row: the last line that shows the usage ("" while none is drawn)."""
    rows = [line for line in pane.screen().splitlines() if "msgs · ctx" in line]
    return rows[-1] if rows else ""


def _cycle(pane: Pane, shown: str) -> None:
    """One Shift+Tab, then the footer shows ``shown`` ("" : the default mode, no label)."""
    pane.keys(SHIFT_TAB)
    if shown:
        pane.wait_for(lambda s: shown in _footer(pane))
    else:
        pane.wait_for(lambda s: "msgs · ctx" in (f := _footer(pane)) and "shift+tab" not in f)


def _send(pane: Pane, text: str) -> None:
    pane.type(text)
    pane.keys("Enter")


def test_shift_tab_cycles_the_modes_and_accept_edits_writes_unasked(tmp_path: Path) -> None:
    turns = [_write("asked.txt"), "denied, fine", _write("free.txt"), "written"]
    project = tmp_path / "project"
    seen = tmp_path / "seen.jsonl"  # what a PreToolUse command hook was given
    record = {"type": "command", "command": f"cat >> {seen}; echo >> {seen}"}
    settings = tmp_path / "hooks.json"
    settings.write_text(json.dumps({"hooks": {"PreToolUse": [{"hooks": [record]}]}}))
    with app(tmp_path, turns, None, "--settings", str(settings)) as pane:
        pane.ready()
        assert "(shift+tab to cycle)" not in _footer(pane)  # default: no label
        _send(pane, "first")
        pane.wait_for(ASKED)  # default mode asks before a write
        pane.keys("Escape")
        pane.wait_for("denied, fine", whole=True)
        assert not (project / "asked.txt").exists()

        _cycle(pane, ACCEPT)
        _send(pane, "second")
        pane.wait_for("written", whole=True)
        assert ASKED not in pane.scrollback()
        assert (project / "free.txt").read_text() == "x\n"
        modes = [json.loads(line)["permission_mode"] for line in seen.read_text().splitlines()]
        assert modes == ["default", "acceptEdits"]

        _cycle(pane, PLAN)
        _cycle(pane, "")  # bypassPermissions was not allowed: skipped, back to default
        _cycle(pane, ACCEPT)


def test_bypass_is_on_the_ring_only_when_allowed_and_not_forbidden(tmp_path: Path) -> None:
    with app(tmp_path, ["hi"], None, "--allow-dangerously-skip-permissions") as pane:
        pane.ready()
        for shown in (ACCEPT, PLAN, BYPASS, "", ACCEPT):
            _cycle(pane, shown)

    forbidding = tmp_path / "policy.json"
    forbidding.write_text(json.dumps({"permissions": {"disableBypassPermissionsMode": "disable"}}))
    args = ("--allow-dangerously-skip-permissions", "--settings", str(forbidding))
    with app(tmp_path, ["hi"], None, *args) as pane:
        pane.ready()
        for shown in (ACCEPT, PLAN, ""):
            _cycle(pane, shown)


def test_a_session_started_in_bypass_cycles_back_to_it(tmp_path: Path) -> None:
    with app(tmp_path, ["hi"], None, "--dangerously-skip-permissions") as pane:
        pane.ready()
        pane.wait_for(lambda s: BYPASS in _footer(pane))
        for shown in ("", ACCEPT, PLAN, BYPASS):
            _cycle(pane, shown)


def _local(project: Path) -> Any:
    return json.loads((project / ".claude" / "settings.local.json").read_text())


def test_permissions_lists_by_file_and_edits_the_local_rules(tmp_path: Path) -> None:
    home = Path.home()  # the test's own (conftest)
    (home / ".claude").mkdir()
    (home / ".claude" / "settings.json").write_text(
        json.dumps({"permissions": {"deny": ["Bash(rm *)"]}})
    )
    project = tmp_path / "project"
    (project / ".claude").mkdir(parents=True)
    (project / ".claude" / "settings.json").write_text(
        json.dumps({"permissions": {"allow": ["Bash(git status)"]}})
    )
    made = project / "made.txt"
    turns = [
        bash("touch made.txt"),
        "made it",
        bash("touch again.txt"),
        "asked again",
    ]
    with app(tmp_path, turns, None, "--trust-project") as pane:
        pane.ready()
        _send(pane, "/permissions")
        pane.wait_flat(
            [
                "mode default · shift+tab cycles default → acceptEdits → plan",
                "bypassPermissions: start with --allow-dangerously-skip-permissions",
                "user ~/.claude/settings.json — your user settings; edit the file",
                "deny Bash(rm *)",
                "project .claude/settings.json — shared with the project; edit the file",
                "allow Bash(git status)",
                "local .claude/settings.local.json — this project, for you: editable here",
                "(no rules)",
            ]
        )
        pane.wait_all(["❯ Add an allow rule", "Add a deny rule", "Done"])
        assert "Remove a local rule" not in pane.screen()  # no local rule yet

        pane.keys("Enter")  # add an allow rule: the input
        pane.wait_for("New allow rule")
        pane.type("Bash(")  # a bad rule: its error, nothing written
        pane.keys("Enter")
        pane.wait_flat(["not added: 'Bash(' is not a rule"])
        assert not (project / ".claude" / "settings.local.json").exists()

        pane.wait_for("❯ Add an allow rule")  # the panel again
        pane.keys("Enter")
        pane.wait_for("New allow rule")
        pane.type("Bash(touch made.txt)")
        pane.keys("Enter")
        pane.wait_flat(["added allow rule Bash(touch made.txt) to .claude/settings.local.json"])
        assert _local(project) == {"permissions": {"allow": ["Bash(touch made.txt)"]}}
        pane.wait_for("Remove a local rule")
        pane.keys("Escape")
        pane.wait_for(lambda s: "Add an allow rule" not in s)

        _send(pane, "make it")  # the rule holds at once: no dialog
        pane.wait_for("made it", whole=True)
        assert made.exists() and ASKED not in pane.scrollback()

        _send(pane, "/permissions")
        pane.wait_for("❯ Add an allow rule")
        pane.keys("Down", "Down", "Down", "Enter")  # remove a local rule
        pane.wait_all(["Remove which local rule?", "❯ allow  Bash(touch made.txt)"])
        pane.keys("Enter")
        pane.wait_flat(["removed allow rule Bash(touch made.txt) from .claude/settings.local.json"])
        assert _local(project) == {"permissions": {"allow": []}}
        pane.wait_for("❯ Add an allow rule")
        pane.keys("Escape")
        pane.wait_for(lambda s: "Add an allow rule" not in s)

        made.unlink()
        _send(pane, "make it again")  # the same kind of call asks again
        pane.wait_for(ASKED)
        pane.keys("Escape")
        pane.wait_for("asked again", whole=True)


def test_permissions_takes_arguments_for_scripted_use(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / ".claude").mkdir(parents=True)
    (project / ".claude" / "settings.json").write_text(
        json.dumps({"permissions": {"allow": ["Bash(git status)"]}})
    )
    other = tmp_path / "other"
    other.mkdir()
    with app(tmp_path, ["hi"], None, "--trust-project", "--add-dir", str(other)) as pane:
        pane.ready()
        _send(pane, "/permissions")
        pane.wait_flat([f"workspace also edited in acceptEdits: {other}", "❯ Add an allow rule"])
        pane.keys("Escape")
        pane.wait_for(lambda s: "Add an allow rule" not in s)
        _send(pane, '/permissions allow "Bash(npm test)"')
        pane.wait_flat(["added allow rule Bash(npm test) to .claude/settings.local.json"])
        _send(pane, "/permissions deny Read(.env)")
        pane.wait_flat(["added deny rule Read(.env)"])
        assert _local(project) == {
            "permissions": {"allow": ["Bash(npm test)"], "deny": ["Read(.env)"]}
        }
        _send(pane, "/permissions ask Bash(")
        pane.wait_flat(["not added: 'Bash(' is not a rule"])
        _send(pane, "/permissions remove Bash(git status)")
        pane.wait_flat(
            ["Bash(git status) is not a local rule: it is in .claude/settings.json; edit that"]
        )
        pane.type("/permissions remove B")  # local rules complete after remove
        pane.wait_all(["remove Bash(npm test)", "a local allow rule"])
        pane.keys("C-u")
        _send(pane, "/permissions remove Bash(npm test)")
        pane.wait_flat(["removed allow rule Bash(npm test)"])
        _send(pane, "/permissions frobnicate")
        pane.wait_flat(["/permissions allow RULE add an allow rule to .claude/settings.local.json"])
    assert _local(project) == {"permissions": {"allow": [], "deny": ["Read(.env)"]}}
    assert "ask" not in _local(project)["permissions"]
