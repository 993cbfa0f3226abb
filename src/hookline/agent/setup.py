"""Compose an agent from options: settings, trust, hooks, Claude hooks, tools, session, model.

This is the one place that knows every layer; modes and embedders call
``build_agent``. Problems the user must fix (a bad model spec or script, a
missing folder, a locked session) raise ``SetupError`` with one clear line.
"""

from __future__ import annotations

import atexit
import dataclasses
import functools
import logging
import os
import re
import sys
from collections.abc import Awaitable, Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TextIO

from hookline.agent.agent import DEFAULT_SYSTEM_PROMPT, Agent
from hookline.agent.flags import describe_hook_flags, parse_hook_flags
from hookline.agent.gate import PermissionGate
from hookline.agent.memory import Memory, load_memory, system_prompt_with_memory
from hookline.agent.model_choice import choose_model, normalize_spec
from hookline.agent.permissions import PermissionRules
from hookline.agent.provider import Provider, ProviderError
from hookline.agent.providers.registered import ProviderTable
from hookline.agent.providers.registry import ProviderSpecError, create_provider
from hookline.agent.providers.scripted import ScriptError
from hookline.agent.reload import HookReload
from hookline.agent.sandbox_side import SandboxSide
from hookline.agent.subagents import AgentTypes, load_agent_types
from hookline.claude.environment import scrub_requested
from hookline.claude.plugins import Plugin, PluginSet, enabled_state, find_plugins
from hookline.core.api import RegisteredFlag, StreamRule
from hookline.core.events import McpNotificationEvent
from hookline.core.host import RunMode, agent_env
from hookline.core.paths import expand_path
from hookline.core.runner import HookError, HookRunner
from hookline.core.tool import Tool
from hookline.core.tracebacks import hook_location, hook_traceback
from hookline.core.vocabulary import PermissionMode
from hookline.discovery import (
    Discovery,
    LoadError,
    LoadResult,
    SettingsHookPath,
    discover_hooks,
    load_hooks_async,
    load_into_runner,
)
from hookline.mcp.config import load_servers
from hookline.session import SessionError, SessionManager
from hookline.settings import (
    LoadedSettings,
    PermissionModeError,
    TrustError,
    TrustStore,
    allows,
    bypass_available,
    hook_policy,
    load_settings,
    resolve_permission_mode,
)
from hookline.settings.trust import project_has_hooks as _project_has_hooks
from hookline.tools import BashSpawnContext, BashSpawnHook, ToolLeftovers, builtin_tools

if TYPE_CHECKING:
    from hookline.agent.model_catalog import ModelCatalog
    from hookline.claude.adapter import ClaudeHooks
    from hookline.sandbox.state import SandboxState

DEFAULT_MODEL = "scripted:" + str(Path(__file__).with_name("default_script.yaml"))


class SetupError(Exception):
    """Something the user must fix before the agent can start; the message says what."""

    def __init__(self, message: str, *, exit_code: int = 2) -> None:
        super().__init__(message)
        #: the process's exit status (2: a usage or settings problem; 1: the machine lacks
        #: something, or a hook the user named did not load)
        self.exit_code = exit_code


class HookFlagError(SetupError):
    """A command-line word no loaded hook's flag takes: a usage error (exit 2)."""


class NamedHookError(SetupError):
    """A hook named on the command line (``--hook``/``--extension``) did not load: running
    without it would be running without a guard the user asked for (exit 1, as pi)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, exit_code=1)


@dataclass(slots=True)
class AgentOptions:
    cwd: str = "."
    model: str | None = None
    base_url: str | None = None
    hook_paths: list[str] = field(default_factory=list)
    settings_file: str | None = None
    no_session: bool = False
    session_file: str | None = None
    resume: bool = False
    permission_mode: PermissionMode | None = None
    #: ``--allow-dangerously-skip-permissions``: bypassPermissions may be switched to later
    #: (Shift+Tab) without starting in it, unless a settings file disables it.
    allow_bypass_permissions: bool = False
    trust_project: bool = False
    system_prompt: str | None = None
    #: ``--append-system-prompt``: added to the end of the (default or given) system prompt.
    append_system_prompt: str | None = None
    #: ``--tools``: the tools offered from the start (None: every tool).
    tools: list[str] | None = None
    interactive: bool = False
    verbose: bool = False
    verbose_context: bool = False
    managed_paths: list[Path] | None = None
    #: ``--add-dir``: more working directories (acceptEdits edits there without asking).
    add_dirs: list[str] = field(default_factory=list)
    #: ``--require-hook PATH``: loaded like ``--hook``, and the agent refuses to start without it.
    required_hooks: list[str] = field(default_factory=list)
    #: ``--plugin-dir``: Claude Code plugin folders loaded for this run.
    plugin_dirs: list[str] = field(default_factory=list)
    #: ``interactive`` | ``rpc`` | ``json`` | ``print`` | ``serve``: what hooks read as
    #: ``ctx.mode``.
    mode: RunMode = "print"
    #: Command-line words left for hook flags (``--plan``, ``--name=value``), parsed once the
    #: hooks are loaded; one no hook registered is an error.
    hook_flags: list[str] = field(default_factory=list)
    #: The caller's own options (``--model``…): suggested when a hook flag is mistyped.
    known_flags: tuple[str, ...] = ()
    #: False (``serve --no-discovery``): module hooks only from the paths given and the
    #: settings' lists, not the project's, the user's or installed packages'.
    discover: bool = True
    #: A ``hook_paths`` module that does not load stops the start (``NamedHookError``).
    #: ``serve`` passes False: it answers every tool call with a deny instead.
    hook_paths_must_load: bool = True


@dataclass(slots=True)
class AgentBundle:
    agent: Agent
    runner: HookRunner
    settings: LoadedSettings
    #: reloads the hooks (``/reload``, ``ctx.reload()``) and holds the ones loaded now
    hooks: HookReload
    #: None when nothing needs it: no settings hooks, no plugins, no settings ``env`` and no
    #: credential scrub asked for (``_needs_claude_hooks``); the Claude layer is not imported.
    claude: ClaudeHooks | None
    make_provider: Callable[[str], Provider]
    trusted: bool
    #: the session's sandbox, read by the bash tool and the gate at each call; the
    #: terminal app's ``/sandbox`` changes its mode (``SandboxState.set_mode``)
    sandbox: SandboxState
    #: the models this session can switch to (``/model``, RPC ``get_available_models``),
    #: made when asked: the catalog's module is not on the way to a first turn
    catalog: Callable[[], ModelCatalog]

    @property
    def load_result(self) -> LoadResult:
        """The module hooks loaded now (at start-up, or by the last reload)."""
        return self.hooks.loaded


_log = logging.getLogger("hookline.agent")
_mcp_log = logging.getLogger("hookline.mcp")


def _say(
    stream: TextIO | None, text: str, level: int = logging.WARNING, log: logging.Logger = _log
) -> None:
    """A notice: on ``stream`` when the embedder gave one, else through ``log`` (the CLI's
    ``-q``/``--verbose``/``HOOKLINE_LOG`` decide what shows)."""
    if stream is None:
        log.log(level, "%s", text)
    else:
        print(f"hookline: {text}", file=stream, flush=True)


def _provider(
    spec: str,
    *,
    base_url: str | None,
    cwd: str,
    prefetch: bool,
    registered: ProviderTable | None = None,
) -> Provider:
    """The provider for a ``provider:name`` spec (``set_model``, a sub-agent type's model)."""
    try:
        return create_provider(
            normalize_spec(spec),
            base_url=base_url,
            cwd=cwd,
            prefetch=prefetch,
            registered=registered,
        )
    except (ProviderSpecError, ScriptError, ProviderError) as exc:
        raise SetupError(str(exc)) from None


def _chosen_provider(
    options: AgentOptions,
    settings: LoadedSettings,
    cwd: str,
    err: TextIO | None,
    *,
    registered: ProviderTable | None = None,
) -> Provider:
    """``--model`` > ``HOOKLINE_MODEL`` > settings ``model`` > an API key > the scripted model."""
    origin = next(
        (str(f.path) for f in reversed(settings.files) if f.settings and f.settings.model),
        "settings",
    )
    from_settings = None if settings.empty else settings.merged.model
    choice = choose_model(
        options.model, from_settings, DEFAULT_MODEL, os.environ, settings_origin=origin
    )
    if choice.note:
        _say(err, choice.note)
    _log.debug("model %s (from %s)", choice.spec, choice.source)
    try:
        # The terminal app has keys to read while an SDK imports; other runs go straight on.
        prefetch = options.interactive
        return create_provider(
            choice.spec,
            base_url=options.base_url,
            cwd=cwd,
            prefetch=prefetch,
            registered=registered,
        )
    except (ProviderSpecError, ScriptError, ProviderError) as exc:
        where = "" if choice.source in ("--model", "default") else f"{choice.source}: "
        raise SetupError(f"{where}{exc}") from None


def _ask_trust(cwd: str) -> bool:
    """Interactive mode asks before anything from the project runs."""
    try:
        answer = input(
            f"Trust the project {cwd} and everything below it? Its hooks will run code and "
            "its settings may loosen permissions. [y/N] "
        )
    except EOFError:
        return False
    return answer.strip().lower() in ("y", "yes")


async def _decide_trust(
    options: AgentOptions,
    cwd: str,
    err: TextIO | None,
    ask_trust: Callable[[str], Awaitable[bool]] | None = None,
) -> bool:
    """Trusted by flag or record; interactive mode asks when the project has anything to run.

    Only a failure to record a yes is said here; "not trusted" is said once after
    the settings are loaded, together with what was ignored from them.
    """
    store = TrustStore()
    if options.trust_project or store.is_trusted(Path(cwd)):
        return True
    if not _project_has_hooks(cwd):
        return False
    if options.interactive and (await ask_trust(cwd) if ask_trust is not None else _ask_trust(cwd)):
        try:
            store.trust(Path(cwd))
        except TrustError as exc:
            _say(err, f"{exc}; trusting {cwd} for this run only")
        return True
    return False  # said once, with what was ignored, after the settings are loaded


@dataclass(frozen=True, slots=True)
class _Required:
    """A hook the agent must not start without: the path as given, where it came from."""

    path: Path
    written: str
    origin: str


def _required_hooks(options: AgentOptions, settings: LoadedSettings, cwd: str) -> list[_Required]:
    """``--require-hook`` paths (relative to ``cwd``) and ``requiredHooks`` of trusted files."""
    out = [_Required(expand_path(p, cwd), p, "--require-hook") for p in options.required_hooks]
    out += [
        _Required(expand_path(p, base), p, f"requiredHooks in {f.path}")
        for p, base, f in settings.required_hooks()
    ]
    return out


def _check_required(required: list[_Required], result: LoadResult, disabled: str | None) -> None:
    """``SetupError`` naming each required hook that is not loaded, and why."""
    loaded = {os.path.realpath(s.path) for s in result.sources}
    reasons = {os.path.realpath(e.path): f"failed to load: {e.reason}" for e in result.errors}
    for skipped in result.skipped:
        reasons.setdefault(os.path.realpath(skipped.source.path), f"skipped: {skipped.reason}")
    problems = []
    for hook in required:
        real = os.path.realpath(hook.path)
        if real in loaded:
            continue
        if not hook.path.exists():
            why = "no such file"
        elif real in reasons:
            why = reasons[real]
        else:
            why = f"not loaded: {disabled}" if disabled is not None else "not loaded"
        problems.append(f"required hook {hook.written} ({hook.origin}): {why}")
    if problems:
        raise SetupError(
            "the agent does not start without its required hooks:\n" + "\n".join(problems)
        )


def _load_error_text(error: LoadError, verbose: bool, flag: str = "") -> str:
    """``hook PATH failed to load: REASON (at file:line)``, the traceback under it if verbose;
    with ``flag``, ``hook PATH (FLAG): failed to load: ...``."""
    where = hook_location(error.path, error.exception)
    at = f" (at {where})" if where else ""
    trace = hook_traceback(error.exception) if verbose else ""
    named = f" ({flag}):" if flag else ""
    return f"hook {error.path}{named} failed to load: {error.reason}{at}" + _below(trace)


def _check_named(result: LoadResult, verbose: bool) -> None:
    """``NamedHookError`` when a ``--hook`` path (or a module of a folder given so) did not
    load; hooks discovered in folders nobody named only get their error reported.

    Worded as ``_check_required``: ``hook PATH (--hook): no such file | failed to load: ...``.
    """
    lines = []
    for error in result.errors:
        if error.origin != "cli":
            continue
        if not os.path.lexists(error.path):
            lines.append(f"hook {error.path} (--hook): no such file")
        else:
            lines.append(_load_error_text(error, verbose, "--hook"))
    if len(lines) == 1:
        raise NamedHookError(f"{lines[0]}; the agent does not start without a hook it was given")
    if lines:
        raise NamedHookError(
            "the agent does not start without the hooks it was given:\n" + "\n".join(lines)
        )


def _open_session(options: AgentOptions, cwd: str) -> SessionManager:
    try:
        if options.no_session:
            return SessionManager.in_memory(cwd)
        if options.session_file:
            return SessionManager.open(options.session_file)
        if options.resume:
            return SessionManager.continue_recent(cwd)
        return SessionManager.create(cwd)
    except SessionError as exc:
        raise SetupError(str(exc)) from None
    except OSError as exc:
        where = f" {exc.filename}" if exc.filename else ""
        raise SetupError(
            f"cannot open the session file{where}: {exc.strerror or exc} "
            "(set HOOKLINE_HOME to a writable folder, or pass --no-session)"
        ) from None


async def build_agent(
    options: AgentOptions,
    *,
    stderr: TextIO | None = None,
    ask_trust: Callable[[str], Awaitable[bool]] | None = None,
    set_aside: Collection[Path] = (),
) -> AgentBundle:
    """Everything the modes need, built in the order trust requires (``AgentBuilder``).

    ``ask_trust(cwd)`` asks the user whether to trust an untrusted project
    (interactive mode); without it the question is a line on stdin.
    ``set_aside``: invalid settings files the user chose to go on without
    (``load_settings``); any other invalid file stops the start.
    """
    builder = AgentBuilder(options, stderr=stderr, ask_trust=ask_trust, set_aside=set_aside)
    return await builder.build()


def unusable_settings(errors: Sequence[str]) -> SetupError:
    """The error that stops a start on settings that cannot be used."""
    return SetupError(
        "settings cannot be used, so nothing was started (its deny rules cannot be "
        "known); fix or remove the file:\n" + "\n".join(errors)
    )


class AgentBuilder:
    """Builds an agent from options, one step per method, in the order trust requires.

    Nothing from the project runs before it is trusted, and no hook code runs
    before the settings' deny rules are known. ``build`` reads as the list of
    steps: each takes what the steps before it built and returns what it
    builds. What is built before the agent and reaches it later (prompt and
    agent hooks, the sandbox's reports) is given the agent in ``bind``.
    """

    def __init__(
        self,
        options: AgentOptions,
        *,
        stderr: TextIO | None = None,
        ask_trust: Callable[[str], Awaitable[bool]] | None = None,
        set_aside: Collection[Path] = (),
    ) -> None:
        self.options = options
        #: where notices go (None: the log)
        self.err = stderr
        self.cwd = os.path.abspath(options.cwd)
        self._ask_trust = ask_trust
        self._set_aside = frozenset(set_aside)
        #: What a step built before the agent that reaches it later; ``bind`` gives it.
        self._awaiting_agent: list[_AwaitsAgent] = []
        #: The providers hooks registered (``pi.register_provider``), once they are loaded.
        self.registered = ProviderTable()

    async def build(self) -> AgentBundle:
        if not os.path.isdir(self.cwd):
            raise SetupError(f"--cwd {self.cwd} is not a directory")
        trusted = await _decide_trust(self.options, self.cwd, self.err, self._ask_trust)
        read_settings = self.settings_reader(trusted)
        settings = self.settings(read_settings, trusted)
        rules = _permission_rules(settings, self.options, self.cwd, self.err)  # before any hook
        runner = self.runner(settings)
        plan = self.hook_plan(settings, trusted)
        loaded = await self.module_hooks(plan(), runner, settings)
        self.registered = _registered_providers(loaded)
        provider = _chosen_provider(
            self.options, settings, self.cwd, self.err, registered=self.registered
        )
        plugins = self.plugins(settings, trusted)
        claude = self.claude_hooks(settings, trusted, plugins, loaded, runner)
        reload = HookReload(
            plan,
            runner,
            loaded,
            self.cwd,
            read_settings=read_settings,
            claude=claude,
            err=self.err,
            registered=self.registered,
        )
        mode = self.permission_mode(settings)
        sandbox = self.sandbox(settings, rules, runner, read_settings)
        gate = PermissionGate(
            runner,
            mode=mode,
            rules=rules,
            cwd=self.cwd,
            sandbox=sandbox,
            bypass_available=bypass_available(
                settings, mode, self.options.allow_bypass_permissions
            ),
        )
        memory = self.memory(trusted)
        session = _open_session(self.options, self.cwd)
        leftovers = self.leftovers()
        subagents = self.subagents(trusted, plugins)
        make_provider = self.provider_factory()
        catalog = self.catalog(settings)
        agent = Agent(
            provider=provider,
            runner=runner,
            session=session,
            tools=self.tools(rules, claude, leftovers, sandbox),
            cwd=self.cwd,
            system_prompt=system_prompt_with_memory(self.system_prompt(), memory),
            gate=gate,
            leftovers=leftovers,
            claude=claude,
            subagents=subagents,
            make_provider=make_provider,
            reloader=reload,
            memory_files=memory.files,
            settings_stream_rules=_settings_stream_rules(settings),
            verbose_context=self.options.verbose_context,
            mode=self.options.mode,
            catalog=catalog,
        )
        self.bind(agent, claude)
        if self.options.tools is not None:
            try:
                agent.set_active_tools(self.options.tools)
            except ValueError as exc:
                raise SetupError(
                    f"--tools: {str(exc).removeprefix('set_active_tools: ')}"
                ) from None
        agent.on_shutdown(sandbox.aclose)
        await _start_mcp_servers(agent, claude, settings, self.cwd, trusted, self.err)
        if self.options.verbose:
            _verbose_transcript(agent, self.err)
        return AgentBundle(
            agent=agent,
            runner=runner,
            settings=settings,
            hooks=reload,
            claude=claude,
            make_provider=make_provider,
            trusted=trusted,
            sandbox=sandbox,
            catalog=catalog,
        )

    # -- the steps, in order ---------------------------------------------------------

    def system_prompt(self) -> str:
        """``--system-prompt`` (else the default), with ``--append-system-prompt`` after it."""
        prompt = self.options.system_prompt or DEFAULT_SYSTEM_PROMPT
        extra = self.options.append_system_prompt
        return f"{prompt}\n\n{extra}" if extra else prompt

    def settings_reader(self, trusted: bool) -> Callable[[], LoadedSettings]:
        """How this session reads its settings (its trust, ``--settings``, managed): at
        start-up, and again when the ``/sandbox`` panel has written one."""
        return functools.partial(
            load_settings,
            Path(self.cwd),
            cli_settings=Path(self.options.settings_file) if self.options.settings_file else None,
            managed_paths=self.options.managed_paths,
            project_trusted=trusted,
            set_aside=self._set_aside,
        )

    def settings(self, read: Callable[[], LoadedSettings], trusted: bool) -> LoadedSettings:
        """The settings; unusable ones stop the start, warnings and what an untrusted
        project's files lost are said."""
        err, cwd = self.err, self.cwd
        settings = read()
        if settings.errors:
            raise unusable_settings(settings.errors)
        for warning in settings.warnings:
            _say(err, f"settings: {warning}")
        _log.debug("project %s: %s", cwd, "trusted" if trusted else "not trusted")
        for file in settings.files:
            if file.exists:
                _log.debug("settings file %s (%s)", file.path, file.scope)
        ignored = settings.ignored_summary()
        if not trusted and (ignored is not None or _project_has_hooks(cwd)):
            _say(
                err,
                f"project {cwd} is not trusted: its hooks and settings hooks are skipped"
                + (f"; {ignored}" if ignored else "")
                + f" (run `hookline trust {cwd}` or pass --trust-project)",
            )
        return settings

    def runner(self, settings: LoadedSettings) -> HookRunner:
        """The hook runner; a failing hook is said at once (its traceback under --verbose)."""
        from hookline.core.store import StoreConfigError, process_backend

        try:
            process_backend()  # HOOKLINE_STORE names a backend: said now, not at a hook's use
        except StoreConfigError as exc:
            raise SetupError(str(exc)) from None
        runner = HookRunner(cwd=self.cwd, timeout=settings.hook_timeout_seconds)
        err, verbose = self.err, self.options.verbose
        runner.on_error(lambda e: _report_hook_error(err, e, verbose))
        return runner

    def hook_plan(self, settings: LoadedSettings, trusted: bool) -> Callable[[], ModuleHookPlan]:
        """What hook modules may load, asked at start-up and again on a reload (files
        added since count)."""
        options = self.options
        return functools.partial(
            plan_module_hooks,
            settings,
            trusted,
            self.cwd,
            [*options.hook_paths, *options.required_hooks],
            discover=options.discover,
        )

    async def module_hooks(
        self, plan: ModuleHookPlan, runner: HookRunner, settings: LoadedSettings
    ) -> LoadResult:
        """Load the planned hook modules into ``runner``; a required or named hook that did
        not load stops the start, the hooks' command-line flags are parsed."""
        options, err, cwd = self.options, self.err, self.cwd
        required = _required_hooks(options, settings, cwd)
        if plan.note is not None:
            _say(err, plan.note)
        result = (
            LoadResult()
            if plan.discovery is None
            else await load_hooks_async(plan.discovery, cwd=cwd)
        )
        for error in result.errors:
            if error.origin == "cli" and options.hook_paths_must_load:
                continue  # said once, as the reason nothing starts (below)
            _say(err, _load_error_text(error, options.verbose), logging.ERROR)
        if options.verbose:
            for shadowed in result.shadowed:
                _say(err, f"hook {shadowed.source.path} shadowed: {shadowed.reason}", logging.INFO)
            for skipped in result.skipped:
                _say(err, f"hook {skipped.source.path} skipped: {skipped.reason}", logging.INFO)
            for hook, source in zip(result.hooks, result.sources, strict=True):
                events = ", ".join(hook.handlers) or "no events"
                _say(err, f"hook {hook.path} ({source.origin}) loaded: {events}", logging.INFO)
        _check_required(required, result, plan.limit)
        if options.hook_paths_must_load:
            _check_named(result, options.verbose)
        result.flag_values.update(_hook_flags(result, options.hook_flags, options.known_flags))
        result.events.on_error = lambda channel, exc: runner.report(
            f"events:{channel}", "events", exc
        )
        load_into_runner(result, runner)
        return result

    def plugins(self, settings: LoadedSettings, trusted: bool) -> list[Plugin]:
        """The Claude Code plugins that load: none when only managed hooks may run."""
        if hook_policy(settings).managed_only:
            return []
        return _plugins(settings, self.options, self.cwd, trusted, self.err)

    def claude_hooks(
        self,
        settings: LoadedSettings,
        trusted: bool,
        plugins: list[Plugin],
        loaded: LoadResult,
        runner: HookRunner,
    ) -> ClaudeHooks | None:
        """The settings hooks and plugins' hooks, installed in ``runner``; None (the Claude
        layer not imported) when there is nothing for them to do. Their prompt and agent
        hooks run on the agent's model once it is bound."""
        if not _needs_claude_hooks(settings, plugins):
            return None
        from hookline.agent.model_hooks import ModelHookRunner
        from hookline.claude.adapter import ClaudeHooks
        from hookline.claude.bridge_command import skip_bridge_duplicates

        model_hooks = ModelHookRunner(self.cwd)
        self._awaiting_agent.append(model_hooks)

        loaded_keys, hook_env = [s.key for s in loaded.sources], settings.merged.env
        claude = ClaudeHooks.from_settings(
            settings,
            plugins=plugins,
            policy=hook_policy(settings),
            project_trusted=trusted,
            project_dir=self.cwd,
            # `hookline claude-hook` for modules loaded here would run them twice
            skip=skip_bridge_duplicates(loaded_keys, self.cwd, hook_env),
            model_runner=model_hooks,
            mode=self.options.mode,
        )
        claude.install(runner)
        for problem in claude.engine.errors:
            _say(self.err, f"settings hooks: {problem}")
        return claude

    def permission_mode(self, settings: LoadedSettings) -> PermissionMode:
        """``--permission-mode``, else the settings' ``defaultMode``, as policy allows."""
        try:
            mode, warnings = resolve_permission_mode(settings, self.options.permission_mode)
        except PermissionModeError as exc:
            raise SetupError(str(exc)) from None
        for warning in warnings:
            _say(self.err, f"settings: {warning}")
        return mode

    def sandbox(
        self,
        settings: LoadedSettings,
        rules: PermissionRules,
        runner: HookRunner,
        read_settings: Callable[[], LoadedSettings],
    ) -> SandboxState:
        """The session's sandbox state, started when the settings have a ``sandbox``
        section; refuse to start when it is required and cannot run, warn once when it
        is wanted and cannot. Without the section nothing runs until ``/sandbox``
        switches it on. Its refusals are reported once the agent is bound."""
        from hookline.sandbox.state import SandboxState

        side = SandboxSide(self.cwd, runner)
        self._awaiting_agent.append(side)
        state = SandboxState(rules=rules, cwd=self.cwd, load=read_settings, start=side.start)
        if settings.empty or settings.merged.sandbox is None:
            return state  # nothing started for a run without sandbox settings
        from hookline.sandbox.start import SandboxUnavailable

        try:
            begun = state.begin(settings)
        except SandboxUnavailable as exc:
            raise SetupError(str(exc), exit_code=1) from None
        if begun.warning is not None:
            _say(self.err, begun.warning, logging.WARNING)
        return state

    def memory(self, trusted: bool) -> Memory:
        """CLAUDE.md and its kin, for the system prompt."""
        memory = load_memory(self.cwd, project_trusted=trusted)
        for warning in memory.warnings:
            _say(self.err, warning)
        return memory

    def leftovers(self) -> ToolLeftovers:
        """What bash calls leave (background jobs, spill files): it ends with the session;
        atexit covers an exit that skips the shutdown."""
        leftovers = ToolLeftovers()
        atexit.register(leftovers.close)
        return leftovers

    def subagents(self, trusted: bool, plugins: list[Plugin]) -> AgentTypes:
        """The sub-agent types the ``task`` tool offers: built-in, the project's, the
        user's and the plugins'."""
        types = load_agent_types(
            self.cwd,
            project_trusted=trusted,
            plugins=[(p.id.rpartition("@")[0] or p.id, p.root) for p in plugins],
        )
        for warning in types.warnings:
            _say(self.err, warning)
        return types

    def catalog(self, settings: LoadedSettings) -> Callable[[], ModelCatalog]:
        """The models ``/model`` and RPC list: the usable providers', the named ones."""
        named = None if settings.empty else settings.merged.model  # no settings: no models
        return functools.partial(_catalog, named, self.options.base_url, self.registered)

    def provider_factory(self) -> Callable[[str], Provider]:
        """How a model is switched to by name: ``set_model``, a sub-agent type's model."""
        return functools.partial(
            _provider,
            base_url=self.options.base_url,
            cwd=self.cwd,
            prefetch=self.options.interactive,
            registered=self.registered,
        )

    def tools(
        self,
        rules: PermissionRules,
        claude: ClaudeHooks | None,
        leftovers: ToolLeftovers,
        sandbox: SandboxState,
    ) -> list[Tool]:
        """The built-in tools; bash spawns with the settings hooks' environment."""
        return builtin_tools(
            self.cwd,
            spawn_hook=_spawn_hook(claude, self.options.mode),
            hide=rules.hide_predicate(self.cwd),
            leftovers=leftovers,
            sandbox=sandbox,
        )

    def bind(self, agent: Agent, claude: ClaudeHooks | None) -> None:
        """Give the agent to what was built before it and reaches it; the settings hooks'
        outcomes go on its event stream."""
        for waiting in self._awaiting_agent:
            waiting.bind(agent)
        if claude is not None:
            claude.engine.on_outcome(
                lambda o: agent.publish({"type": "settings_hook_outcome", **o.to_dict()})
            )


def _catalog(named: str | None, base_url: str | None, registered: ProviderTable) -> ModelCatalog:
    from hookline.agent.model_catalog import ModelCatalog

    return ModelCatalog(os.environ, named, base_url, registered=registered)


def _registered_providers(loaded: LoadResult) -> ProviderTable:
    """The providers the loaded hooks registered; one that cannot be applied stops the
    start, naming its hook."""
    table = ProviderTable()
    problems = table.load(loaded.hooks)
    if problems:
        raise SetupError(problems[0])
    return table


def _spawn_hook(claude: ClaudeHooks | None, mode: RunMode) -> BashSpawnHook:
    """Bash spawns marked as the agent's (``agent_env``), with the settings ``env``,
    CLAUDE_ENV_FILE exports and the credential scrub when there are settings hooks."""

    def spawn(ctx: BashSpawnContext) -> BashSpawnContext:
        env = agent_env(mode, ctx.env) if claude is None else claude.engine.bash_env(ctx.env)
        return dataclasses.replace(ctx, env=env)

    return spawn


class _AwaitsAgent(Protocol):
    """Built before the agent, reaching it later (``AgentBuilder.bind``)."""

    def bind(self, agent: Agent) -> None: ...


async def hook_flags_help(options: AgentOptions) -> list[str]:
    """``hookline --help`` lines for the flags the hooks that would load register."""
    err = open(os.devnull, "w")  # noqa: SIM115 - start-up notices are not help text
    try:
        bundle = await build_agent(dataclasses.replace(options, no_session=True), stderr=err)
    finally:
        err.close()
    bundle.agent.session.close()
    return describe_hook_flags(_registered_flags(bundle.load_result))


def _registered_flags(result: LoadResult) -> dict[str, RegisteredFlag]:
    flags: dict[str, RegisteredFlag] = {}
    for hook in result.hooks:
        for name, flag in hook.flags.items():
            flags.setdefault(name, flag)
    return flags


def _hook_flags(
    result: LoadResult, words: list[str], known: tuple[str, ...]
) -> dict[str, bool | str]:
    try:
        return parse_hook_flags(words, _registered_flags(result), known)
    except ValueError as exc:
        raise HookFlagError(str(exc)) from None


def _settings_stream_rules(settings: LoadedSettings) -> list[StreamRule]:
    """``ttsrRules`` of every settings file, compiled; a bad pattern names file and rule."""
    rules: list[StreamRule] = []
    for file in settings.files:
        if file.settings is None or not file.settings.ttsr_rules:
            continue
        for i, rule in enumerate(file.settings.ttsr_rules):
            try:
                pattern = re.compile(rule.pattern)
            except re.error as exc:
                raise SetupError(
                    f"{file.path}: ttsrRules[{i}].pattern {rule.pattern!r} is not a valid "
                    f"regular expression: {exc}"
                ) from None
            rules.append(StreamRule(rule.name, pattern, rule.text, str(file.path)))
    return rules


def _permission_rules(
    settings: LoadedSettings, options: AgentOptions, cwd: str, err: TextIO | None
) -> PermissionRules:
    """Every settings file's rules, with ``--add-dir`` folders.

    An unreadable deny or ask rule stops the agent: what it would have
    refused cannot be known. An unreadable allow rule is skipped with a warning.
    """
    rules = PermissionRules.from_settings(settings)
    fatal = rules.errors_in("deny", "ask")
    if fatal:
        lines = "; ".join(str(e) for e in fatal)
        raise SetupError(
            f"settings permissions: {lines} (fix or remove the rule: a deny or ask rule "
            "that cannot be read could hide a refusal)"
        )
    for error in rules.errors_in("allow"):
        _say(err, f"settings permissions: {error} (rule skipped)")
    _guard_credentials(rules, cwd)
    for folder in options.add_dirs:
        full = os.path.normpath(os.path.join(cwd, os.path.expanduser(folder)))
        if not os.path.isdir(full):
            raise SetupError(f"--add-dir {full} is not a directory")
        if full not in rules.additional_directories:
            rules.additional_directories.append(full)
    return rules


def _guard_credentials(rules: PermissionRules, cwd: str) -> None:
    """The login store (``$HOOKLINE_HOME/auth.json``) is never the model's to read or
    change: its tokens would reach the model's provider, or a prompt-injected project.
    Built-in ``Read``/``Edit`` deny rules, so every tool and bash line naming it, and a
    grep or ls over its folder, is refused in every mode."""
    from hookline.agent.auth_store import AUTH_FILE
    from hookline.core.paths import hookline_home

    store = os.path.realpath(hookline_home() / AUTH_FILE)
    for tool in ("Read", "Edit"):
        rules.add(
            "deny", f"{tool}(/{store})", file="hookline (login store)", scope="code", root=cwd
        )


def enabled_plugins(
    settings: LoadedSettings, cwd: str, trusted: bool, plugin_dirs: Iterable[str] = ()
) -> tuple[PluginSet, list[str]]:
    """The Claude Code plugins that load (enabled in settings, or ``--plugin-dir``) and
    the warnings about them; the agent and ``hookline hooks list`` share this."""
    listed = None if settings.empty else settings.merged.extra_keys().get("enabledPlugins")
    enabled, warnings = enabled_state(listed)
    found = find_plugins(
        enabled,
        project_dir=cwd,
        project_trusted=trusted,
        plugin_dirs=[expand_path(d, cwd) for d in plugin_dirs],
    )
    return found, [*warnings, *found.warnings]


def _plugins(
    settings: LoadedSettings, options: AgentOptions, cwd: str, trusted: bool, err: TextIO | None
) -> list[Plugin]:
    """The Claude Code plugins that load, their warnings said on ``err``."""
    found, warnings = enabled_plugins(settings, cwd, trusted, options.plugin_dirs)
    for warning in warnings:
        _say(err, f"plugins: {warning}")
    if options.verbose:
        for plugin in found.plugins:
            _say(err, f"plugin {plugin.id} loaded from {plugin.root}", logging.INFO)
        for skipped in found.skipped:
            _say(err, f"plugin {skipped.id} not loaded: {skipped.reason}", logging.INFO)
    return found.plugins


async def _start_mcp_servers(
    agent: Agent,
    claude: ClaudeHooks | None,
    settings: LoadedSettings,
    cwd: str,
    trusted: bool,
    err: TextIO | None,
) -> None:
    """Start the configured MCP servers; their tools join the agent's, ``mcp_tool``
    settings hooks call through them, their notifications reach module hooks as
    ``mcp_notification``, and they stop with the session. A project's ``.mcp.json``
    counts only once the project is trusted."""
    merged = None if settings.empty else settings.merged
    disabled = getattr(merged, "disabledMcpjsonServers", None) or []
    configs, problems = load_servers(
        cwd,
        project_trusted=trusted,
        settings_servers=getattr(merged, "mcpServers", None),
        disabled=frozenset(str(name) for name in disabled if isinstance(name, str)),
    )
    for problem in problems:
        _say(err, f"mcp: {problem}", log=_mcp_log)
    if not configs:
        return

    from hookline.mcp.servers import McpServers  # the client side: only with servers

    async def notified(server: str, method: str, params: dict[str, Any] | None) -> None:
        await agent.emit(McpNotificationEvent(server=server, method=method, params=params))

    servers = McpServers(
        configs,
        cwd=cwd,
        on_problem=lambda text: _say(err, text, log=_mcp_log),
        on_notification=notified,
    )
    await servers.start()
    agent.add_tool_source(servers.tools)
    agent.on_shutdown(servers.close)
    if claude is not None:  # only settings hooks (``mcp_tool``) call servers directly
        claude.engine.mcp_tools = servers


def _needs_claude_hooks(settings: LoadedSettings, plugins: list[Plugin]) -> bool:
    """Whether ``ClaudeHooks`` has anything to do: settings hooks or plugins to run, or a
    subprocess environment to shape (settings ``env``, the credential scrub).

    Without any, the agent runs without it and the Claude layer is never imported.
    """
    if plugins or settings.command_hooks():
        return True
    if not settings.empty and settings.merged.env:
        return True
    return scrub_requested(os.environ)


def _report_hook_error(stream: TextIO | None, error: HookError, verbose: bool = False) -> None:
    """One line naming the hook's own ``file:line`` when known; the traceback under --verbose."""
    where = hook_location(error.hook_path, error.exception) or error.hook_path
    trace = hook_traceback(error.exception) if verbose else ""
    text = f"hook {where} failed on {error.event}: {error.error}" + _below(trace)
    _say(stream, text, logging.ERROR)  # a failing hook is shown even with -q


def _below(trace: str) -> str:
    """A traceback as the lines under its notice (one record when logged)."""
    return "\n" + trace.rstrip("\n") if trace else ""


@dataclass(frozen=True, slots=True)
class ModuleHookPlan:
    """Which hook modules may load: the discovery (``None``: none may) and policy's limit."""

    discovery: Discovery | None
    #: Why some or all hook modules do not run (``allowManagedHooksOnly``, untrusted ...).
    limit: str | None = None
    #: The line said at start-up about that limit.
    note: str | None = None


def plan_module_hooks(
    settings: LoadedSettings,
    trusted: bool,
    cwd: str,
    cli_paths: list[str],
    *,
    ignore_policy: bool = False,
    discover: bool = True,
) -> ModuleHookPlan:
    """Discover the hook modules the settings' policy and trust allow (nothing is imported).

    Module hooks are never the managed file's unless its own ``hooks`` list names them.
    The agent and ``hookline hooks list`` share this, so both see the same hooks;
    ``ignore_policy`` lists what ``disableAllHooks``/``allowManagedHooksOnly`` hold back;
    without ``discover`` no folder or package is searched (only the paths named).
    """
    policy = hook_policy(settings)
    others_ok, why_not = allows("user", policy, trusted)
    if ignore_policy:
        others_ok = True
    elif not allows("managed", policy, trusted)[0]:
        return ModuleHookPlan(None, why_not, f"no hook modules run: {why_not}")
    settings_paths = [
        SettingsHookPath(p, str(base), str(f.path), f.from_project)
        for p, base, f in [*settings.hook_paths(), *settings.required_hooks()]
        if others_ok or f.scope == "managed"
    ]
    discovery = discover_hooks(
        cli_paths=cli_paths if others_ok else [],
        settings_paths=settings_paths,
        project_dir=cwd if others_ok and discover else None,
        project_trusted=trusted,
        cwd=cwd,
        user=others_ok and discover,
        packages=others_ok and discover,
    )
    if others_ok:
        return ModuleHookPlan(discovery)
    return ModuleHookPlan(
        discovery, why_not, f"only the managed settings' hook modules run: {why_not}"
    )


#: ``--verbose`` shows a tool's result by its first and last lines (a ``bash`` result
#: ends with where its output was cut).
_VERBOSE_HEAD_LINES, _VERBOSE_TAIL_LINES = 2, 2


def _verbose_transcript(agent: Agent, err: TextIO | None) -> None:
    """``--verbose``: each tool call and what became of it, on stderr (or ``err``).

    This is the product's output for a watching user, not a log: its layout stays."""

    #: A failed call's lines wait for the next payload: when that is its denial by a
    #: failing hook, the hook's error (printed when it failed) is not said again.
    ended: list[str] = []

    def say(line: str) -> None:
        print(line, file=err or sys.stderr, flush=True)

    def show(payload: dict[str, object]) -> None:
        kind = payload.get("type")
        if ended:
            block = ended.pop()
            if kind == "tool_denied" and payload.get("hook_failed"):
                block = f"     [x] blocked: its hook {payload.get('hook')} failed (error above)"
            say(block)
        if kind == "tool_execution_start":
            args = payload.get("input") or {}
            detail = ""
            if isinstance(args, dict):
                detail = str(args.get("command") or args.get("path") or "")
            say(f"  -> {payload.get('tool_name')} {detail}")
        elif kind == "settings_hook_outcome" and payload.get("kind") != "success":
            say(
                f"     settings hook {payload.get('event')} ({payload.get('hook_id')}): "
                f"{payload.get('kind')}: {payload.get('reason')}"
            )
        elif kind == "tool_execution_end":
            from hookline.tools.elided import elide_lines

            text = str(payload.get("result_text") or "").strip().splitlines()
            shown = elide_lines(text, _VERBOSE_HEAD_LINES, _VERBOSE_TAIL_LINES).lines() or [""]
            mark = f"[{'x' if payload.get('is_error') else 'ok'}] "
            indent = " " * len(mark)
            block = "\n".join(
                f"     {indent if i else mark}{line[:160]}".rstrip() for i, line in enumerate(shown)
            )
            if payload.get("is_error"):
                ended.append(block)
            else:
                say(block)

    agent.subscribe(show)
