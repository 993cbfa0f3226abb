"""`hookline hooks list|explain|test|replay`: run as a user runs them, in a real process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest


def hooks(project: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hookline.cli", "hooks", *args],
        cwd=project,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def in_process(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    *args: str,
    stdin: str = "",
) -> tuple[int, str, str]:
    """``hookline hooks ARGS`` in this process (cheaper); exit code, stdout, stderr."""
    import io

    from hookline.cli import main

    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    try:
        code = main(["hooks", *args])
    except SystemExit as exc:  # argparse: --help and usage errors
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def as_json(done: subprocess.CompletedProcess[str]) -> Any:
    return json.loads(done.stdout)


# -- list ------------------------------------------------------------------------


def test_list_shows_each_hook_with_its_status(project: Path) -> None:
    done = hooks(project, "list", "--json", "--trust-project")
    assert done.returncode == 0, done.stderr
    rows = as_json(done)["hooks"]
    by = {(r["kind"], Path(r["source"]).name, r.get("hook")): r for r in rows}
    guard = by[("module", "guard.py", None)]
    assert (guard["status"], guard["events"], guard["priority"]) == ("loaded", ["tool_call"], 1)
    assert guard["scope"] == "project"
    failed = by[("module", "claude_style.py", None)]
    assert failed["status"] == "failed"
    assert "in hookline this is 'tool_call'" in failed["detail"]
    settings = [r for r in rows if r["kind"] == "settings"]
    statuses = [(r["events"][0], r.get("matcher"), r["status"]) for r in settings]
    assert statuses == [
        ("PreToolUse", "Bash", "loaded"),
        ("PreToolUse", "Bash", "shadowed"),
        ("PreToolUse", "Edit|Write", "loaded"),
        ("StatusLine", None, "never_fires"),
    ]
    assert "duplicate of" in settings[1]["detail"]


def test_list_without_trust_says_why_hooks_are_skipped(project: Path) -> None:
    done = hooks(project, "list", "--json")
    rows = as_json(done)["hooks"]
    modules = [r for r in rows if r["kind"] == "module"]
    assert {r["status"] for r in modules} == {"skipped"}
    assert all("not trusted" in r["detail"] for r in modules)
    assert any("not trusted" in n for n in as_json(done)["notes"])


def test_list_shows_a_shadowed_module_and_what_shadows_it(project: Path) -> None:
    done = hooks(project, "list", "--json", "--trust-project", "--hook", ".hookline/hooks/guard.py")
    rows = [r for r in as_json(done)["hooks"] if Path(r["source"]).name == "guard.py"]
    assert [(r["scope"], r["status"]) for r in rows] == [("cli", "loaded"), ("project", "shadowed")]
    assert "shadowed by" in rows[1]["detail"] and "(cli)" in rows[1]["detail"]


def test_list_text_form(project: Path) -> None:
    done = hooks(project, "list", "--trust-project")
    assert "Module hooks (2):" in done.stdout
    assert "tool_call — loaded" in done.stdout
    assert "never fires in hookline" in done.stdout


# -- explain ---------------------------------------------------------------------


def test_explain_shows_matchers_dedupe_order_and_timeouts(project: Path) -> None:
    done = hooks(project, "explain", "PreToolUse", "--tool", "Bash", "--json", "--trust-project")
    assert done.returncode == 0, done.stderr
    ex = as_json(done)
    assert ex["event"] == "tool_call" and ex["claude_event"] == "PreToolUse"
    assert ex["query"] == "Bash"
    assert [Path(m["hook"]).name for m in ex["modules"]] == ["guard.py"]
    assert ex["modules"][0]["timeout"] == 30
    matched = {m["matcher"]: m["matched"] for m in ex["settings"]["matchers"]}
    assert matched == {"Bash": True, "Edit|Write": False}
    assert len(ex["settings"]["deduped"]) == 1
    assert "duplicate command" in ex["settings"]["deduped"][0]["reason"]
    assert [o["timeout"] for o in ex["settings"]["order"]] == [
        600
    ]  # a command hook with no timeout: the documented 600 s default


def test_explain_an_edit_selects_the_edit_hook_with_its_timeout(project: Path) -> None:
    done = hooks(project, "explain", "tool_call", "--tool", "edit", "--trust-project")
    assert "query 'Edit'" in done.stdout
    assert "'Edit|Write'" in done.stdout and ": matches" in done.stdout
    assert "timeout 5 s" in done.stdout


def test_explain_a_tool_event_without_a_tool_is_a_clear_error(project: Path) -> None:
    done = hooks(project, "explain", "tool_call", "--trust-project")
    assert done.returncode == 2
    assert "--tool" in done.stderr


def test_explain_an_unknown_event_suggests(project: Path) -> None:
    done = hooks(project, "explain", "tool_cal", "--tool", "bash")
    assert done.returncode == 2
    assert "did you mean 'tool_call'" in done.stderr


# -- test ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("payload", "code"),
    [
        ({"tool_name": "bash", "input": {"command": "ls"}}, 0),
        ({"tool_name": "Bash", "tool_input": {"command": "rm -rf /"}}, 1),
        ({"tool_name": "edit", "input": {"path": "a", "oldText": "x", "newText": "y"}}, 1),
        ({"tool_name": "bash", "input": {"command": "crash"}}, 2),
    ],
)
def test_test_exit_code_gates_ci(project: Path, payload: dict[str, Any], code: int) -> None:
    done = hooks(
        project, "test", "tool_call", "--input", "-", "--trust-project", stdin=json.dumps(payload)
    )
    assert done.returncode == code, done.stdout + done.stderr


def test_test_reports_each_hook_and_the_combined_result(project: Path) -> None:
    payload = {"tool_name": "Edit", "tool_input": {"file_path": "a", "old_string": "x"}}
    done = hooks(
        project,
        "test",
        "PreToolUse",
        "--input",
        "-",
        "--json",
        "--trust-project",
        stdin=json.dumps(payload),
    )
    report = as_json(done)
    assert report["modules"][0]["outcome"] == "no opinion"
    [settings] = report["settings"]
    assert (settings["kind"], settings["exit_code"], settings["reason"]) == (
        "blocking",
        2,
        "no edits",
    )
    assert report["result"] == {"block": True, "reason": "no edits"}
    assert report["exit_code"] == 1


def test_test_shows_a_rewrite_in_claude_vocabulary_input(project: Path, tmp_path: Path) -> None:
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"tool_name": "Read", "tool_input": {"file_path": "old.txt"}}))
    done = hooks(project, "test", "tool_call", "--input", str(event), "--json", "--trust-project")
    report = as_json(done)
    assert report["modules"][0]["outcome"].startswith("returned")
    assert report["result"]["input"] == {"path": "new.txt"}


def test_test_a_failing_hook_is_exit_2_with_its_error(project: Path) -> None:
    payload = {"tool_name": "bash", "input": {"command": "crash"}}
    done = hooks(
        project, "test", "tool_call", "--input", "-", "--trust-project", stdin=json.dumps(payload)
    )
    assert "raised ValueError: boom" in done.stdout
    assert "Verdict: error" in done.stdout


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        ("not json", "not JSON"),
        ("[1]", "JSON object"),
        ('{"tool_name": "bash", "tool_inputs": {}}', "unknown field 'tool_inputs'"),
        ('{"input": {}}', "needs 'tool_name'"),
    ],
)
def test_test_bad_input_is_exit_2_and_says_what(
    project: Path,
    stdin: str,
    message: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    args = ("test", "tool_call", "--input", "-", "--cwd", str(project))
    code, _, err = in_process(capsys, monkeypatch, *args, stdin=stdin)
    assert code == 2
    assert message in err


def test_test_an_untrusted_project_runs_none_of_its_hooks(project: Path) -> None:
    payload = {"tool_name": "bash", "input": {"command": "rm -rf /"}}
    done = hooks(project, "test", "tool_call", "--input", "-", stdin=json.dumps(payload))
    assert done.returncode == 0
    assert "no hook handles this event" in done.stdout
    assert "not trusted" in done.stderr


@pytest.mark.parametrize("sub", ["list", "explain", "test", "replay", "new"])
def test_every_subcommand_has_help(
    sub: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = in_process(capsys, monkeypatch, sub, "--help")
    assert code == 0 and "usage: hookline hooks " + sub in out
    assert len(out.split("\n\n", 2)[1]) > 40  # a description, not just the usage line


def test_hooks_is_listed_in_the_main_help(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from hookline.cli import main

    assert main(["--help"]) == 0  # help also lists hook flags, so it returns rather than exits
    assert "hookline hooks list|explain|test|replay|new" in capsys.readouterr().out


def test_list_says_which_hooks_disable_all_hooks_holds_back(project: Path) -> None:
    (project / ".hookline" / "settings.json").write_text('{"disableAllHooks": true}')
    rows = as_json(hooks(project, "list", "--json", "--trust-project"))["hooks"]
    assert rows and {r["status"] for r in rows} == {"skipped"}
    assert all("disableAllHooks" in r["detail"] for r in rows)


def test_list_shows_enabled_plugins_hooks_each_in_its_own_root(
    project: Path, isolated_home: Path
) -> None:
    """``hooks list`` loads plugins as the agent does; one command text in two plugins is
    two hooks (the plugin root is part of the dedupe identity), never a duplicate."""
    group = {"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}
    for name in ("alpha", "beta"):
        hooks_dir = isolated_home / ".hookline" / "plugins" / name / "hooks"
        hooks_dir.mkdir(parents=True)
        (hooks_dir / "hooks.json").write_text(json.dumps({"hooks": {"PreToolUse": [group]}}))
    done = hooks(project, "list", "--json", "--trust-project")
    assert done.returncode == 0, done.stderr
    rows = [r for r in as_json(done)["hooks"] if "plugins" in Path(r["source"]).parts]
    assert sorted(Path(r["source"]).parts[-3] for r in rows) == ["alpha", "beta"]
    assert {r["status"] for r in rows} == {"loaded"}
