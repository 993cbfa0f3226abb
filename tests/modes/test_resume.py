"""Coming back to a session: the exit hint, ``--resume ID`` (an id, a prefix, a file), ``-c``."""

from __future__ import annotations

import json
import re
from pathlib import Path

from .helpers import json_lines, read_jsonl, run_cli, session_files, write_script

_HINT = re.compile(r"^Resume with: hookline --resume (\S+)$", re.MULTILINE)


def _context_texts(stdout: str) -> list[str]:
    """The text of every message the model was shown in the first model call."""
    context = next(e for e in json_lines(stdout) if e["type"] == "context")
    return [part.get("text", "") for m in context["messages_added"] for part in m["content"]]


def _remember(project: Path, model: str, word: str) -> str:
    """A print run that leaves a session; the id its exit hint gives."""
    done = run_cli("-p", f"remember {word}", "--model", model, "--cwd", str(project))
    assert done.returncode == 0, done.stderr
    assert done.stdout == "noted\n"  # the hint stays off the answer
    found = _HINT.findall(done.stderr)
    assert len(found) == 1, done.stderr
    return str(found[0])


def _ask(project: Path, model: str, *flags: str) -> list[str]:
    done = run_cli(
        "--mode", "json", "-p", "and now?", "--model", model, *flags, "--cwd", str(project)
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return _context_texts(done.stdout)


def test_print_mode_names_the_session_to_resume_on_stderr(project: Path) -> None:
    model = write_script(project / "script.json", ["noted"])

    session_id = _remember(project, model, "alpha")

    (file,) = session_files(Path.home())
    assert read_jsonl(file)[0]["id"] == session_id


def test_no_hint_without_a_session_file(project: Path) -> None:
    model = write_script(project / "script.json", ["noted"])

    done = run_cli("-p", "hi", "--model", model, "--no-session", "--cwd", str(project))

    assert done.returncode == 0, done.stderr
    assert "Resume with" not in done.stderr


def test_resume_takes_an_id_a_prefix_or_a_file(project: Path) -> None:
    model = write_script(project / "script.json", ["noted"])
    alpha = _remember(project, model, "alpha")
    _remember(project, model, "beta")  # the newest: --resume ID must not fall back to it
    (alpha_file,) = [f for f in session_files(Path.home()) if alpha in f.name]

    for ref in (alpha, alpha[:8], str(alpha_file)):
        assert _ask(project, model, "--resume", ref)[:2] == ["remember alpha", "noted"], ref


def test_resume_finds_an_id_of_another_project(project: Path) -> None:
    model = write_script(project / "script.json", ["noted"])
    other = project / "other"
    other.mkdir()
    alpha = _remember(other, model, "alpha")

    assert _ask(project, model, "--resume", alpha[:8])[:2] == ["remember alpha", "noted"]


def test_continue_takes_the_most_recent(project: Path) -> None:
    model = write_script(project / "script.json", ["noted"])
    _remember(project, model, "alpha")
    _remember(project, model, "beta")

    for flags in (["-c"], ["--continue"]):
        assert _ask(project, model, *flags)[:2] == ["remember beta", "noted"], flags


def test_resume_without_an_id_needs_the_terminal_app(project: Path) -> None:
    """The picker is the terminal app's: without it, say what to pass instead."""
    model = write_script(project / "script.json", ["noted"])
    _remember(project, model, "alpha")
    for flags in (["-p", "x", "--resume"], ["-r", "-p", "x"], ["--resume"]):
        done = run_cli(*flags, "--model", model, "--cwd", str(project))
        assert done.returncode == 2, flags
        assert "--resume ID" in done.stderr and "-c" in done.stderr, done.stderr


def test_an_ambiguous_prefix_lists_the_candidates(project: Path) -> None:
    model = write_script(project / "script.json", ["noted"])
    _remember(project, model, "alpha")
    _remember(project, model, "beta")
    for number, file in enumerate(session_files(Path.home())):
        lines = file.read_text().splitlines(keepends=True)
        header = json.loads(lines[0])
        header["id"] = f"abc{number}-{header['id']}"
        file.write_text(json.dumps(header) + "\n" + "".join(lines[1:]))

    done = run_cli("-p", "x", "--model", model, "--resume", "abc", "--cwd", str(project))

    assert done.returncode == 2
    assert "'abc' is the start of 2 session ids" in done.stderr
    assert "remember alpha" in done.stderr and "remember beta" in done.stderr
    assert "Traceback" not in done.stderr


def test_an_unknown_id_says_how_to_list_sessions(project: Path) -> None:
    model = write_script(project / "script.json", ["noted"])

    done = run_cli("-p", "x", "--model", model, "--resume", "nope", "--cwd", str(project))

    assert done.returncode == 2
    assert done.stderr.count("\n") == 1, done.stderr
    assert "no session id starts with 'nope'" in done.stderr
    assert "/resume" in done.stderr
    assert session_files(Path.home()) == []  # no new session was started either


def test_resume_id_and_session_file_conflict(project: Path) -> None:
    done = run_cli("-p", "x", "--resume", "abc", "--session", "f.jsonl", "--cwd", str(project))

    assert done.returncode == 2
    assert "give one" in done.stderr
