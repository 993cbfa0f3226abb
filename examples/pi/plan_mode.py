"""pi's plan-mode example: explore read-only, plan in numbered steps, then carry the plan
out with its progress tracked.

- ``/plan`` (or Alt+P; pi's Ctrl+Alt+P is no key a terminal sends) toggles plan
  mode, ``--plan`` starts in it. In plan mode only the read-only tools are
  offered, ``bash`` runs only commands on an allowlist of readers, and a hidden
  message tells the model to answer with a ``Plan:`` of numbered steps.
- When a planning run ends, the steps are listed and the user picks: execute the
  plan (full tools; the model marks each finished step with ``[DONE:n]``, a
  widget ticks them off), stay in plan mode, or refine the plan (an editor).
- ``/todos`` shows the progress. The state is kept in the session and restored
  on resume, the ``[DONE:n]`` marks since the execution started counted again.

    hookline --hook examples/pi/plan_mode.py --plan
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Any

from hookline import (
    AgentEndEvent,
    BeforeAgentStartEvent,
    CommandContext,
    ContextEvent,
    HookAPI,
    HookContext,
    SessionStartEvent,
    ToolCallEvent,
    TurnEndEvent,
)

PLAN_MODE_TOOLS = ["read", "bash", "grep", "find", "ls", "questionnaire"]
NORMAL_MODE_TOOLS = ["read", "bash", "edit", "write"]
MARKER = "[PLAN MODE ACTIVE]"

PLAN_CONTEXT = f"""{MARKER}
You are in plan mode - a read-only exploration mode for safe code analysis.

Restrictions:
- You can only use: read, bash, grep, find, ls, questionnaire
- You CANNOT use: edit, write (file modifications are disabled)
- Bash is restricted to an allowlist of read-only commands

Ask clarifying questions using the questionnaire tool.
Use brave-search skill via bash for web research.

Create a detailed numbered plan under a "Plan:" header:

Plan:
1. First step description
2. Second step description
...

Do NOT attempt to make changes - just describe what you would do."""

# -- which bash commands only read (pi's lists) -----------------------------------------

_DESTRUCTIVE = [
    re.compile(p, re.IGNORECASE)
    for p in (
        r"\brm\b", r"\brmdir\b", r"\bmv\b", r"\bcp\b", r"\bmkdir\b", r"\btouch\b",
        r"\bchmod\b", r"\bchown\b", r"\bchgrp\b", r"\bln\b", r"\btee\b", r"\btruncate\b",
        r"\bdd\b", r"\bshred\b", r"(^|[^<])>(?!>)", r">>",
        r"\bnpm\s+(install|uninstall|update|ci|link|publish)",
        r"\byarn\s+(add|remove|install|publish)", r"\bpnpm\s+(add|remove|install|publish)",
        r"\bpip\s+(install|uninstall)", r"\bapt(-get)?\s+(install|remove|purge|update|upgrade)",
        r"\bbrew\s+(install|uninstall|upgrade)",
        r"\bgit\s+(add|commit|push|pull|merge|rebase|reset|checkout|branch\s+-[dD]|stash"
        r"|cherry-pick|revert|tag|init|clone)",
        r"\bsudo\b", r"\bsu\b", r"\bkill\b", r"\bpkill\b", r"\bkillall\b", r"\breboot\b",
        r"\bshutdown\b", r"\bsystemctl\s+(start|stop|restart|enable|disable)",
        r"\bservice\s+\S+\s+(start|stop|restart)", r"\b(vim?|nano|emacs|code|subl)\b",
    )
]  # fmt: skip
_SAFE_WORDS = (
    r"cat|head|tail|less|more|grep|find|ls|pwd|echo|printf|wc|sort|uniq|diff|file|stat|du|df"
    r"|tree|which|whereis|type|env|printenv|uname|whoami|id|date|cal|uptime|ps|top|htop|free"
    r"|jq|awk|rg|fd|bat|exa"
)
_SAFE = [re.compile(rf"^\s*({_SAFE_WORDS})\b")] + [
    re.compile(p, re.IGNORECASE)
    for p in (
        r"^\s*git\s+(status|log|diff|show|branch|remote|config\s+--get)", r"^\s*git\s+ls-",
        r"^\s*npm\s+(list|ls|view|info|search|outdated|audit)",
        r"^\s*yarn\s+(list|info|why|audit)", r"^\s*node\s+--version", r"^\s*python\s+--version",
        r"^\s*curl\s", r"^\s*wget\s+-O\s*-", r"^\s*sed\s+-n",
    )
]  # fmt: skip


def is_safe_command(command: str) -> bool:
    """On the allowlist of readers and matching none of the writers."""
    destructive = any(p.search(command) for p in _DESTRUCTIVE)
    return not destructive and any(p.search(command) for p in _SAFE)


# -- the plan's steps --------------------------------------------------------------------


@dataclass
class TodoItem:
    step: int
    text: str
    completed: bool = False


_VERB = re.compile(
    r"^(Use|Run|Execute|Create|Write|Read|Check|Verify|Update|Modify|Add|Remove|Delete"
    r"|Install)\s+(the\s+)?",
    re.IGNORECASE,
)


def clean_step_text(text: str) -> str:
    cleaned = re.sub(r"\*{1,2}([^*]+)\*{1,2}", r"\1", text)
    cleaned = re.sub(r"`([^`]+)`", r"\1", cleaned)
    cleaned = re.sub(r"\s+", " ", _VERB.sub("", cleaned)).strip()
    if cleaned:
        cleaned = cleaned[0].upper() + cleaned[1:]
    return f"{cleaned[:47]}..." if len(cleaned) > 50 else cleaned


def extract_todo_items(message: str) -> list[TodoItem]:
    """The numbered steps under the message's ``Plan:`` header."""
    header = re.search(r"\*{0,2}Plan:\*{0,2}\s*\n", message, re.IGNORECASE)
    if header is None:
        return []
    items: list[TodoItem] = []
    for match in re.finditer(r"^\s*(\d+)[.)]\s+\*{0,2}([^*\n]+)", message[header.end() :], re.M):
        text = re.sub(r"\*{1,2}$", "", match.group(2).strip()).strip()
        if len(text) > 5 and not text.startswith(("`", "/", "-")):
            cleaned = clean_step_text(text)
            if len(cleaned) > 3:
                items.append(TodoItem(len(items) + 1, cleaned))
    return items


def mark_completed_steps(text: str, items: list[TodoItem]) -> int:
    """Tick off each ``[DONE:n]`` in ``text``; how many marks there were."""
    steps = [int(n) for n in re.findall(r"\[DONE:(\d+)\]", text, re.IGNORECASE)]
    for item in items:
        if item.step in steps:
            item.completed = True
    return len(steps)


def message_text(message: Any) -> str:
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    return "\n".join(b["text"] for b in content if isinstance(b, dict) and b.get("type") == "text")


def _is_assistant(message: Any) -> bool:
    return isinstance(message, dict) and message.get("role") == "assistant"


# -- the hook ----------------------------------------------------------------------------


@dataclass
class PlanState:
    enabled: bool = False
    executing: bool = False
    todos: list[TodoItem] = field(default_factory=list)


def register(pi: HookAPI) -> None:
    state = PlanState()
    pi.register_flag(
        "plan",
        type="boolean",
        default=False,
        description="Start in plan mode (read-only exploration)",
    )

    def use_tools(names: list[str]) -> None:
        known = {tool.name for tool in pi.get_all_tools()}
        pi.set_active_tools([name for name in names if name in known])

    def update_status(ctx: HookContext) -> None:
        theme = ctx.ui.theme
        if state.executing and state.todos:
            done = sum(t.completed for t in state.todos)
            ctx.ui.set_status("plan-mode", theme.fg("accent", f"📋 {done}/{len(state.todos)}"))
        elif state.enabled:
            ctx.ui.set_status("plan-mode", theme.fg("warning", "⏸ plan"))
        else:
            ctx.ui.set_status("plan-mode", None)
        if state.executing and state.todos:
            ctx.ui.set_widget(
                "plan-todos",
                [
                    theme.fg("success", "☑ ") + theme.fg("muted", theme.strikethrough(t.text))
                    if t.completed
                    else theme.fg("muted", "☐ ") + t.text
                    for t in state.todos
                ],
            )
        else:
            ctx.ui.set_widget("plan-todos", None)

    def toggle(ctx: HookContext) -> None:
        state.enabled, state.executing, state.todos = not state.enabled, False, []
        if state.enabled:
            use_tools(PLAN_MODE_TOOLS)
            ctx.ui.notify(f"Plan mode enabled. Tools: {', '.join(PLAN_MODE_TOOLS)}")
        else:
            use_tools(NORMAL_MODE_TOOLS)
            ctx.ui.notify("Plan mode disabled. Full access restored.")
        update_status(ctx)

    def persist() -> None:
        pi.append_entry(
            "plan-mode",
            {
                "enabled": state.enabled,
                "todos": [asdict(t) for t in state.todos],
                "executing": state.executing,
            },
        )

    @pi.register_command("plan", description="Toggle plan mode (read-only exploration)")
    def plan(args: str, ctx: CommandContext) -> None:
        toggle(ctx)

    @pi.register_command("todos", description="Show current plan todo list")
    def todos(args: str, ctx: CommandContext) -> None:
        if not state.todos:
            ctx.ui.notify("No todos. Create a plan first with /plan", "info")
            return
        lines = [
            f"{i}. {'✓' if t.completed else '○'} {t.text}" for i, t in enumerate(state.todos, 1)
        ]
        ctx.ui.notify("Plan Progress:\n" + "\n".join(lines), "info")

    pi.register_shortcut("alt+p", toggle, description="Toggle plan mode")

    @pi.on("tool_call")
    def guard(event: ToolCallEvent, ctx: HookContext) -> dict[str, Any] | None:
        if not state.enabled or event.tool_name != "bash":
            return None
        command = str(event.input.get("command", ""))
        if is_safe_command(command):
            return None
        return {
            "block": True,
            "reason": "Plan mode: command blocked (not allowlisted). Use /plan to disable plan "
            f"mode first.\nCommand: {command}",
        }

    @pi.on("context")
    def drop_stale(event: ContextEvent, ctx: HookContext) -> dict[str, Any] | None:
        if state.enabled:
            return None

        def stale(message: Any) -> bool:
            if message.get("custom_type") == "plan-mode-context":
                return True
            return message.get("role") == "user" and MARKER in message_text(message)

        return {"messages": [m for m in event.messages if not stale(m)]}

    @pi.on("before_agent_start")
    def add_context(event: BeforeAgentStartEvent, ctx: HookContext) -> dict[str, Any] | None:
        if state.enabled:
            return {
                "message": {
                    "custom_type": "plan-mode-context",
                    "content": PLAN_CONTEXT,
                    "display": False,
                }
            }
        remaining = [t for t in state.todos if not t.completed]
        if not state.executing or not state.todos:
            return None
        steps = "\n".join(f"{t.step}. {t.text}" for t in remaining)
        return {
            "message": {
                "custom_type": "plan-execution-context",
                "content": "[EXECUTING PLAN - Full tool access enabled]\n\n"
                f"Remaining steps:\n{steps}\n\nExecute each step in order.\n"
                "After completing a step, include a [DONE:n] tag in your response.",
                "display": False,
            }
        }

    @pi.on("turn_end")
    def track(event: TurnEndEvent, ctx: HookContext) -> None:
        if not state.executing or not state.todos or not _is_assistant(event.message):
            return
        if mark_completed_steps(message_text(event.message), state.todos) > 0:
            update_status(ctx)
        persist()

    @pi.on("agent_end")
    async def next_step(event: AgentEndEvent, ctx: HookContext) -> None:
        if state.executing and state.todos:
            if all(t.completed for t in state.todos):
                done = "\n".join(f"~~{t.text}~~" for t in state.todos)
                pi.send_message(
                    {"custom_type": "plan-complete", "content": f"**Plan Complete!** ✓\n\n{done}"}
                )
                state.executing, state.todos = False, []
                use_tools(NORMAL_MODE_TOOLS)
                update_status(ctx)
                persist()  # a resume must not find the finished plan still executing
            return
        if not state.enabled or not ctx.has_ui:
            return
        last = next((m for m in reversed(event.messages) if _is_assistant(m)), None)
        if last is not None and (extracted := extract_todo_items(message_text(last))):
            state.todos = extracted
        if state.todos:
            steps = "\n".join(f"{i}. ☐ {t.text}" for i, t in enumerate(state.todos, 1))
            pi.send_message(
                {
                    "custom_type": "plan-todo-list",
                    "content": f"**Plan Steps ({len(state.todos)}):**\n\n{steps}",
                }
            )
        execute = "Execute the plan (track progress)" if state.todos else "Execute the plan"
        choice = await ctx.ui.select(
            "Plan mode - what next?", [execute, "Stay in plan mode", "Refine the plan"]
        )
        if choice == execute:
            state.enabled, state.executing = False, bool(state.todos)
            use_tools(NORMAL_MODE_TOOLS)
            update_status(ctx)
            first = (
                f"Execute the plan. Start with: {state.todos[0].text}"
                if state.todos
                else "Execute the plan you just created."
            )
            pi.send_message({"custom_type": "plan-mode-execute", "content": first}, True)
        elif choice == "Refine the plan":
            refinement = await ctx.ui.editor("Refine the plan:", "")
            if refinement and refinement.strip():
                pi.send_user_message(refinement.strip(), deliver_as="follow_up")

    @pi.on("session_start")
    def restore(event: SessionStartEvent, ctx: HookContext) -> None:
        if pi.get_flag("plan") is True:
            state.enabled = True
        entries = ctx.session_manager.get_entries()
        saved = [e for e in entries if e["type"] == "custom" and e["custom_type"] == "plan-mode"]
        if saved and isinstance(data := saved[-1].get("data"), dict):
            state.enabled = bool(data.get("enabled", state.enabled))
            state.todos = [TodoItem(**t) for t in data.get("todos") or []]
            state.executing = bool(data.get("executing", state.executing))
        if saved and state.executing and state.todos:
            # Count the [DONE:n] marks given since this plan's execution started.
            starts = [
                i for i, e in enumerate(entries) if e.get("custom_type") == "plan-mode-execute"
            ]
            since = entries[starts[-1] + 1 :] if starts else entries
            text = "\n".join(
                message_text(e["message"])
                for e in since
                if e["type"] == "message" and _is_assistant(e.get("message"))
            )
            mark_completed_steps(text, state.todos)
        if state.enabled:
            use_tools(PLAN_MODE_TOOLS)
        update_status(ctx)
