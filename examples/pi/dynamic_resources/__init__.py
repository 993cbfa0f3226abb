"""Dynamic resources: a hook ships a skill, a prompt template and a theme of its own.

The Python version of pi's dynamic-resources example. Its ``resources_discover`` handler
returns the files beside this module; hookline loads them as if found on disk, at
start-up and again on ``/reload``: ``/dynamic`` is the prompt template (``dynamic.md``),
``/skill:dynamic-resources`` the skill (``SKILL.md``, also listed in the system prompt),
and ``dynamic.json`` a theme in pi's format.

Run it: ``hookline --hook examples/pi/dynamic_resources``, then ``/dynamic``.
"""

from __future__ import annotations

from pathlib import Path

from hookline import HookAPI, HookContext, ResourcesDiscoverEvent, ResourcesDiscoverResult

HERE = Path(__file__).parent


def register(pi: HookAPI) -> None:
    @pi.on("resources_discover")
    def discover(event: ResourcesDiscoverEvent, ctx: HookContext) -> ResourcesDiscoverResult:
        return ResourcesDiscoverResult(
            skill_paths=[str(HERE / "SKILL.md")],
            prompt_paths=[str(HERE / "dynamic.md")],
            theme_paths=[str(HERE / "dynamic.json")],
        )
