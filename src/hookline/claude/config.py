"""Hook sources → hook definitions, each with its scope, origin and policy verdict.

The settings loader (``hookline.settings.loader``) and plugin ``hooks.json``
files both become ``HookSource`` objects; this module flattens them into
``HookDefinition``s in source order. A definition that policy or trust forbids
is kept, marked with the reason, so selection can report it instead of
silently dropping it; its matcher is never compiled (nothing from a source
that may not run is evaluated). The policy is ``hookline.settings.policy``'s,
the one implementation.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal, Protocol

from pydantic import TypeAdapter, ValidationError

from hookline.settings.models import (
    CLAUDE_EVENTS,
    AgentHookConfig,
    CommandHookConfig,
    HttpHookConfig,
    MatcherConfig,
    McpToolHookConfig,
    PromptHookConfig,
)
from hookline.settings.policy import HookPolicy, HookScope, allows
from hookline.settings.safe_json import JsonFileError, JsonFileMissing, read_json_file
from hookline.settings.validate import check_hooks

Scope = HookScope

CallbackFn = Callable[[dict[str, Any], "str | None", Any], "Awaitable[dict[str, Any]] | Any"]


@dataclass(frozen=True, slots=True)
class CallbackHookConfig:
    """A Python callable registered in code (the Claude Agent SDK ``HookMatcher`` style).

    ``fn(input_data, tool_use_id, context)`` returns the JSON object a command
    hook would print (a dict), or ``None``; ``async def`` or plain ``def``.
    """

    fn: CallbackFn
    timeout: float | None = None
    type: Literal["callback"] = "callback"

    @property
    def name(self) -> str:
        """The callable's name: where the hook comes from."""
        return getattr(self.fn, "__qualname__", None) or repr(self.fn)

    def label(self) -> str:
        return f"callback {self.name}"

    def identity(self, plugin_root: Path | None) -> None:
        """Callbacks are never deduped: two registrations are two hooks."""
        return None


HookSpec = (
    CommandHookConfig
    | HttpHookConfig
    | McpToolHookConfig
    | PromptHookConfig
    | AgentHookConfig
    | CallbackHookConfig
)


@dataclass(frozen=True, slots=True)
class HookSource:
    """One place hooks come from: a settings file, a plugin ``hooks.json``, or code."""

    scope: Scope
    origin_path: Path | None
    hooks: dict[str, list[MatcherConfig]]
    plugin_root: Path | None = None  # a plugin's folder: ``CLAUDE_PLUGIN_ROOT`` for its hooks
    plugin_data: Path | None = None  # the plugin's own data folder: ``CLAUDE_PLUGIN_DATA``


@dataclass(frozen=True, slots=True)
class HookDefinition:
    """One configured hook of one event, where it came from, and whether it may run."""

    event: str
    matcher: str | None
    spec: HookSpec
    scope: Scope
    origin: str  # settings file path, plugin hooks.json path, or the callable's name
    group: int  # index of the matcher group in its source's event list
    index: int  # index of the hook in its group
    denied: str | None = None  # why policy or trust forbids it; None when allowed
    plugin_root: Path | None = None
    plugin_data: Path | None = None

    @property
    def id(self) -> str:
        """Stable identity for diagnostics and outcomes."""
        return f"{self.scope}:{self.origin}#{self.event}[{self.group}].hooks[{self.index}]"

    @property
    def type(self) -> str:
        return self.spec.type

    @property
    def dedupe_key(self) -> tuple[str, ...] | None:
        """Claude Code's dedupe identity; ``None`` for callbacks (never deduped)."""
        return self.spec.identity(self.plugin_root)

    def describe(self) -> str:
        """A short human label: the command, the prompt, or the callable."""
        return self.spec.label()


def policy_verdict(scope: str, policy: HookPolicy | None, project_trusted: bool) -> str | None:
    """Why a hook of ``scope`` may not run, or ``None`` when it may (``settings.policy.allows``)."""
    ok, reason = allows(scope, policy or HookPolicy(), project_trusted)
    return None if ok else reason


@dataclass(slots=True)
class HookTable:
    """Every definition by event, in source order, plus configuration errors."""

    by_event: dict[str, list[HookDefinition]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)

    def add(self, definition: HookDefinition) -> None:
        self.by_event.setdefault(definition.event, []).append(definition)

    def events(self) -> list[str]:
        return [e for e, defs in self.by_event.items() if defs]


def build_table(
    sources: Iterable[HookSource],
    policy: HookPolicy | None = None,
    project_trusted: bool = True,
    skip: Callable[[HookDefinition], str | None] | None = None,
) -> HookTable:
    """Flatten sources (highest-precedence first, as given) into a ``HookTable``.

    Matchers of sources that may run are compiled here (so a bad one is
    reported once); those of sources that may not are never compiled.
    ``skip`` gives a reason to hold back a hook policy allows (the agent's: a
    ``claude-hook`` command for modules it loads itself); it is marked like a
    policy skip, so selection and ``hooks list`` say why.
    """
    from hookline.claude.matchers import LITERAL_MATCHER_EVENTS, compile_matcher

    table = HookTable()
    for source in sources:
        origin = str(source.origin_path) if source.origin_path else source.scope
        denied = policy_verdict(source.scope, policy, project_trusted)
        for event, groups in source.hooks.items():
            if event not in CLAUDE_EVENTS:
                from hookline.core.plain_errors import unknown_key

                what = unknown_key(event, CLAUDE_EVENTS, "event")
                table.errors.append(f"{origin}: hooks.{event}: {what}; skipped")
                continue
            for g, group in enumerate(groups):
                literal = event in LITERAL_MATCHER_EVENTS
                error = compile_matcher(group.matcher, literal).error if denied is None else None
                if error:
                    table.errors.append(f"{origin}: {event}[{g}]: {error}")
                for i, spec in enumerate(group.hooks):
                    definition = HookDefinition(
                        event, group.matcher, spec, source.scope, origin, g, i,
                        denied, source.plugin_root, source.plugin_data,
                    )  # fmt: skip
                    why = skip(definition) if skip is not None and denied is None else None
                    table.add(definition if why is None else replace(definition, denied=why))
    return table


# -- building sources -----------------------------------------------------------


class _SettingsFileLike(Protocol):
    path: Path
    scope: Any
    settings: Any


class _LoadedSettingsLike(Protocol):
    @property
    def files(self) -> Sequence[_SettingsFileLike]: ...


def sources_from_settings(loaded: _LoadedSettingsLike) -> list[HookSource]:
    """One source per settings file whose ``hooks`` is a Claude-style object.

    A ``hooks`` list is module paths (handled by discovery) and a file that
    failed to load has no settings (the loader reports it): both are skipped.
    """
    out: list[HookSource] = []
    for f in loaded.files:
        hooks = getattr(f.settings, "hooks", None) if f.settings is not None else None
        if isinstance(hooks, dict) and hooks:
            out.append(HookSource(f.scope, Path(f.path), {str(k): v for k, v in hooks.items()}))
    return out


@functools.cache
def _hooks_adapter() -> TypeAdapter[dict[str, list[MatcherConfig]]]:
    """The validator of a plugin's hooks object, built when a plugin is first read."""
    return TypeAdapter(dict[str, list[MatcherConfig]])


def load_plugin_hooks(
    path: Path, *, plugin_root: Path | None = None, plugin_data: Path | None = None
) -> tuple[HookSource | None, list[str]]:
    """Read a plugin's ``hooks/hooks.json`` (``{"hooks": {...}}`` or the bare event object).

    Read with the safe reader; entries hookline does not understand are
    skipped with a warning (the rest applies). ``plugin_root`` defaults to the
    folder above ``hooks/``. Returns the source (``None`` when the file is
    missing or unusable) and the messages.
    """
    try:
        raw = read_json_file(path)
    except JsonFileMissing:
        return None, []
    except JsonFileError as exc:
        return None, [f"cannot read plugin hooks: {exc}"]
    root = plugin_root
    if root is None:
        root = path.parent.parent if path.parent.name == "hooks" else path.parent
    return plugin_hooks_source(raw, path, root, plugin_data)


def plugin_hooks_source(
    raw: Any, origin: Path, plugin_root: Path, plugin_data: Path | None = None
) -> tuple[HookSource | None, list[str]]:
    """A plugin's hooks object (from ``hooks.json`` or inline in ``plugin.json``) as a source.

    ``${CLAUDE_PLUGIN_ROOT}`` and ``${CLAUDE_PLUGIN_DATA}`` in a command (and
    in exec-form ``args``) are replaced by the plugin's folders, as Claude
    Code does; both are also in the hook's environment.
    """
    if isinstance(raw, dict) and isinstance(raw.get("hooks"), dict):
        raw = raw["hooks"]
    if not isinstance(raw, dict):
        return None, [f"{origin}: plugin hooks must be a JSON object of events"]
    values = {"CLAUDE_PLUGIN_ROOT": str(plugin_root)}
    if plugin_data is not None:
        values["CLAUDE_PLUGIN_DATA"] = str(plugin_data)
    checked = check_hooks(_expand_plugin_vars(raw, values), key="hooks")
    messages = [f"{origin}: {w}" for w in checked.warnings]
    try:
        hooks = _hooks_adapter().validate_python(checked.value)
    except ValidationError as exc:  # pragma: no cover - check_hooks keeps only valid entries
        from hookline.core.plain_errors import plain_errors

        first = plain_errors(exc.errors(), limit=1)[0]
        return None, [*messages, f"{origin}: invalid plugin hooks: {first}"]
    source = HookSource("plugin", origin, hooks, plugin_root=plugin_root, plugin_data=plugin_data)
    return source, messages


def _expand_plugin_vars(hooks: dict[str, Any], values: dict[str, str]) -> dict[str, Any]:
    """A copy of a hooks object with ``${NAME}`` replaced in each hook's command and args."""

    def expand(text: str) -> str:
        for name, value in values.items():
            text = text.replace("${" + name + "}", value)
        return text

    def hook(entry: Any) -> Any:
        if not isinstance(entry, dict):
            return entry
        out = dict(entry)
        if isinstance(out.get("command"), str):
            out["command"] = expand(out["command"])
        if isinstance(out.get("args"), list):
            out["args"] = [expand(a) if isinstance(a, str) else a for a in out["args"]]
        return out

    def group(entry: Any) -> Any:
        if not isinstance(entry, dict) or not isinstance(entry.get("hooks"), list):
            return entry
        return {**entry, "hooks": [hook(h) for h in entry["hooks"]]}

    return {
        event: [group(g) for g in groups] if isinstance(groups, list) else groups
        for event, groups in hooks.items()
    }


def plugin_sources(paths: Iterable[Path]) -> tuple[list[HookSource], list[str]]:
    """Load several plugin hook files; errors are collected, never raised."""
    sources: list[HookSource] = []
    errors: list[str] = []
    for p in paths:
        source, messages = load_plugin_hooks(Path(p))
        if source is not None:
            sources.append(source)
        errors.extend(messages)
    return sources, errors
