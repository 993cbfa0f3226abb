"""Prompt templates and skills: found in folders, filled with arguments, listed as commands."""

from __future__ import annotations

from pathlib import Path

from hookline.core.resources import (
    ResourcePaths,
    Resources,
    SlashCommandInfo,
    parse_command_args,
    substitute_args,
)


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_arguments_fill_the_template_as_pi_fills_them() -> None:
    args = parse_command_args("""one "two words" 'three' four""")
    assert args == ["one", "two words", "three", "four"]
    assert substitute_args("$1|$2|$9|${@:2}|${@:2:1}|$@|$ARGUMENTS", args) == (
        "one|two words||two words three four|two words|"
        "one two words three four|one two words three four"
    )


def test_project_user_and_extra_folders(tmp_path: Path) -> None:
    project, home = tmp_path / "p", tmp_path / "home"
    _write(project / ".hookline/prompts/review.md", "---\ndescription: Review it\n---\nReview $1\n")
    _write(home / "prompts/review.md", "the user's review, shadowed\n")
    _write(home / "prompts/plain.md", "\nFirst line is the description\nmore\n")
    skill = _write(
        home / "skills/lint/SKILL.md", "---\nname: lint\ndescription: Lint <code>\n---\nRun ruff.\n"
    )
    _write(home / "skills/nodesc/SKILL.md", "---\nname: nodesc\n---\nno description\n")
    extra = _write(tmp_path / "x/extra.md", "---\ndescription: Extra\n---\nExtra body\n")
    found = Resources.load(str(project), home, ResourcePaths(prompts=(str(extra),)))
    assert found.commands() == [
        SlashCommandInfo(
            "review", "Review it", "prompt", "project", str(project / ".hookline/prompts/review.md")
        ),
        SlashCommandInfo(
            "plain",
            "First line is the description",
            "prompt",
            "user",
            str(home / "prompts/plain.md"),
        ),
        SlashCommandInfo("extra", "Extra", "prompt", "path", str(extra)),
        SlashCommandInfo("skill:lint", "Lint <code>", "skill", "user", str(skill)),
    ]
    assert found.expand("/review main.py now") == "Review main.py\n"
    assert found.expand("/skill:lint fix it") == (
        f'<skill name="lint" location="{skill}">\n'
        f"References are relative to {skill.parent}.\n\nRun ruff.\n</skill>\n\nfix it"
    )
    assert found.expand("/unknown x") == "/unknown x"
    assert found.expand("plain text") == "plain text"
    prompt = found.add_to_prompt("BASE")
    assert prompt.startswith("BASE\n\nThe following skills")
    assert "<description>Lint &lt;code&gt;</description>" in prompt
    assert Resources().add_to_prompt("BASE") == "BASE"
