"""The ``hookline`` command line: help, usage errors (one line, exit 2), sessions."""

from __future__ import annotations

from pathlib import Path

import pytest

from .helpers import json_lines, read_jsonl, run_cli, session_files, write_script

DOCUMENTED_FLAGS = (
    "--model",
    "--base-url",
    "--hook",
    "--extension",
    "--settings",
    "--no-session",
    "--session",
    "--resume",
    "--continue",
    "--permission-mode",
    "--trust-project",
    "--cwd",
    "-p",
    "--print",
    "--mode",
)


def _one_error_line(stderr: str) -> str:
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    assert "Traceback" not in stderr
    return lines[0]


def test_help_documents_every_flag() -> None:
    done = run_cli("--help")

    assert done.returncode == 0
    for flag in DOCUMENTED_FLAGS:
        assert f"{flag} " in done.stdout or f"{flag}," in done.stdout, flag
    for mode in ("default", "acceptEdits", "plan", "bypassPermissions", "dontAsk"):
        assert mode in done.stdout
    for word in ("json", "rpc", "scripted:FILE", "anthropic:NAME", "openai:NAME"):
        assert word in done.stdout
    for command in ("hookline trust", "hookline untrust", "hookline settings schema"):
        assert command in done.stdout


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--bogus"], "unknown option --bogus: no loaded hook registers it"),
        (["-p", "x", "--permission-mode", "yolo"], "--permission-mode"),
        (["--mode", "json"], "--mode json needs a prompt"),
        (["--mode", "rpc", "-p", "x"], "--mode rpc"),
        (["--mode", "xml", "-p", "x"], "--mode"),
        (["-p"], "-p"),
    ],
)
def test_usage_errors_are_one_line_and_exit_2(args: list[str], says: str) -> None:
    done = run_cli(*args)

    assert done.returncode == 2
    assert says in _one_error_line(done.stderr)
    assert done.stdout == ""


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (None, "file not found"),
        ("turns:\n  - [unclosed\n", "invalid YAML at line"),
        ("turns:\n  - tool_calls:\n      - arguments: {path: .}\n", "missing 'name'"),
        ("turns:\n  - txet: typo\n", "unknown key 'txet'"),
        ("turns: 5\n", "'turns' must be a list"),
        ("turns:\n  - delay_ms: -1\n", "delay_ms"),
    ],
)
def test_bad_script_files_are_one_clear_line(
    tmp_path: Path, content: str | None, problem: str
) -> None:
    script = tmp_path / "script.yaml"
    if content is not None:
        script.write_text(content)

    done = run_cli("-p", "hi", "--model", f"scripted:{script}", "--cwd", str(tmp_path))

    assert done.returncode == 2
    line = _one_error_line(done.stderr)
    assert str(script) in line
    assert problem in line
    assert done.stdout == ""


@pytest.mark.parametrize("spec", ["nosuch:model", "gpt-4", "scripted:", "anthropic:"])
def test_bad_model_spec_exits_2(tmp_path: Path, spec: str) -> None:
    done = run_cli("-p", "hi", "--model", spec, "--cwd", str(tmp_path))

    assert done.returncode == 2
    assert "invalid model" in _one_error_line(done.stderr)


def test_cwd_that_is_not_a_directory_exits_2(tmp_path: Path) -> None:
    done = run_cli("-p", "hi", "--cwd", str(tmp_path / "nowhere"))

    assert done.returncode == 2
    assert "is not a directory" in _one_error_line(done.stderr)


def test_missing_session_file_exits_2(tmp_path: Path) -> None:
    done = run_cli("-p", "hi", "--session", str(tmp_path / "gone.jsonl"), "--cwd", str(tmp_path))

    assert done.returncode == 2
    assert "gone.jsonl: no such file" in _one_error_line(done.stderr)


def test_relative_paths_are_taken_from_cwd(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    write_script(project / "script.json", ["relative ok"])
    (project / "extra.json").write_text('{"permissions": {"defaultMode": "plan"}}')
    hook = project / "hook.py"
    hook.write_text(
        "def register(pi):\n"
        "    @pi.on('agent_start')\n"
        "    def hi(event, ctx):\n"
        "        ctx.ui.notify('relative hook ran')\n"
    )

    first = run_cli(
        "-p", "hi", "--model", "scripted:script.json", "--hook", "hook.py",
        "--settings", "extra.json", "--cwd", "proj",
        cwd=tmp_path,
    )  # fmt: skip
    assert first.returncode == 0, first.stderr
    assert first.stdout == "relative ok\n"
    assert "relative hook ran" in first.stderr
    assert "does not exist" not in first.stderr  # the --settings file was found
    (session,) = session_files(Path.home())
    session.rename(project / "mine.jsonl")

    resumed = run_cli(
        "--mode", "json", "-p", "again", "--model", "scripted:script.json",
        "--session", "mine.jsonl", "--cwd", "proj",
        cwd=tmp_path,
    )  # fmt: skip
    assert resumed.returncode == 0, resumed.stderr
    start = json_lines(resumed.stdout)[0]
    assert start["session_file"] == str(project / "mine.jsonl")


def _context_texts(stdout: str) -> list[str]:
    """The text of every message the model was shown in the first model call."""
    context = next(e for e in json_lines(stdout) if e["type"] == "context")
    return [part.get("text", "") for m in context["messages_added"] for part in m["content"]]


def test_session_resumes_a_file_and_continue_picks_the_newest(tmp_path: Path) -> None:
    home = Path.home()
    model = write_script(tmp_path / "script.json", ["noted"])
    for word in ("alpha", "beta"):
        done = run_cli("-p", f"remember {word}", "--model", model, "--cwd", str(tmp_path))
        assert done.returncode == 0, done.stderr
    files = session_files(home)
    assert len(files) == 2
    alpha = next(f for f in files if "remember alpha" in f.read_text())
    beta = next(f for f in files if "remember beta" in f.read_text())

    newest = run_cli(
        "--mode", "json", "-p", "and now?", "--model", model, "-c", "--cwd", str(tmp_path)
    )  # fmt: skip
    assert newest.returncode == 0, newest.stderr
    assert _context_texts(newest.stdout) == ["remember beta", "noted", "and now?"]

    chosen = run_cli(
        "--mode", "json", "-p", "what now?", "--model", model, "--session", str(alpha),
        "--cwd", str(tmp_path),
    )  # fmt: skip
    assert chosen.returncode == 0, chosen.stderr
    assert _context_texts(chosen.stdout) == ["remember alpha", "noted", "what now?"]

    assert len(session_files(home)) == 2  # both runs appended to the existing files
    for path, word in ((alpha, "what now?"), (beta, "and now?")):
        messages = [e["message"] for e in read_jsonl(path) if e["type"] == "message"]
        assert [m["role"] for m in messages] == ["user", "assistant", "user", "assistant"]
        assert messages[2]["content"][0]["text"] == word


def test_no_session_writes_no_file(tmp_path: Path) -> None:
    model = write_script(tmp_path / "script.json", ["ephemeral"])

    done = run_cli(
        "--mode", "json", "-p", "hi", "--model", model, "--no-session", "--cwd", str(tmp_path)
    )  # fmt: skip

    assert done.returncode == 0, done.stderr
    start = json_lines(done.stdout)[0]
    assert start == {"type": "session_start", "source": "startup", "session_file": None}
    assert session_files(Path.home()) == []


FLAG_HOOK = """\
import sys


def register(pi):
    pi.register_flag("plan", description="start in plan mode")
    pi.register_flag("preset", type="string", default="fast", description="a preset name")

    @pi.on("session_start")
    def started(event, ctx):
        print(f"plan={pi.get_flag('plan')!r} preset={pi.get_flag('preset')!r} "
              f"mode={ctx.mode}", file=sys.stderr)
"""


def test_hook_flags_are_parsed_once_hooks_load_and_listed_in_help(tmp_path: Path) -> None:
    hook = tmp_path / "flags_hook.py"
    hook.write_text(FLAG_HOOK)
    script = write_script(tmp_path / "s.json", ["ok"])
    common = ["--hook", str(hook), "--model", script, "--no-session"]

    done = run_cli(*common, "-p", "hi", "--plan", "--preset=slow", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "plan=True preset='slow' mode=print" in done.stderr

    done = run_cli(*common, "-p", "hi", cwd=tmp_path)
    assert "plan=None preset='fast' mode=print" in done.stderr

    done = run_cli(*common, "-p", "hi", "--plan=maybe", cwd=tmp_path)
    assert done.returncode == 2
    assert f"--plan is a boolean flag ({hook}): got 'maybe'" in _one_error_line(done.stderr)

    done = run_cli(*common, "-p", "hi", "--plam", cwd=tmp_path)
    assert done.returncode == 2
    line = _one_error_line(done.stderr)
    assert "unknown option --plam" in line and f"--plan ({hook})" in line

    done = run_cli("--hook", str(hook), "--help", cwd=tmp_path)
    assert done.returncode == 0
    assert "hook flags:" in done.stdout
    assert "--plan  start in plan mode" in done.stdout and f"[hook {hook}]" in done.stdout
    assert "--preset VALUE  a preset name (default: fast)" in done.stdout


def test_tools_and_append_system_prompt_shape_the_run(tmp_path: Path) -> None:
    """``--tools`` offers only the tools named; ``--append-system-prompt`` adds a file's text
    (or the text itself) after the system prompt."""
    (tmp_path / "scout.md").write_text("You are a scout.")
    write = {"name": "write", "arguments": {"path": "out.txt", "content": "x"}}
    model = write_script(
        tmp_path / "script.json",
        [{"tool_calls": [write], "expect_system_contains": "\n\nYou are a scout."}, "done"],
    )
    done = run_cli(
        *("-p", "go", "--mode", "json", "--no-session", "--model", model),
        *("--tools", "read, ls", "--append-system-prompt", "scout.md"),
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert not (tmp_path / "out.txt").exists()  # write was not offered: the call failed
    results = [e for e in json_lines(done.stdout) if e.get("type") == "tool_execution_end"]
    assert results and results[0]["is_error"] is True

    bad = run_cli("-p", "go", "--model", model, "--tools", "read,nosuch", cwd=tmp_path)
    assert bad.returncode == 2
    assert "--tools: unknown tool(s) 'nosuch'" in _one_error_line(bad.stderr)
