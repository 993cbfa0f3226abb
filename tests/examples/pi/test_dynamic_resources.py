"""pi's dynamic-resources example in Python (``examples/pi/dynamic_resources/``): the skill,
prompt template and theme beside the hook are loaded as if found on disk."""

from __future__ import annotations

from pathlib import Path

from hookline.core.theme import available_themes, theme_by_name
from tests.modes.helpers import run_cli, write_script

from ..harness import PI_EXAMPLES

HOOK = PI_EXAMPLES / "dynamic_resources"


def test_the_template_runs_and_the_skill_is_offered(tmp_path: Path, project: Path) -> None:
    turns = [
        {
            "text": "summarized",
            "expect_user_contains": "Summarize the current repository structure",
            "expect_system_contains": [
                "<name>dynamic-resources</name>",
                f"<location>{HOOK / 'SKILL.md'}</location>",
            ],
        },
        {
            "text": "skilled",
            "expect_user_contains": [
                f'<skill name="dynamic-resources" location="{HOOK / "SKILL.md"}">',
                "This skill is provided by the dynamic-resources hook.",
                "now go",
            ],
        },
    ]
    script = write_script(tmp_path / "script.json", turns)
    for prompt, answer in (
        ("/dynamic", "summarized"),
        ("/skill:dynamic-resources now go", "skilled"),
    ):
        done = run_cli("-p", prompt, "--model", script, "--hook", str(HOOK), cwd=project)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == answer
        turns.pop(0)
        write_script(tmp_path / "script.json", turns)


async def test_the_commands_are_listed_with_their_files(tmp_path: Path, project: Path) -> None:
    from hookline.agent.setup import AgentOptions, build_agent

    script = write_script(tmp_path / "script.json", ["ok"])
    bundle = await build_agent(AgentOptions(cwd=str(project), model=script, hook_paths=[str(HOOK)]))
    try:
        await bundle.agent.start()
        listed = [(c.name, c.source, c.location, c.path) for c in bundle.agent.get_commands()]
        assert listed == [
            ("dynamic", "prompt", "path", str(HOOK / "dynamic.md")),
            ("skill:dynamic-resources", "skill", "path", str(HOOK / "SKILL.md")),
        ]
        themes = bundle.agent.resources.themes
        assert themes == [HOOK / "dynamic.json"]
        assert "dynamic" in [info.name for info in available_themes(themes)]
        assert theme_by_name("dynamic", "truecolor", themes).hex("accent") == "#8abeb7"
    finally:
        await bundle.agent.shutdown()
        bundle.agent.session.close()
