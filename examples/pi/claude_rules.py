"""pi's claude-rules example: list the project's ``.claude/rules/*.md`` in the system prompt.

At ``session_start`` the hook finds every Markdown file under ``.claude/rules/``
(subfolders too) and says how many it found; before each run it appends a
"Project Rules" section naming them, so the model reads the ones a task needs
with the ``read`` tool instead of getting them all up front.

Keep each rule file on one topic (``testing.md``, ``api-design.md``) with a name
that says what it covers; group related ones in subfolders (``frontend/``).

    hookline --hook examples/pi/claude_rules.py
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hookline import BeforeAgentStartEvent, HookAPI, HookContext, SessionStartEvent


def find_markdown_files(folder: Path, base: str = "") -> list[str]:
    """The ``.md`` files under ``folder``, as paths relative to it (``/``-separated)."""
    if not folder.is_dir():
        return []
    found: list[str] = []
    for entry in sorted(folder.iterdir()):
        relative = f"{base}/{entry.name}" if base else entry.name
        if entry.is_dir():
            found.extend(find_markdown_files(entry, relative))
        elif entry.is_file() and entry.name.endswith(".md"):
            found.append(relative)
    return found


def rules_section(rule_files: list[str]) -> str:
    listed = "\n".join(f"- .claude/rules/{name}" for name in rule_files)
    return (
        "\n\n## Project Rules\n\n"
        "The following project rules are available in .claude/rules/:\n\n"
        f"{listed}\n\n"
        "When working on tasks related to these rules, use the read tool to load "
        "the relevant rule files for guidance.\n"
    )


def register(pi: HookAPI) -> None:
    rule_files: list[str] = []

    @pi.on("session_start")
    def scan(event: SessionStartEvent, ctx: HookContext) -> None:
        rule_files[:] = find_markdown_files(Path(ctx.cwd, ".claude", "rules"))
        if rule_files:
            ctx.ui.notify(f"Found {len(rule_files)} rule(s) in .claude/rules/", "info")

    @pi.on("before_agent_start")
    def list_rules(event: BeforeAgentStartEvent, ctx: HookContext) -> dict[str, Any] | None:
        if not rule_files:
            return None
        return {"system_prompt": event.system_prompt + rules_section(rule_files)}
