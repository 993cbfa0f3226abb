"""Build real agents and real rule sets for the permission tests.

``run_agent`` writes the project's ``.claude/settings.json`` and a scripted
model's turns to files, builds the agent exactly as the CLI does, runs one
prompt and returns each tool result's text and error flag, in order.
"""

from __future__ import annotations

import io
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hookline.agent.permissions import PermissionCheck, PermissionRules, check_permission
from hookline.agent.setup import AgentOptions, build_agent
from hookline.core.messages import content_text


@dataclass(frozen=True)
class ToolOutcome:
    text: str
    is_error: bool


def write_settings(project: Path, settings: Mapping[str, Any], name: str = "settings.json") -> Path:
    path = project / ".claude" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(settings))
    return path


async def run_agent(
    project: Path,
    calls: Sequence[tuple[str, Mapping[str, Any]]],
    *,
    settings: Mapping[str, Any] | None = None,
    mode: str = "default",
    add_dirs: Sequence[str] = (),
) -> list[ToolOutcome]:
    """Run one prompt whose scripted model makes ``calls`` (tool name, input), one per turn."""
    if settings is not None:
        write_settings(project, settings)
    script = project.parent / "script.json"
    turns: list[Any] = [
        {"tool_calls": [{"name": name, "arguments": dict(args)}]} for name, args in calls
    ]
    script.write_text(json.dumps({"turns": [*turns, "done"]}))
    bundle = await build_agent(
        AgentOptions(
            cwd=str(project),
            model=f"scripted:{script}",
            no_session=True,
            permission_mode=mode,
            trust_project=True,
            add_dirs=list(add_dirs),
        ),
        stderr=io.StringIO(),
    )
    added = await bundle.agent.prompt("go")
    bundle.agent.session.close()
    return [
        ToolOutcome(content_text(m["content"]), bool(m["is_error"]))
        for m in added
        if m["role"] == "tool"
    ]


def decide(
    mode: str,
    tool: str,
    args: Mapping[str, Any],
    cwd: Path | str,
    *,
    allow: Sequence[str] = (),
    deny: Sequence[str] = (),
    ask: Sequence[str] = (),
    root: Path | str | None = None,
    add_dirs: Sequence[str] = (),
) -> PermissionCheck:
    """``check_permission`` with rules given as lists."""
    rules = PermissionRules.from_lists(
        allow,
        deny,
        ask,
        root=None if root is None else str(root),
        additional_directories=add_dirs,
    )
    return check_permission(mode, rules, tool, dict(args), str(cwd))
