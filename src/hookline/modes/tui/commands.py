"""Slash commands: the built-ins, hook commands, and completion for both.

Built-ins are plain async functions over what they need of the app
(``host.CommandHost``); hook
commands run through the runner with a command context. The completer offers
names with descriptions, then arguments (``get_argument_completions``).
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

from hookline.core.messages import content_text
from hookline.modes.tui import permissions, render

if TYPE_CHECKING:
    from hookline.agent.agent import Agent
    from hookline.core.runner import HookRunner
    from hookline.modes.tui.host import CommandHost


@dataclass(frozen=True, slots=True)
class Builtin:
    name: str
    description: str
    run: Callable[[CommandHost, str], Awaitable[None]]
    usage: str = ""


async def _help(app: CommandHost, args: str) -> None:
    rows = [(f"/{b.name} {b.usage}".rstrip(), b.description) for b in BUILTINS.values()]
    rows += [(f"/{c.name}", c.description) for c in hook_commands(app.agent.runner)]
    rows += [
        ("!cmd", "run cmd in bash; output shown and added to the context"),
        ("!!cmd", "run cmd in bash; not added to the context"),
    ]
    keys = [
        ("enter", "send · alt+enter or ctrl+j: new line · paste keeps lines together"),
        ("ctrl+c", "stop the turn · twice on an empty editor: exit"),
        ("ctrl+d", "exit (empty editor)"),
        ("esc", "cancel a dialog · stop the turn"),
        ("ctrl+o", "expand or collapse tool output (the last one drawn again)"),
        ("shift+tab", "next permission mode: default → acceptEdits → plan (shown in the footer)"),
        ("up/down", "history"),
    ]
    shortcuts = app.agent.runner.get_registered_shortcuts()
    keys += [(s.key, s.description or os.path.basename(s.hook_path)) for s in shortcuts.values()]
    app.print(render.listing("Commands", rows))
    app.print(render.listing("Keys", keys))


async def _new(app: CommandHost, args: str) -> None:
    if await app.agent.new_session():
        app.notice("new session started")
    else:
        app.notice("a hook cancelled the new session", "warning")


async def _resume(app: CommandHost, args: str) -> None:
    from hookline.modes.tui.picker import SessionPicker
    from hookline.session import SessionManager

    infos = SessionManager.list_sessions(app.agent.cwd)
    current = app.agent.session.get_session_file()
    infos = [i for i in infos if i.path != current]
    if not infos:
        app.notice("no other session of this project to resume")
        return
    path = await app.ask(SessionPicker(app.agent.cwd, infos))
    if path is None:
        return
    chosen = next(i for i in infos if i.path == path)
    if await app.agent.switch_session(chosen.path):
        app.notice(f"resumed {chosen.path} ({chosen.message_count} messages)")
        app.replay_session()


def _entry_label(entry: Any) -> str | None:
    if entry.get("type") != "message":
        return None
    message = entry["message"]
    if message["role"] not in ("user", "assistant"):
        return None
    text = content_text(message["content"]).strip().replace("\n", " ")
    who = "you" if message["role"] == "user" else "assistant"
    return f"{who}: {text[:70] or '(tool calls)'}"


async def _pick_entry(app: CommandHost, title: str, entries: Iterable[Any]) -> str | None:
    marks = app.agent.session.get_labels()  # bookmarks (``set_label``) shown with their entry
    pairs = [
        (f"{label}  [{marks[e['id']]}]" if e["id"] in marks else label, e["id"])
        for e in entries
        if (label := _entry_label(e))
    ]
    if not pairs:
        app.notice("no messages to pick from yet")
        return None
    labels = [f"{i + 1}. {label}" for i, (label, _) in enumerate(pairs)]
    choice = await app.ui.select(title, labels)
    return None if choice is None else pairs[labels.index(choice)][1]


async def _tree(app: CommandHost, args: str) -> None:
    entry_id = await _pick_entry(app, "Go to which entry?", app.agent.session.get_entries())
    if entry_id is not None and await app.agent.navigate_tree(entry_id):
        app.notice("moved in the session tree")


async def _branch(app: CommandHost, args: str) -> None:
    entries = [
        e
        for e in app.agent.session.get_branch()
        if e["type"] == "message" and e["message"]["role"] == "user"
    ]
    entry_id = await _pick_entry(app, "Branch from before which message?", entries)
    if entry_id is None:
        return
    parent = app.agent.session.get_entry(entry_id)
    target = parent.get("parent_id") if parent is not None else None
    if await app.agent.branch(entry_id=target):
        app.notice("branched: the conversation continues from before that message")


async def _fork(app: CommandHost, args: str) -> None:
    if await app.agent.fork():
        app.notice(f"forked into {app.agent.session.get_session_file() or 'a new session'}")


async def _compact(app: CommandHost, args: str) -> None:
    if await app.agent.compact(args.strip() or None):
        app.notice("compacted the conversation")
    else:
        app.notice("nothing to compact")


async def _model(app: CommandHost, args: str) -> None:
    spec = args.strip()
    if not spec:
        spec = (await _pick_model(app) or "").strip()
    if not spec:
        return
    from hookline.agent.setup import SetupError

    try:
        provider = app.bundle.make_provider(spec)
    except SetupError as exc:
        app.notice(str(exc), "error")
        return
    await app.agent.set_model(provider, source="set")
    app.notice(f"model: {provider.model_id}")


async def _pick_model(app: CommandHost) -> str | None:
    """The catalog in a searchable list, the cursor on the model in use; ``other…``
    asks for a spec."""
    from hookline.modes.tui.dialogs import SelectDialog
    from hookline.modes.tui.model_picker import TITLE, model_choices

    current = app.agent.provider.model_id
    choices = model_choices(app.bundle.catalog(), current, known_models(app.agent))
    dialog = SelectDialog(
        TITLE,
        choices.labels,
        descriptions=choices.descriptions,
        values=choices.specs,
        default=False,
        searchable=True,
        index=choices.current,
    )
    choice = await app.ask(dialog)  # a spec; None: other…; False: cancelled
    if choice is None:
        hint = "anthropic:NAME, openai:NAME, scripted:FILE"
        return await app.ui.input("Model spec (provider:model)", hint)
    return choice if isinstance(choice, str) else None


async def _login(app: CommandHost, args: str) -> None:
    """pi's ``/login``: a registered provider's OAuth login, stored in ``auth.json``."""
    from hookline.core.provider_config import LoginCallbacks

    registry = app.agent.get_model_registry()
    logins = registry.table.logins()
    if not logins:
        app.notice("no provider here has a login (hooks add them with register_provider)")
        return
    name = args.strip()
    if not name:
        labels = [f"{title} ({key})" for key, title in logins.items()]
        choice = await app.ui.select("Log in to", labels)
        if choice is None:
            return
        name = list(logins)[labels.index(choice)]
    if name not in logins:
        app.notice(f"no login for {name!r} (there is: {', '.join(logins)})", "error")
        return

    def on_auth(url: str, instructions: str | None) -> None:
        app.notice(f"open {url}" + (f"\n{instructions}" if instructions else ""))

    def on_device_code(user_code: str, verification_uri: str) -> None:
        app.notice(f"enter the code {user_code} at {verification_uri}")

    async def on_prompt(message: str) -> str:
        answer = await app.ui.input(message)
        if answer is None:
            raise RuntimeError("cancelled")
        return answer

    try:
        await registry.login(name, LoginCallbacks(on_auth, on_device_code, on_prompt))
    except Exception as exc:
        app.notice(f"login to {name} failed: {exc}", "error")
        return
    app.notice(f"logged in to {logins[name]}; stored in {registry.table.store.path}")


async def _logout(app: CommandHost, args: str) -> None:
    """pi's ``/logout``: forget a provider's stored login."""
    name = args.strip()
    if not name:
        app.notice("usage: /logout PROVIDER", "error")
        return
    app.agent.get_model_registry().table.store.remove(name)
    app.notice(f"logged out of {name}")


async def _sandbox(app: CommandHost, args: str) -> None:
    """What ``hookline sandbox check`` shows, then a choice of mode (Claude Code's panel)."""
    from hookline.sandbox.availability import probe
    from hookline.sandbox.check import check_sections
    from hookline.sandbox.state import MODE_LABELS, mode_of, offered_modes

    state = app.bundle.sandbox
    found = probe()
    if not found.available:  # as Claude Code's panel: its Dependencies tab only
        app.print(render.listing("Sandbox: dependencies", [(line, "") for line in found.lines()]))
        await app.ui.select(
            f"The sandbox cannot run here: {found.problem}\n(then run /sandbox again)",
            ["Close"],
        )
        return
    config = state.config
    rows = [
        (heading if i == 0 else "", line)
        for heading, lines in check_sections(config, found)
        for i, line in enumerate(lines)
    ]
    app.print(render.listing("Sandbox", rows))
    forced = state.forced()
    modes = offered_modes(forced)
    current = mode_of(config)
    title = f"Sandbox mode (now: {MODE_LABELS[current]})"
    fixed = [f.origin for f in forced.values()]
    if "off" not in modes:
        title += f"\nIt cannot be switched off here: {', '.join(fixed)} requires it."
    elif len(modes) < 3:
        title += f"\nSome modes are fixed by {', '.join(fixed)}."
    labels = [MODE_LABELS[m] for m in modes]
    described = {MODE_LABELS[m]: _MODE_HELP[m] + (" (now)" if m == current else "") for m in modes}
    choice = await app.ui.select(title, labels, descriptions=described)
    if choice is None:
        return
    change = state.set_mode(modes[labels.index(choice)])
    if change.note is not None:
        app.notice(f"sandbox: {change.note}", "warning" if change.path else "error")
    if change.path is not None:
        app.notice(f"sandbox: {MODE_LABELS[change.now]} from the next bash call (in {change.path})")


_MODE_HELP = {
    "auto-allow": "bash runs sandboxed without asking; ask and deny rules still hold",
    "regular": "bash runs sandboxed and is asked about as usual",
    "off": "bash runs unsandboxed and is asked about as usual",
}


async def _hooks(app: CommandHost, args: str) -> None:
    result = app.bundle.load_result
    rows: list[tuple[str, str]] = []
    for hook, source in zip(result.hooks, result.sources, strict=False):
        events = ", ".join(sorted(hook.handlers)) or "no events"
        rows.append((hook.path, f"{getattr(source, 'origin', '')} · {events}".strip(" ·")))
    for hook in result.hooks[len(result.sources) :]:
        rows.append((hook.path, ", ".join(sorted(hook.handlers))))
    for error in result.errors:
        rows.append((error.path, f"failed to load: {error.reason}"))
    for shadowed in result.shadowed:
        rows.append((str(shadowed.source.path), f"shadowed: {shadowed.reason}"))
    for skipped in result.skipped:
        rows.append((str(skipped.source.path), f"skipped: {skipped.reason}"))
    claude = app.bundle.claude
    for problem in claude.engine.errors if claude is not None else []:
        rows.append(("settings hooks", str(problem)))
    if not app.bundle.trusted:
        rows.append(("project", "not trusted: its hooks and settings hooks are skipped"))
    app.print(render.listing("Hooks", rows or [("none", "no hooks loaded")]))


async def _reload(app: CommandHost, args: str) -> None:
    """pi's ``/reload``: ``session_shutdown``, the hooks discovered and loaded again,
    ``session_start`` with ``source="reload"``; what failed is said above. A hook's
    editor goes first: the reloaded hooks set theirs again, as in pi."""
    app.set_editor_component(None)
    await app.agent.reload()
    app.hooks_changed()
    found = app.bundle.hooks.last
    if found is None:
        return
    count = len(found.hooks.hooks)
    text = f"hooks reloaded: {count} module{'' if count == 1 else 's'}"
    if app.bundle.claude is not None:
        text += " and the settings hooks"
    if found.problems:
        text += f"; {len(found.problems)} could not be loaded (said above)"
    app.notice(text, "warning" if found.problems else "info")


async def _quit(app: CommandHost, args: str) -> None:
    app.exit()


BUILTINS: dict[str, Builtin] = {
    b.name: b
    for b in (
        Builtin("help", "commands and keys", _help),
        Builtin("new", "start a new session", _new),
        Builtin("resume", "pick a session of this project to resume", _resume),
        Builtin("tree", "go to any entry of the session tree", _tree),
        Builtin("branch", "continue from before one of your messages", _branch),
        Builtin("fork", "copy this conversation into a new session", _fork),
        Builtin("compact", "summarize older messages", _compact, "[instructions]"),
        Builtin("model", "switch the model", _model, "[spec]"),
        Builtin("login", "log in to a provider a hook registered", _login, "[provider]"),
        Builtin("logout", "forget a provider's stored login", _logout, "provider"),
        Builtin(
            "permissions",
            "the permission mode and rules by file; add or remove local rules",
            permissions.permissions,
            permissions.USAGE,
        ),
        Builtin("sandbox", "the bash sandbox: what it holds, and its mode", _sandbox),
        Builtin("hooks", "loaded hooks, where from, errors, skipped", _hooks),
        Builtin("reload", "discover and load the hooks again", _reload),
        Builtin("quit", "exit hookline", _quit),
        Builtin("exit", "exit hookline", _quit),
    )
}


def known_models(agent: Agent) -> list[str]:
    """The model in use, then the others this session switched between, as they came."""
    current = agent.provider.model_id
    seen = [current]
    for entry in agent.session.get_entries():
        if entry.get("type") == "model_change":
            for spec in (entry.get("model"), entry.get("previous")):
                if isinstance(spec, str) and spec and spec not in seen:
                    seen.append(spec)
    return seen


def hook_commands(runner: HookRunner) -> list[Any]:
    """Hook commands, first loaded wins a name; built-in names cannot be taken."""
    seen: dict[str, Any] = {}
    for command in runner.get_registered_commands():
        if command.name not in BUILTINS:
            seen.setdefault(command.name, command)
    return list(seen.values())


class SlashCompleter(Completer):
    """``/na`` → command names with descriptions; ``/name ar`` → its argument values."""

    def __init__(self, app: CommandHost) -> None:
        self.app = app

    def get_completions(
        self, document: Document, complete_event: CompleteEvent
    ) -> Iterable[Completion]:
        text = document.text_before_cursor
        if not text.startswith("/") or "\n" in text:
            return
        name, space, arg = text[1:].partition(" ")
        if not space:
            yield from self._names(name)
        else:
            yield from self._arguments(name, arg)

    def _names(self, prefix: str) -> Iterable[Completion]:
        entries = [(b.name, b.description) for b in BUILTINS.values() if b.name != "exit"]
        if self.app.loaded.is_set():  # hook commands once the hooks are loaded
            entries += [(c.name, c.description) for c in hook_commands(self.app.agent.runner)]
        for name, description in entries:
            if name.startswith(prefix):
                yield Completion(
                    name, -len(prefix), display="/" + name, display_meta=description or ""
                )

    def _arguments(self, name: str, prefix: str) -> Iterable[Completion]:
        values: list[str | tuple[str, str]] = []
        if not self.app.loaded.is_set():
            return
        if name == "model":
            agent = self.app.agent
            listed = self.app.bundle.catalog().available(agent.provider.model_id)
            values = list(dict.fromkeys([*(e.spec for e in listed), *known_models(agent)]))
        elif name == "permissions":
            values = list(permissions.completions(self.app.agent.gate))
        else:
            command = self.app.agent.runner.get_command(name)
            complete = getattr(command, "get_argument_completions", None)
            if complete is None:
                return
            try:
                values = list(complete(prefix) or [])
            except Exception as exc:  # a hook's completer must not break typing
                self.app.agent.runner.report(
                    getattr(command, "hook_path", ""), f"completions:{name}", exc
                )
                return
        for value in values:
            text, meta = (value, "") if isinstance(value, str) else value
            if text.startswith(prefix):
                yield Completion(render.clean(text), -len(prefix), display_meta=render.clean(meta))
