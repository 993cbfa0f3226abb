"""The ``todo_write`` tool and the reminder that fires when the agent stops with work left."""

from __future__ import annotations

import asyncio
from typing import Any

from hookline.core.tool import Tool, ToolError, ToolResult, ToolUpdate

_STATUSES = ("pending", "in_progress", "completed")


class TodoList:
    """The model's own task list; the agent reminds it of open items before stopping."""

    def __init__(self) -> None:
        self.items: list[dict[str, str]] = []

    def open_items(self) -> list[dict[str, str]]:
        return [t for t in self.items if t.get("status") != "completed"]

    def tool(self) -> Tool:
        async def execute(
            call_id: str,
            params: dict[str, Any],
            signal: asyncio.Event | None,
            on_update: ToolUpdate | None,
        ) -> ToolResult:
            todos = params.get("todos")
            if not isinstance(todos, list):
                raise ToolError("todo_write needs 'todos': a list of {content, status}")
            items: list[dict[str, str]] = []
            for i, todo in enumerate(todos):
                if not isinstance(todo, dict) or not isinstance(todo.get("content"), str):
                    raise ToolError(f"todos[{i}] needs a string 'content'")
                status = todo.get("status", "pending")
                if status not in _STATUSES:
                    raise ToolError(f"todos[{i}].status must be one of {', '.join(_STATUSES)}")
                items.append({"content": todo["content"], "status": status})
            self.items = items
            lines = [
                f"[{'x' if t['status'] == 'completed' else ' '}] {t['content']}" for t in items
            ]
            return ToolResult([{"type": "text", "text": "\n".join(lines) or "(no todos)"}], items)

        return Tool(
            name="todo_write",
            description=(
                "Replace your task list; the agent reminds you of open items before you stop."
            ),
            parameters={
                "type": "object",
                "properties": {
                    "todos": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "properties": {
                                "content": {"type": "string"},
                                "status": {"type": "string", "enum": list(_STATUSES)},
                            },
                            "required": ["content"],
                        },
                    }
                },
                "required": ["todos"],
            },
            execute=execute,
        )
