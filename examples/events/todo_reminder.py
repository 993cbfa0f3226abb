"""``todo_reminder``: say how many todo items are open."""

from __future__ import annotations

from hookline import HookAPI, HookContext, TodoReminderEvent


def register(pi: HookAPI) -> None:
    @pi.on("todo_reminder")
    def open_items(event: TodoReminderEvent, ctx: HookContext) -> None:
        ctx.ui.notify(f"{len(event.todos)} todo items open (reminder {event.attempt})")
