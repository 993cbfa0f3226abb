"""Sub-agent types: Claude Code's ``.claude/agents/*.md`` and ``~/.claude/agents/*.md``.

A definition is Markdown with YAML front matter::

    ---
    name: reviewer
    description: Reviews a change for bugs
    tools: Read, Grep, Glob        # optional; omitted = every tool of the agent
    disallowedTools: Bash          # optional
    model: sonnet                  # optional; omitted or "inherit" = the agent's model
    maxTurns: 20                   # optional
    ---
    You are a careful reviewer ...   (the body is the sub-agent's system prompt)

Enabled plugins' ``agents/*.md`` load as ``<plugin>:<name>``. Project
definitions override user ones of the same name and load only from a
trusted project: a definition chooses a model and tools, so it is
configuration, not text. ``general-purpose`` is built in (every tool, the
agent's own system prompt). A file that cannot be used is skipped with a
message naming it.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from hookline.core.vocabulary import HOOKLINE_TOOL_NAMES
from hookline.settings.safe_json import JsonFileError, read_text_file

GENERAL_PURPOSE = "general-purpose"
DEFAULT_MAX_TURNS = 50
_MAX_BYTES = 256 * 1024
#: Names of the sub-agent tool in Claude Code; a sub-agent never gets it (no nesting).
TASK_TOOL_NAMES = frozenset({"task", "Task", "Agent"})


@dataclass(frozen=True, slots=True)
class AgentDefinition:
    """One sub-agent type. ``tools`` ``None`` means every tool the agent has."""

    name: str
    description: str
    system_prompt: str | None = None  # None: the agent's own
    tools: frozenset[str] | None = None
    disallowed_tools: frozenset[str] = frozenset()
    model: str | None = None  # None: the agent's model
    max_turns: int = DEFAULT_MAX_TURNS
    path: Path | None = None

    def allows(self, tool_name: str) -> bool:
        """Whether the sub-agent gets ``tool_name`` (hookline's name)."""
        if tool_name in TASK_TOOL_NAMES or tool_name in self.disallowed_tools:
            return False
        return self.tools is None or tool_name in self.tools


BUILT_IN = AgentDefinition(
    GENERAL_PURPOSE,
    "General-purpose agent for researching questions, searching code and multi-step tasks.",
)


@dataclass(slots=True)
class AgentTypes:
    """The sub-agent types by name, and problems with the files."""

    by_name: dict[str, AgentDefinition] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


def load_agent_types(
    project_dir: str | os.PathLike[str],
    *,
    project_trusted: bool,
    home: Path | None = None,
    plugins: Sequence[tuple[str, Path]] = (),
) -> AgentTypes:
    """``general-purpose``, plugins' (``(name, root)``), ``~/.claude/agents``, then the
    project's (later wins)."""
    out = AgentTypes({GENERAL_PURPOSE: BUILT_IN})
    for plugin, root in plugins:
        for found in _folder(root / "agents", out.warnings):
            out.by_name[f"{plugin}:{found.name}"] = replace(found, name=f"{plugin}:{found.name}")
    folders = [(home or Path.home()) / ".claude" / "agents"]
    project = Path(project_dir) / ".claude" / "agents"
    if project_trusted:
        folders.append(project)
    elif project.is_dir() and any(project.glob("*.md")):
        out.warnings.append(
            f"sub-agent types in {project} are not loaded: the project is not trusted"
        )
    for folder in folders:
        for found in _folder(folder, out.warnings):
            out.by_name[found.name] = found
    return out


def _folder(folder: Path, warnings: list[str]) -> list[AgentDefinition]:
    """The definitions of a folder's ``*.md`` files, sorted by file name."""
    if not folder.is_dir():
        return []
    out: list[AgentDefinition] = []
    for path in sorted(folder.glob("*.md")):
        found = parse_agent_file(path)
        if isinstance(found, str):
            warnings.append(found)
        else:
            out.append(found)
    return out


def parse_agent_file(path: Path) -> AgentDefinition | str:
    """The definition in ``path``, or a message saying what is wrong with it."""
    try:
        text = read_text_file(path, max_bytes=_MAX_BYTES)
    except JsonFileError as exc:
        return f"sub-agent file skipped: {exc}"
    front, body = _split_front_matter(text)
    if front is None:
        return f"{path}: no YAML front matter (--- name: ... ---); skipped"
    import yaml  # lazily: only agent files need it

    try:
        meta = yaml.safe_load(front)
    except yaml.YAMLError as exc:
        return f"{path}: invalid front matter: {exc}; skipped"
    if not isinstance(meta, dict):
        return f"{path}: front matter must be a mapping; skipped"
    name = meta.get("name")
    description = meta.get("description")
    if not isinstance(name, str) or not name.strip():
        return f"{path}: front matter needs a `name`; skipped"
    if not isinstance(description, str):
        return f"{path}: front matter needs a `description`; skipped"
    try:
        tools = _tool_set(meta.get("tools"))
        disallowed = _tool_set(meta.get("disallowedTools")) or frozenset()
    except ValueError as exc:
        return f"{path}: {exc}; skipped"
    model = meta.get("model")
    if model is not None and not isinstance(model, str):
        return f"{path}: `model` must be a string; skipped"
    turns = meta.get("maxTurns", DEFAULT_MAX_TURNS)
    if not isinstance(turns, int) or isinstance(turns, bool) or turns < 1:
        return f"{path}: `maxTurns` must be a positive integer; skipped"
    return AgentDefinition(
        name=name.strip(),
        description=description.strip(),
        system_prompt=body.strip() or None,
        tools=tools,
        disallowed_tools=disallowed,
        model=None if model in (None, "", "inherit") else model,
        max_turns=turns,
        path=path,
    )


def _split_front_matter(text: str) -> tuple[str | None, str]:
    lines = text.splitlines()
    if not lines or lines[0].strip() != "---":
        return None, text
    for i, line in enumerate(lines[1:], start=1):
        if line.strip() == "---":
            return "\n".join(lines[1:i]), "\n".join(lines[i + 1 :])
    return None, text


def _tool_set(value: Any) -> frozenset[str] | None:
    """``"Read, Grep"`` or ``[Read, Grep]`` → hookline tool names; ``None`` stays ``None``."""
    if value is None:
        return None
    items = value.split(",") if isinstance(value, str) else value
    if not isinstance(items, list) or not all(isinstance(i, str) for i in items):
        raise ValueError("`tools` must be a comma-separated string or a list of tool names")
    return frozenset(HOOKLINE_TOOL_NAMES.get(i.strip(), i.strip()) for i in items if i.strip())
