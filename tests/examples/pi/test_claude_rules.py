"""pi's claude-rules example (``examples/pi/claude_rules.py``): the project's rule files are
named in the system prompt of a real ``-p`` run (scripted model), subfolders included."""

from __future__ import annotations

from pathlib import Path

from tests.examples.harness import PI_EXAMPLES, Example
from tests.modes.helpers import run_cli, write_script


def _rules(project: Path) -> None:
    rules = project / ".claude" / "rules"
    (rules / "frontend").mkdir(parents=True)
    (rules / "testing.md").write_text("Run pytest.\n")
    (rules / "frontend" / "react.md").write_text("Hooks only.\n")
    (rules / "notes.txt").write_text("not a rule\n")


def test_the_rules_are_listed_in_the_system_prompt(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    _rules(project)
    model = write_script(
        tmp_path / "script.json",
        [
            {
                "text": "I will read the testing rules.",
                "expect_system_contains": [
                    "## Project Rules",
                    "- .claude/rules/frontend/react.md\n- .claude/rules/testing.md\n",
                    "use the read tool to load the relevant rule files",
                ],
            }
        ],
    )
    done = run_cli(
        *("-p", "add a test", "--model", model, "--no-session", "--cwd", str(project)),
        *("--hook", str(PI_EXAMPLES / "claude_rules.py")),
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "I will read the testing rules.\n"
    assert "notes.txt" not in done.stderr


async def test_it_counts_the_rules_and_leaves_a_project_without_rules_alone(
    example: Example, tmp_path: Path
) -> None:
    _rules(tmp_path)
    harness = example("claude_rules", cwd=tmp_path, answers={})
    await harness.emit("session_start")
    assert harness.ui.notifications == [("info", "Found 2 rule(s) in .claude/rules/")]

    bare = tmp_path / "bare"
    bare.mkdir()
    harness = example("claude_rules", cwd=bare, answers={})
    await harness.emit("session_start")
    emitted = await harness.emit("before_agent_start", prompt="hi", system_prompt="base")
    assert emitted.result is None or getattr(emitted.result, "system_prompt", None) is None
    assert harness.ui.notifications == []
