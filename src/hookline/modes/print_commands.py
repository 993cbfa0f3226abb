"""Slash commands under ``-p``: a built-in that needs no UI runs as a command, as in Claude Code.

``hookline -c -p "/compact keep the API notes"`` compacts the last session
and fires PreCompact with ``trigger: "manual"``: nothing goes to the model as
a prompt and no UserPromptSubmit fires, as with Claude Code's ``-p``.
``/model`` shows (or, with a spec, switches) the model and ``/new`` starts a
new session. The terminal app's other built-ins need its UI and answer that
they are not available here, in Claude Code's words; a hook's command runs;
any other ``/text`` is a prompt.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hookline.agent.agent import Agent
    from hookline.agent.provider import Provider

#: Builds a provider from a model spec (``AgentBundle.make_provider``).
MakeProvider = Callable[[str], "Provider"]


@dataclass(frozen=True, slots=True)
class CommandAnswer:
    """What a command printed, and the run's exit code."""

    name: str
    text: str
    code: int = 0


async def _compact(agent: Agent, args: str, make_provider: MakeProvider | None) -> CommandAnswer:
    done = await agent.compact(args or None, "manual")
    return CommandAnswer("compact", "compacted the conversation" if done else "nothing to compact")


async def _model(agent: Agent, args: str, make_provider: MakeProvider | None) -> CommandAnswer:
    if args and make_provider is not None:
        from hookline.agent.setup import SetupError

        try:
            provider = make_provider(args)
        except SetupError as exc:
            return CommandAnswer("model", str(exc), 1)
        await agent.set_model(provider, source="set")
    return CommandAnswer("model", f"model: {agent.provider.model_id}")


async def _new(agent: Agent, args: str, make_provider: MakeProvider | None) -> CommandAnswer:
    done = await agent.new_session()
    return CommandAnswer("new", "new session started" if done else "a hook kept this session")


_Run = Callable[["Agent", str, "MakeProvider | None"], Awaitable[CommandAnswer]]

#: The built-ins that need no UI: they run under ``-p``.
RUN_WITHOUT_UI: dict[str, _Run] = {"compact": _compact, "model": _model, "new": _new}
#: The terminal app's built-ins that need its UI (a picker, a dialog, the screen).
NEED_UI: frozenset[str] = frozenset(
    {
        "help",
        "resume",
        "tree",
        "branch",
        "fork",
        "permissions",
        "sandbox",
        "hooks",
        "reload",  # a -p run loads its hooks once: there is nothing to reload
        "login",  # a login asks and shows where to go
        "logout",
        "quit",
        "exit",
    }
)


async def run_slash(
    agent: Agent, text: str, make_provider: MakeProvider | None = None
) -> CommandAnswer | None:
    """Run ``text`` when it is a command and say what it printed; ``None``: it is a prompt."""
    stripped = text.strip()
    if not stripped.startswith("/") or stripped.startswith("//"):
        return None
    name, _, args = stripped[1:].partition(" ")
    run = RUN_WITHOUT_UI.get(name)
    if run is not None:
        return await run(agent, args.strip(), make_provider)
    if name in NEED_UI:
        return CommandAnswer(name, f"/{name} isn't available in this environment.")
    if agent.runner.get_command(name) is not None:
        await agent.runner.run_command(name, args)
        return CommandAnswer(name, "")
    return None
