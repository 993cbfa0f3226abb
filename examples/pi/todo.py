"""Todo: a ``todo`` tool for the model and ``/todos`` for the user, the list kept in the
session itself.

The Python version of pi's todo example. The tool (``list``, ``add`` with ``text``,
``toggle`` with ``id``, ``clear``) returns the whole list in its result's details,
so the session is the only store: when the session starts, is switched to, forked
or moved in with ``/tree``, the list is rebuilt from the last ``todo`` result on the
current branch, and a branch keeps the todos it had at that point. The tool draws
its own call and result in the terminal app; ``/todos`` shows the list until Esc.

Run it: ``hookline --hook examples/pi/todo.py`` and ask the model to keep a todo
list; ``/todos`` to see it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Literal

from pydantic import BaseModel, Field

from hookline import HookAPI, HookContext, Tool, ToolResult, ToolUpdate, parse_arguments
from hookline.components import TUI, Keybindings, matches_key, truncate_to_width

#: How many todos a collapsed ``list`` result shows.
SHOWN = 5


class TodoParams(BaseModel):
    action: Literal["list", "add", "toggle", "clear"]
    text: str | None = Field(default=None, description="Todo text (for add)")
    id: int | None = Field(default=None, description="Todo ID (for toggle)")


@dataclass(slots=True)
class Todo:
    id: int
    text: str
    done: bool = False


class TodoList:
    """The todos and the next id, rebuilt from the session's ``todo`` results."""

    def __init__(self) -> None:
        self.todos: list[Todo] = []
        self.next_id = 1

    def rebuild(self, branch: Sequence[Mapping[str, Any]]) -> None:
        """The state the last ``todo`` result on ``branch`` recorded (empty if none)."""
        self.todos, self.next_id = [], 1
        for entry in branch:
            message = entry.get("message") if entry.get("type") == "message" else None
            if not isinstance(message, Mapping) or message.get("role") != "tool":
                continue
            details = message.get("details")
            if message.get("tool_name") == "todo" and isinstance(details, Mapping):
                self.todos = [Todo(**t) for t in details.get("todos", [])]
                self.next_id = int(details.get("next_id", 1))

    def result(self, action: str, text: str, error: str | None = None) -> ToolResult:
        """``text`` for the model; the whole list in the details."""
        details: dict[str, Any] = {
            "action": action,
            "todos": [asdict(t) for t in self.todos],
            "next_id": self.next_id,
        }
        if error is not None:
            details["error"] = error
        return ToolResult([{"type": "text", "text": text}], details)

    def run(self, args: TodoParams) -> ToolResult:
        if args.action == "list":
            listing = "\n".join(f"[{'x' if t.done else ' '}] #{t.id}: {t.text}" for t in self.todos)
            return self.result("list", listing or "No todos")
        if args.action == "add":
            if not args.text:
                return self.result("add", "Error: text required for add", "text required")
            todo = Todo(self.next_id, args.text)
            self.todos.append(todo)
            self.next_id += 1
            return self.result("add", f"Added todo #{todo.id}: {todo.text}")
        if args.action == "toggle":
            if args.id is None:
                return self.result("toggle", "Error: id required for toggle", "id required")
            found = next((t for t in self.todos if t.id == args.id), None)
            if found is None:
                return self.result("toggle", f"Todo #{args.id} not found", f"#{args.id} not found")
            found.done = not found.done
            state = "completed" if found.done else "uncompleted"
            return self.result("toggle", f"Todo #{found.id} {state}")
        count = len(self.todos)
        self.todos, self.next_id = [], 1
        return self.result("clear", f"Cleared {count} todos")


class TodoView:
    """``/todos``: the list with how many are done, until Esc (or Ctrl+C)."""

    def __init__(self, todos: list[Todo], theme: Any, close: Any) -> None:
        self.todos, self.theme, self.close = todos, theme, close
        self._cache: tuple[int, list[str]] | None = None

    def handle_input(self, data: str) -> None:
        if matches_key(data, "escape") or matches_key(data, "ctrl+c"):
            self.close()

    def invalidate(self) -> None:
        self._cache = None

    def render(self, width: int) -> list[str]:
        if self._cache is not None and self._cache[0] == width:
            return self._cache[1]
        th = self.theme
        rule = th.fg("borderMuted", "─" * 3) + th.fg("accent", " Todos ")
        rule += th.fg("borderMuted", "─" * max(0, width - 10))
        lines = ["", rule, ""]
        if not self.todos:
            lines.append("  " + th.fg("dim", "No todos yet. Ask the agent to add some!"))
        else:
            done = sum(t.done for t in self.todos)
            lines += ["  " + th.fg("muted", f"{done}/{len(self.todos)} completed"), ""]
            for t in self.todos:
                check = th.fg("success", "✓") if t.done else th.fg("dim", "○")
                text = th.fg("dim" if t.done else "text", t.text)
                lines.append(f"  {check} {th.fg('accent', f'#{t.id}')} {text}")
        lines += ["", "  " + th.fg("dim", "Press Escape to close"), ""]
        shown = [truncate_to_width(line, width) for line in lines]
        self._cache = (width, shown)
        return shown


def render_call(args: dict[str, Any]) -> str:
    """``add "buy milk"``, ``toggle #2``."""
    text = str(args.get("action", ""))
    if args.get("text"):
        text += f' "{args["text"]}"'
    if args.get("id") is not None:
        text += f" #{args['id']}"
    return text


def render_result(text: str, options: dict[str, Any]) -> str:
    """The list (five of them unless expanded), the todo added, or what changed."""
    details = options.get("details")
    if not isinstance(details, dict):
        return text
    if details.get("error"):
        return f"Error: {details['error']}"
    todos = details.get("todos") or []
    action = details.get("action")
    if action == "list":
        if not todos:
            return "No todos"
        shown = todos if options.get("expanded") else todos[:SHOWN]
        lines = [f"{len(todos)} todo(s):"]
        lines += [f"{'✓' if t['done'] else '○'} #{t['id']} {t['text']}" for t in shown]
        if len(shown) < len(todos):
            lines.append(f"... {len(todos) - len(shown)} more")
        return "\n".join(lines)
    if action == "add" and todos:
        return f"✓ Added #{todos[-1]['id']} {todos[-1]['text']}"
    if action == "clear":
        return "✓ Cleared all todos"
    return f"✓ {text}"


def register(pi: HookAPI) -> None:
    state = TodoList()

    def rebuild(event: Any, ctx: HookContext) -> None:
        state.rebuild(ctx.session_manager.get_branch())

    for event in ("session_start", "session_switch", "session_fork", "session_tree"):
        pi.on(event, rebuild)

    async def execute(
        tool_call_id: str,
        params: dict[str, Any],
        signal: asyncio.Event | None,
        on_update: ToolUpdate | None,
    ) -> ToolResult:
        return state.run(parse_arguments("todo", TodoParams, params))

    pi.register_tool(
        Tool(
            "todo",
            "Manage a todo list. Actions: list, add (text), toggle (id), clear",
            TodoParams,
            execute,
            meta={"render_call": render_call, "render_result": render_result},
        )
    )

    @pi.register_command("todos", description="Show all todos on the current branch")
    async def show(args: str, ctx: Any) -> None:
        if not ctx.has_ui:
            ctx.ui.notify("/todos requires interactive mode", "error")
            return

        def factory(tui: TUI, theme: Any, keybindings: Keybindings, done: Any) -> TodoView:
            return TodoView(state.todos, theme, lambda: done(None))

        await ctx.ui.custom(factory)
