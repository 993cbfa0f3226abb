"""``/permissions``: the mode and every rule in force under the settings file it came
from, and the project's local rules added or removed, as Claude Code's panel does.

Only ``.claude/settings.local.json`` is edited here (``PermissionGate.remember`` and
``forget``: the file and the rules in force change together, from the next tool call);
the rules of other files are listed with where to change them. ``/permissions allow
RULE`` (``ask``, ``deny``) and ``/permissions remove RULE`` do the same without dialogs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from hookline.modes.tui import render
from hookline.modes.tui.transcript import short_path

if TYPE_CHECKING:
    from rich.text import Text

    from hookline.agent.gate import PermissionGate
    from hookline.modes.tui.host import CommandHost
    from hookline.settings.loader import LoadedSettings
    from hookline.settings.permission_rules.rule import PermissionRule
    from hookline.settings.permission_rules.syntax import RuleBehavior

USAGE = "[allow|ask|deny RULE | remove RULE]"
#: The arguments' first words, with what each does (completion).
_VERBS = {
    "allow": "add an allow rule to .claude/settings.local.json",
    "ask": "add an ask rule there",
    "deny": "add a deny rule there",
    "remove": "take a rule out of .claude/settings.local.json",
}

_BEHAVIORS: tuple[RuleBehavior, ...] = ("allow", "ask", "deny")
#: Sources in the order they are listed: the policy first, rules given in code last.
_SCOPES: tuple[str, ...] = ("managed", "user", "project", "local", "cli", "code")
_WHERE = {
    "managed": "managed policy; only its administrator changes it",
    "user": "your user settings; edit the file to change them",
    "project": "shared with the project; edit the file to change them",
    "local": "this project, for you: editable here",
    "cli": "--settings of this run; edit the file to change them",
    "code": "given in code by the program running the agent",
}
_ADD: dict[RuleBehavior, str] = {
    "allow": "Add an allow rule",
    "ask": "Add an ask rule",
    "deny": "Add a deny rule",
}
_REMOVE, _DONE = "Remove a local rule", "Done"
_HINT = "Tool or Tool(specifier): Bash(npm test), Bash(npm run *), Edit(src/**), WebFetch"


@dataclass
class _Source:
    """One settings file (or the code) and its rules in force."""

    scope: str
    file: str | None
    rules: list[PermissionRule] = field(default_factory=list)
    #: rules of the file that could not be read (skipped, as the start said)
    unread: list[str] = field(default_factory=list)
    #: key paths left out because the project is not trusted
    ignored: list[str] = field(default_factory=list)


def _sources(gate: PermissionGate, settings: LoadedSettings) -> list[_Source]:
    """Every settings file that exists, the local one always, each with its rules in force,
    in ``_SCOPES`` order; rules given in code come last."""
    from hookline.settings.local_settings import local_settings_path

    local = str(local_settings_path(gate.cwd))
    found: dict[str | None, _Source] = {}
    for file in settings.files:
        if file.exists or str(file.path) == local:
            found.setdefault(
                str(file.path), _Source(file.scope, str(file.path), ignored=file.ignored)
            )
    found.setdefault(local, _Source("local", local))
    for behavior in _BEHAVIORS:
        for rule in getattr(gate.rules, behavior):
            key = rule.origin.file
            found.setdefault(key, _Source(rule.origin.scope or "code", key)).rules.append(rule)
    for error in gate.rules.errors:
        key = error.origin.file
        found.setdefault(key, _Source(error.origin.scope or "code", key)).unread.append(
            f"{error.text!r}: {error.why}"
        )
    return sorted(found.values(), key=lambda s: _SCOPES.index(s.scope))


def _listing(gate: PermissionGate, settings: LoadedSettings) -> Text:
    """The mode, then each source's rules under its file."""
    rows: list[tuple[str, str]] = [("mode", f"{gate.mode} · shift+tab cycles {_ring(gate)}")]
    if not gate.bypass_available:
        rows.append(("", "bypassPermissions: start with --allow-dangerously-skip-permissions"))
    for source in _sources(gate, settings):
        name = short_path(source.file, gate.cwd) if source.file else "(code)"
        rows.append((source.scope, f"{name} — {_WHERE[source.scope]}"))
        rows += [(f"  {rule.behavior}", rule.text) for rule in source.rules]
        rows += [("  skipped", why) for why in source.unread]
        if source.ignored:
            rows.append(("  ignored", f"{', '.join(source.ignored)} (the project is not trusted)"))
        if not source.rules and not source.unread:
            rows.append(("  (no rules)", ""))
    folders = [short_path(d, gate.cwd) for d in gate.rules.additional_directories]
    if folders:
        rows.append(("workspace", f"also edited in acceptEdits: {', '.join(folders)}"))
    return render.listing("Permissions", rows)


def completions(gate: PermissionGate) -> list[tuple[str, str]]:
    """What ``/permissions `` completes: the verbs, and ``remove`` with each local rule."""
    removals = [(f"remove {r.text}", f"a local {r.behavior} rule") for r in _local_rules(gate)]
    return [*_VERBS.items(), *removals]


def _ring(gate: PermissionGate) -> str:
    from hookline.agent.mode_cycle import ring

    return " → ".join(ring(bypass_available=gate.bypass_available))


async def permissions(app: CommandHost, args: str) -> None:
    """``/permissions [allow|ask|deny RULE | remove RULE | help]``."""
    verb, _, rest = args.strip().partition(" ")
    rule = _unquoted(rest.strip())
    if not verb:
        app.print(_listing(app.agent.gate, app.bundle.settings))
        await _edit(app)
    elif verb in _BEHAVIORS and rule:
        _add(app, verb, rule)
    elif verb == "remove" and rule:
        _remove(app, rule)
    else:
        app.print(render.listing("Usage", _USAGE_ROWS))


_USAGE_ROWS = [
    ("/permissions", "the mode and the rules by file; add or remove local rules"),
    *((f"/permissions {verb} RULE", what) for verb, what in _VERBS.items()),
    ("RULE", _HINT),
]


async def _edit(app: CommandHost) -> None:
    """The panel's choices until Done (or Esc): add a rule of each kind, remove one."""
    while True:
        local = _local_rules(app.agent.gate)
        options = [*_ADD.values(), *([_REMOVE] if local else []), _DONE]
        choice = await app.ui.select(
            "Local rules (.claude/settings.local.json): in force from the next tool call",
            options,
        )
        if choice is None or choice == _DONE:
            return
        if choice == _REMOVE:
            labels = [f"{r.behavior}  {r.text}" for r in local]
            picked = await app.ui.select("Remove which local rule?", labels)
            if picked is not None:
                chosen = local[labels.index(picked)]
                _remove(app, chosen.text, chosen.behavior)
            continue
        behavior = next(b for b, label in _ADD.items() if label == choice)
        text = await app.ui.input(f"New {behavior} rule", _HINT)
        if text is not None and text.strip():
            _add(app, behavior, text.strip())


def _add(app: CommandHost, behavior: RuleBehavior, rule: str) -> None:
    """Write ``rule`` to the local settings and put it in force; a bad rule, or a file
    that cannot be written, is reported and changes nothing."""
    from hookline.settings.local_settings import LocalSettingsError
    from hookline.settings.permission_rules.syntax import PermissionRuleError

    gate = app.agent.gate
    try:
        path = gate.remember(rule, behavior)
    except PermissionRuleError as exc:
        app.notice(f"not added: {rule!r} is not a rule: {exc.why} ({_HINT})", "error")
        return
    except LocalSettingsError as exc:
        app.notice(f"not added: {exc}", "error")
        return
    app.notice(f"added {behavior} rule {rule} to {short_path(str(path), gate.cwd)}")


def _remove(app: CommandHost, rule: str, behavior: RuleBehavior | None = None) -> None:
    """Take ``rule`` out of the local settings (of one list, or of each that holds it);
    a rule of another file is not touched: the notice says which file holds it."""
    from hookline.settings.local_settings import LocalSettingsError

    gate = app.agent.gate
    text = rule.strip()
    local = [r for r in _local_rules(gate) if r.text == text]
    kinds = [behavior] if behavior is not None else list(dict.fromkeys(r.behavior for r in local))
    if not kinds:
        elsewhere = [r for b in _BEHAVIORS for r in getattr(gate.rules, b) if r.text == text]
        if elsewhere:
            origin = elsewhere[0].origin
            where = short_path(origin.file, gate.cwd) if origin.file else "code"
            app.notice(
                f"{text} is not a local rule: it is in {where}; edit that file to remove it",
                "warning",
            )
        else:
            app.notice(f"no local rule {text} (/permissions lists them)", "warning")
        return
    try:
        for kind in kinds:
            gate.forget(text, kind)
    except LocalSettingsError as exc:
        app.notice(f"not removed: {exc}", "error")
        return
    app.notice(f"removed {' and '.join(kinds)} rule {text} from .claude/settings.local.json")


def _local_rules(gate: PermissionGate) -> list[PermissionRule]:
    from hookline.settings.local_settings import local_settings_path

    local = str(local_settings_path(gate.cwd))
    return [r for b in _BEHAVIORS for r in getattr(gate.rules, b) if r.origin.file == local]


def _unquoted(text: str) -> str:
    """``"Bash(npm test)"`` → ``Bash(npm test)``: a rule may be quoted whole."""
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1].strip()
    return text
