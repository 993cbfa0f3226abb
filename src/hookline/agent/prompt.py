"""The system prompt a model call is sent: the run's prompt plus what active tools add.

A tool's ``prompt_snippet`` (one line) is listed under "Available tools" and
its ``prompt_guidelines`` under "Guidelines", only while the tool is active;
tools that set neither add nothing, so the prompt is unchanged without them.
"""

from __future__ import annotations

from collections.abc import Iterable

from hookline.core.tool import Tool


def compose_system_prompt(base: str, tools: Iterable[Tool]) -> str:
    """``base`` with the active tools' snippets and guidelines appended."""
    snippets: list[str] = []
    guidelines: list[str] = []
    for tool in tools:
        if tool.prompt_snippet:
            snippets.append(f"- {tool.name}: {tool.prompt_snippet}")
        guidelines.extend(f"- {line}" for line in tool.prompt_guidelines)
    if not snippets and not guidelines:
        return base
    parts = [base]
    if snippets:
        parts.append("Available tools:\n" + "\n".join(snippets))
    if guidelines:
        parts.append("Guidelines:\n" + "\n".join(guidelines))
    return "\n\n".join(parts)
