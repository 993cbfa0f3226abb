"""Compose an agent from options: settings, trust, hooks, Claude hooks, tools, session, model.

This is the one place that knows every layer; modes and embedders call
``build_agent``. Problems the user must fix (a bad model spec or script, a
missing folder, a locked session) raise ``SetupError`` with one clear line.
"""

from __future__ import annotations

import dataclasses
import os
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from hookline.agent.agent import DEFAULT_SYSTEM_PROMPT, Agent
from hookline.agent.gate import PermissionGate
from hookline.agent.model_hooks import make_model_runner
from hookline.agent.permissions import PermissionRuleError, PermissionRules
from hookline.agent.provider import Provider, ProviderError
from hookline.agent.providers.registry import ProviderSpecError, create_provider
from hookline.agent.providers.scripted import ScriptError
from hookline.claude import ClaudeHooks
from hookline.core.paths import hookline_home
from hookline.core.runner import HookError, HookRunner
from hookline.discovery import (
    LoadResult,
    SettingsHookPath,
    discover_hooks,
    load_hooks,
    load_into_runner,
)
from hookline.session import SessionError, SessionManager
from hookline.settings import LoadedSettings, TrustStore, hook_policy, load_settings
from hookline.tools import BashSpawnContext, builtin_tools

DEFAULT_MODEL = "scripted:" + str(Path(__file__).with_name("default_script.yaml"))


class SetupError(Exception):
    """Something the user must fix before the agent can start; the message says what."""


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
    permission_mode: str | None = None
    trust_project: bool = False
    system_prompt: str | None = None
    interactive: bool = False
    verbose: bool = False
    managed_paths: list[Path] | None = None


@dataclass(slots=True)
class AgentBundle:
    agent: Agent
    runner: HookRunner
    settings: LoadedSettings
    load_result: LoadResult
    claude: ClaudeHooks
    make_provider: Callable[[str], Provider]
    trusted: bool


def _say(stream: TextIO, text: str) -> None:
    print(f"hookline: {text}", file=stream, flush=True)


def _provider(spec: str, base_url: str | None, cwd: str) -> Provider:
    try:
        return create_provider(spec, base_url=base_url, cwd=cwd)
    except (ProviderSpecError, ScriptError, ProviderError) as exc:
        raise SetupError(str(exc)) from None


def _ask_trust(cwd: str) -> bool:
    """Interactive mode asks before anything from the project runs."""
    try:
        answer = input(
            f"Trust the project {cwd}? Its hooks and settings hooks will run code. [y/N] "
        )
    except EOFError:
        return False
    return answer.strip().lower() in ("y", "yes")


def _project_has_hooks(cwd: str) -> bool:
    root = Path(cwd)
    return any(
        p.exists()
        for p in (
            root / ".hookline" / "hooks",
            root / ".hookline" / "settings.json",
            root / ".claude" / "settings.json",
            root / ".claude" / "settings.local.json",
        )
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
    except (SessionError, OSError) as exc:
        raise SetupError(str(exc)) from None


async def build_agent(
    options: AgentOptions,
    *,
    stderr: TextIO | None = None,
    ask_trust: Callable[[str], Awaitable[bool]] | None = None,
) -> AgentBundle:
    """Everything the modes need, built in the order trust requires.

    ``ask_trust(cwd)`` asks the user whether to trust an untrusted project
    (interactive mode); without it the question is a line on stdin.
    """
    err = stderr or sys.stderr
    cwd = os.path.abspath(options.cwd)
    if not os.path.isdir(cwd):
        raise SetupError(f"--cwd {cwd} is not a directory")
    provider = _provider(options.model or DEFAULT_MODEL, options.base_url, cwd)

    settings = load_settings(
        Path(cwd),
        cli_settings=Path(options.settings_file) if options.settings_file else None,
        managed_paths=options.managed_paths,
    )
    for problem in settings.errors:
        _say(err, f"settings: {problem}")

    store = TrustStore()
    trusted = options.trust_project or store.is_trusted(Path(cwd))
    if not trusted and _project_has_hooks(cwd):
        if options.interactive and (
            await ask_trust(cwd) if ask_trust is not None else _ask_trust(cwd)
        ):
            store.trust(Path(cwd))
            trusted = True
        else:
            _say(
                err,
                f"project {cwd} is not trusted: its hooks and settings hooks are skipped "
                f"(run `hookline trust {cwd}` or pass --trust-project)",
            )

    policy = hook_policy(settings)
    runner = HookRunner(cwd=cwd, timeout=settings.hook_timeout_seconds)
    runner.on_error(lambda e: _report_hook_error(err, e))
    if policy.disable_all:
        _say(err, "disableAllHooks is set: no hooks run")
        result = LoadResult()
    else:
        discovery = discover_hooks(
            cli_paths=options.hook_paths,
            settings_paths=[
                SettingsHookPath(p, str(base), str(f.path)) for p, base, f in settings.hook_paths()
            ]
            if not policy.managed_only
            else [],
            project_dir=cwd,
            project_trusted=trusted,
            cwd=cwd,
        )
        result = load_hooks(discovery, cwd=cwd)
    for error in result.errors:
        _say(err, f"hook {error.path} failed to load: {error.reason}")
    if options.verbose:
        for shadowed in result.shadowed:
            _say(err, f"hook {shadowed.source.path} shadowed: {shadowed.reason}")
        for skipped in result.skipped:
            _say(err, f"hook {skipped.source.path} skipped: {skipped.reason}")
    load_into_runner(result, runner)

    agent_ref: list[Agent] = []
    claude = ClaudeHooks.from_settings(
        settings,
        plugin_hook_files=[] if policy.managed_only else plugin_hook_files(),
        policy=policy,
        project_trusted=trusted,
        project_dir=cwd,
        model_runner=make_model_runner(
            lambda: agent_ref[0].provider, cwd, lambda event: agent_ref[0].emit(event)
        ),
    )
    claude.install(runner)
    for problem in claude.errors:
        _say(err, f"settings hooks: {problem}")

    def spawn_hook(ctx: BashSpawnContext) -> BashSpawnContext:
        extra = claude.session_env
        return dataclasses.replace(ctx, env={**ctx.env, **extra}) if extra else ctx

    perms = settings.merged.permissions
    try:
        rules = PermissionRules.from_lists(
            perms.allow if perms else [], perms.deny if perms else [], perms.ask if perms else []
        )
    except PermissionRuleError as exc:
        raise SetupError(f"settings permissions: {exc}") from None
    mode = options.permission_mode or (perms.default_mode if perms else None) or "default"
    gate = PermissionGate(runner, mode=mode, rules=rules, cwd=cwd)
    session = _open_session(options, cwd)
    agent = Agent(
        provider=provider,
        runner=runner,
        session=session,
        tools=builtin_tools(cwd, spawn_hook=spawn_hook),
        cwd=cwd,
        system_prompt=options.system_prompt or DEFAULT_SYSTEM_PROMPT,
        gate=gate,
    )
    agent_ref.append(agent)
    agent.bind_claude(claude)
    claude.on_outcome(lambda o: agent.publish({"type": "settings_hook_outcome", **o.to_dict()}))
    if options.verbose:
        _verbose_transcript(agent, err)
    return AgentBundle(
        agent=agent,
        runner=runner,
        settings=settings,
        load_result=result,
        claude=claude,
        make_provider=lambda spec: _provider(spec, options.base_url, cwd),
        trusted=trusted,
    )


def plugin_hook_files() -> list[Path]:
    """Claude Code plugins' ``hooks/hooks.json`` (user scope: no project trust needed)."""
    roots = [Path.home() / ".claude" / "plugins", hookline_home() / "plugins"]
    return [f for root in roots for f in sorted(root.glob("*/hooks/hooks.json"))]


def _report_hook_error(stream: TextIO, error: HookError) -> None:
    _say(stream, f"hook {error.hook_path} failed on {error.event}: {error.error}")


def _verbose_transcript(agent: Agent, stream: TextIO) -> None:
    """``--verbose``: each tool call and what became of it, on stderr."""

    def show(payload: dict[str, object]) -> None:
        kind = payload.get("type")
        if kind == "tool_execution_start":
            args = payload.get("input") or {}
            detail = ""
            if isinstance(args, dict):
                detail = str(args.get("command") or args.get("path") or "")
            print(f"  -> {payload.get('tool_name')} {detail}", file=stream, flush=True)
        elif kind == "settings_hook_outcome" and payload.get("kind") != "success":
            print(
                f"     settings hook {payload.get('event')} ({payload.get('hook_id')}): "
                f"{payload.get('kind')}: {payload.get('reason')}",
                file=stream,
                flush=True,
            )
        elif kind == "tool_execution_end":
            text = str(payload.get("result") or "").strip().splitlines()
            first = text[0] if text else ""
            mark = "x" if payload.get("is_error") else "ok"
            print(f"     [{mark}] {first[:160]}", file=stream, flush=True)

    agent.subscribe(show)
