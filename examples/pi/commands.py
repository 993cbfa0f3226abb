"""Commands: ``/commands`` lists the slash commands of the session, through ``pi.get_commands()``.

The Python version of pi's commands example. ``pi.get_commands()`` gives the hooks'
commands, the prompt templates and the skills (``source`` ``extension``, ``prompt``,
``skill``), each with its description and file. ``/commands`` shows them grouped in a
selector; ``/commands prompt`` (``extension``, ``skill``) only one source, completed in the
terminal app's menu. Choosing a command offers to show the file it comes from.

Run it: ``hookline --hook examples/pi/commands.py``, then ``/commands``.
"""

from __future__ import annotations

from hookline import HookAPI, HookContext, SlashCommandInfo

SOURCES = {"extension": "Extensions", "prompt": "Prompts", "skill": "Skills"}


def complete_source(prefix: str) -> list[str]:
    return [source for source in SOURCES if source.startswith(prefix)]


def line(command: SlashCommandInfo) -> str:
    return f"/{command.name} - {command.description}" if command.description else f"/{command.name}"


def register(pi: HookAPI) -> None:
    @pi.register_command(
        "commands",
        description="List available slash commands",
        get_argument_completions=complete_source,
    )
    async def commands(args: str, ctx: HookContext) -> None:
        every = pi.get_commands()
        wanted = args.strip()
        shown = [c for c in every if c.source == wanted] if wanted else every
        if not shown:
            ctx.ui.notify(f"No {wanted} commands found" if wanted else "No commands found", "info")
            return
        items: list[str] = []
        for source, label in SOURCES.items():
            group = [line(c) for c in shown if c.source == source]
            if group:
                items += [f"--- {label} ---", *group]
        selected = await ctx.ui.select("Available Commands", items)
        if not selected or selected.startswith("---"):
            return
        name = selected.split(" - ")[0][1:]
        chosen = next((c for c in every if c.name == name), None)
        if not chosen or not chosen.path:
            return
        if await ctx.ui.confirm(chosen.name, f"View source path?\n{chosen.path}"):
            ctx.ui.notify(chosen.path, "info")
