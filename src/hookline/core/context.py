"""``ctx``: what a handler sees of the agent besides the event."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from hookline.core.host import (
    AgentHost,
    ContextUsage,
    DetachedHost,
    ModelInfo,
    ModelRegistryView,
    NamedModel,
    RunMode,
    SessionView,
)
from hookline.core.ui import HookUI, NoUI

if TYPE_CHECKING:
    import asyncio

    from hookline.core.process import ExecResult
    from hookline.core.store import HookStore


class HookContext:
    """``ctx``: what a handler sees of the agent besides the event, and what it may do.

    One object per runner; what it says of the session it asks the agent at each
    read: ``session_file``, ``session_manager``, ``model`` and ``mode`` are the
    answers at the moment they are read, so a handler that keeps ``ctx`` sees the
    session as it is, not as it was.

    Attributes: ``cwd`` (the project folder), ``ui`` (the UI, see ``HookUI``: dialogs
    in the terminal app, RPC requests, or the no-UI answers), ``has_ui`` (False where
    nobody can answer a dialog: print mode, a sub-agent, tests).

    Example:

        @pi.on("tool_call")
        async def confirm_writes(event, ctx):
            if event.tool_name == "write" and ctx.has_ui:
                if not await ctx.ui.confirm("Write?", event.input["path"]):
                    return {"block": True, "reason": "the user said no"}
    """

    def __init__(self, cwd: str, host: AgentHost | None = None) -> None:
        self.cwd = cwd
        self.ui: HookUI = NoUI()
        self.has_ui = False
        self._host: AgentHost = host if host is not None else DetachedHost()

    @property
    def host(self) -> AgentHost:
        """The agent hooks talk to (``HookRunner.bind_host``), or the one lent for an event.
        Plumbing: a hook uses the methods below instead.

        Example:

            idle = ctx.host.is_idle()  # the same as ctx.is_idle()
        """
        return self._host

    def attach(self, host: AgentHost) -> AgentHost:
        """Make ``host`` the one answering from now on; returns the one it replaces
        (called by whoever runs the hooks, not by a hook).

        Example:

            previous = runner.context.attach(agent)
        """
        previous, self._host = self._host, host
        return previous

    @contextmanager
    def lend(self, host: AgentHost) -> Iterator[None]:
        """Answer through ``host`` inside the ``with`` block only: one event of another
        agent's (``hookline serve``), after which the context's own host answers again
        (called by whoever runs the hooks, not by a hook).

        Example:

            with runner.context.lend(remote_agent):
                await runner.emit(event)
        """
        owner = self.attach(host)
        try:
            yield
        finally:
            self._host = owner

    # -- the session, as the host has it now ------------------------------------------

    @property
    def session_file(self) -> str | None:
        """The session's file; None for a session kept in memory (``--no-session``).

        Example:

            ctx.ui.notify(f"session: {ctx.session_file or 'in memory'}", "info")
        """
        return self.host.get_session_file()

    @property
    def session_manager(self) -> SessionView:
        """A read-only view of the session (``ReadonlySession``): hooks read, the agent writes.
        With no agent it is an empty session, never ``None``.

        Example:

            entries = ctx.session_manager.get_entries()
            mine = [e for e in entries if e.get("custom_type") == "deploy-state"]
        """
        return self.host.get_session_manager()

    @property
    def model(self) -> str | None:
        """The model spec (``provider:name``); ``model_info`` is the object.

        Example:

            if ctx.model and ctx.model.startswith("anthropic:"):
                ...
        """
        info = self.host.get_model_info()
        return info.spec if info is not None else None

    @property
    def store(self) -> HookStore:
        """State that outlives the event and the process: ``ctx.store.session`` (this
        session's keys) and ``ctx.store.project`` (every session's in this project), with
        ``get``/``set``/``incr``/``delete`` and their awaitable ``a…`` forms
        (``hookline.core.store``). The backend is ``HOOKLINE_STORE``'s; the ids are the
        session view's id and folder, as the host has them now (never ``ctx.cwd``, which
        behind the bridges is whichever input came last).

        Example:

            @pi.on("tool_call")
            async def budget(event, ctx):
                if event.tool_name == "bash":
                    used = await ctx.store.session.aincr("bash", ttl=3600)
                    if used > 50:
                        return {"block": True, "reason": "50 bash calls an hour"}
        """
        from hookline.core.store import HookStore, process_backend  # loaded on use

        session = self.session_manager
        return HookStore(process_backend(), session.get_session_id(), session.get_cwd())

    @property
    def mode(self) -> RunMode:
        """How the agent runs: ``interactive``, ``rpc``, ``json``, ``print`` or ``serve``.

        Example:

            if ctx.mode == "print":
                return {"block": True, "reason": "blocked: no UI to ask"}
        """
        return self.host.get_mode()

    # -- control flow --------------------------------------------------------

    def is_idle(self) -> bool:
        """True when no run is streaming.

        Example:

            if ctx.is_idle():
                pi.send("Continue.")
        """
        return self.host.is_idle()

    def abort(self) -> None:
        """Stop the current run (the model call and running tools are cancelled), as
        Escape does in the terminal app.

        Example:

            if event.tool_name == "bash" and "shutdown" in event.input["command"]:
                ctx.abort()
        """
        self.host.abort()

    def has_pending_messages(self) -> bool:
        """True when sent messages wait for the run to reach their landing point.

        Example:

            if not ctx.has_pending_messages():
                pi.send_user_message("Run the tests.", deliver_as="follow_up")
        """
        return self.host.has_pending_messages()

    def shutdown(self) -> None:
        """Ask for a graceful exit: after the current run, with ``session_shutdown``.

        Example:

            @pi.register_command("bye", description="Quit after this run")
            def bye(args, ctx):
                ctx.shutdown()
        """
        self.host.request_shutdown()

    def compact(
        self,
        custom_instructions: str | None = None,
        *,
        on_complete: Callable[[], object] | None = None,
        on_error: Callable[[Exception], object] | None = None,
    ) -> None:
        """Start a compaction now (or after the current run), without waiting for it.

        As pi's ``onComplete``/``onError``: ``on_complete()`` runs once a compaction is
        written, ``on_error(exc)`` when it failed, was cancelled or found nothing to compact.

        Example:

            usage = ctx.get_context_usage()
            if usage is not None and (usage.percent or 0) > 80:
                ctx.compact("Keep the list of files changed.",
                            on_error=lambda exc: ctx.ui.notify(str(exc), "error"))
        """
        task = self.host.start_compaction(custom_instructions)
        if on_complete is not None or on_error is not None:
            task.add_done_callback(lambda done: _report_compaction(done, on_complete, on_error))

    def get_context_usage(self) -> ContextUsage | None:
        """Tokens in the context, the window and the percentage used (None before a call).

        Example:

            usage = ctx.get_context_usage()
            if usage is not None and usage.percent is not None:
                ctx.ui.set_status("context", f"{usage.percent:.0f}%")
        """
        return self.host.get_context_usage()

    @property
    def signal(self) -> asyncio.Event | None:
        """Set when the current run is aborted; None while idle. Pass it to long work so
        Escape stops it too.

        Example:

            result = await ctx.exec("make", ["test"], signal=ctx.signal)
        """
        return self.host.get_signal()

    @property
    def model_info(self) -> ModelInfo | None:
        """The current model: provider, id and context window (None before one is chosen).

        Example:

            window = ctx.model_info.context_window if ctx.model_info else 0
        """
        return self.host.get_model_info()

    @property
    def model_registry(self) -> ModelRegistryView:
        """The models a hook may call with ``complete()``, and their credentials as the
        providers find them (pi's ``ctx.modelRegistry``).

        Example:

            usable = [m.spec for m in ctx.model_registry.get_available()]
        """
        return self.host.get_model_registry()

    async def set_model(self, spec: str | NamedModel) -> bool:
        """Switch the model (``provider:name``, ``model_info`` or a ``model_registry`` entry);
        False when it cannot be built (the reason is shown).

        Example:

            await ctx.set_model("openai:gpt-5-mini")
        """
        return await self.host.select_model(spec if isinstance(spec, str) else spec.spec)

    def get_thinking_level(self) -> str:
        """``off`` | ``minimal`` | ``low`` | ``medium`` | ``high`` | ``xhigh``.

        Example:

            ctx.ui.set_status("thinking", ctx.get_thinking_level())
        """
        return self.host.get_thinking_level()

    def set_thinking_level(self, level: str) -> None:
        """One of ``get_thinking_level``'s values, mapped to the provider's reasoning setting
        on the next model call.

        Example:

            ctx.set_thinking_level("high")
        """
        self.host.set_thinking_level(level)

    async def exec(
        self,
        command: str,
        args: Sequence[str] = (),
        *,
        timeout: float | None = None,
        signal: asyncio.Event | None = None,
        cwd: str | None = None,
    ) -> ExecResult:
        """Run ``command args...`` (no shell) in ``cwd`` (the project by default); ``timeout``
        in seconds, or ``signal`` set, kills its process group. The result has ``stdout``,
        ``stderr``, ``code``, ``killed`` and ``timed_out``.

        Example:

            result = await ctx.exec("git", ["diff", "--stat"], timeout=10)
            ctx.ui.notify(result.stdout or "no changes", "info")
        """
        from hookline.core.process import run_process  # asyncio's subprocess: loaded on use

        return await run_process(
            [command, *args], cwd=cwd or self.cwd, timeout=timeout, signal=signal
        )

    def get_system_prompt(self) -> str:
        """The system prompt of the current run (after ``before_agent_start`` handlers).

        Example:

            if "TDD" not in ctx.get_system_prompt():
                ctx.set_system_prompt(ctx.get_system_prompt() + " Write the test first.")
        """
        return self.host.get_system_prompt()

    def set_system_prompt(self, prompt: str) -> None:
        """Replace the system prompt for this run (reset every run, never cumulative).

        Example:

            ctx.set_system_prompt(ctx.get_system_prompt() + " Answer in French.")
        """
        self.host.set_system_prompt(prompt)


class HeadlessContext(HookContext):
    """``ctx`` of a ``task`` sub-agent's tool calls: the agent's context without its UI.

    Nobody watches a sub-agent's calls, so ``has_ui`` is false there (as in pi's
    sub-agents) and a dialog answers its default at once: a hook that needs a
    human blocks, as in print mode. The rest reads through to the live context.
    """

    def __init__(self, base: HookContext) -> None:
        self._base = base
        self.ui = NoUI()
        self.has_ui = False

    def __getattr__(self, name: str) -> Any:  # what is not its own: the live context's
        return getattr(object.__getattribute__(self, "_base"), name)


class CommandContext(HookContext):
    """The ``ctx`` of a slash command or shortcut handler: it may also wait and start,
    fork, switch or move through sessions.

    It reads through to the runner's live context, so after ``new_session``
    ``session_file`` and ``session_manager`` are the new session's.

    Example:

        @pi.register_command("fresh", description="Start over, keeping a note")
        async def fresh(args, ctx):
            await ctx.wait_for_idle()
            await ctx.new_session(parent_session=ctx.session_file)
    """

    def __init__(self, base: HookContext) -> None:
        object.__setattr__(self, "_base", base)

    def __getattr__(self, name: str) -> Any:
        return getattr(object.__getattribute__(self, "_base"), name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(object.__getattribute__(self, "_base"), name, value)

    async def wait_for_idle(self) -> None:
        """Return once the agent is not streaming (at once when idle).

        Example:

            await ctx.wait_for_idle()
            ctx.ui.notify("the run is over", "info")
        """
        await self.host.wait_for_idle()

    async def new_session(
        self,
        *,
        parent_session: str | None = None,
        setup: Callable[[Any], Awaitable[None] | None] | None = None,
    ) -> bool:
        """Start a fresh session; ``setup(session_manager)`` may seed it. False if a
        ``session_before_switch`` handler cancelled it.

        Example:

            await ctx.new_session(setup=lambda sm: sm.append_custom_entry("seed", {"from": "x"}))
        """
        return await self.host.new_session(parent_session, setup)

    async def fork(self, entry_id: str | None = None) -> bool:
        """Copy the path up to ``entry_id`` (the leaf by default) into a new session file
        and continue there. False if a ``session_before_fork`` handler cancelled it.

        Example:

            await ctx.fork(ctx.session_manager.get_leaf_id())
        """
        return await self.host.fork(entry_id)

    async def navigate_tree(
        self,
        target_id: str,
        *,
        summarize: bool = False,
        custom_instructions: str | None = None,
        replace_instructions: bool = False,
        label: str | None = None,
    ) -> bool:
        """Move the session's leaf to ``target_id``; the options reach ``session_before_tree``
        hooks (``label`` goes on the summary a hook writes). False if cancelled.

        Example:

            await ctx.navigate_tree(entry_id, summarize=True, label="first attempt")
        """
        return await self.host.navigate_tree(
            target_id,
            summarize=summarize,
            custom_instructions=custom_instructions,
            replace_instructions=replace_instructions,
            label=label,
        )

    async def switch_session(self, path: str) -> bool:
        """Resume another session file. False if a ``session_before_switch`` handler
        cancelled it.

        Example:

            await ctx.switch_session("/home/me/.hookline/sessions/x/2026-01-01_abc.jsonl")
        """
        return await self.host.switch_session(path)

    async def reload(self) -> None:
        """Re-discover and reload hooks: ``session_shutdown``, load, ``session_start``
        with ``source="reload"``, as ``/reload`` does.

        Example:

            @pi.register_command("rehook", description="Reload the hooks")
            async def rehook(args, ctx):
                await ctx.reload()
        """
        await self.host.reload()


class CompactionError(Exception):
    """Why ``ctx.compact()`` wrote no compaction (given to its ``on_error``)."""


def _report_compaction(
    done: asyncio.Future[bool],
    on_complete: Callable[[], object] | None,
    on_error: Callable[[Exception], object] | None,
) -> None:
    error: Exception | None = None
    if done.cancelled():
        error = CompactionError("compaction cancelled")
    elif (exc := done.exception()) is not None:
        error = exc if isinstance(exc, Exception) else CompactionError(str(exc))
    elif not done.result():
        error = CompactionError("nothing was compacted (cancelled, or nothing to compact)")
    if error is None:
        if on_complete is not None:
            on_complete()
    elif on_error is not None:
        on_error(error)
