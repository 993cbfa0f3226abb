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
    """One object per runner; what it says of the session it asks the host at each read.

    ``session_file``, ``session_manager``, ``model`` and ``mode`` are the host's
    answers at the moment they are read, so a handler that keeps ``ctx`` sees the
    session as it is, not as it was.
    """

    def __init__(self, cwd: str, host: AgentHost | None = None) -> None:
        self.cwd = cwd
        self.ui: HookUI = NoUI()
        self.has_ui = False
        self._host: AgentHost = host if host is not None else DetachedHost()

    @property
    def host(self) -> AgentHost:
        """The agent hooks talk to (``HookRunner.bind_host``), or the one lent for an event."""
        return self._host

    def attach(self, host: AgentHost) -> AgentHost:
        """Make ``host`` the one answering from now on; returns the one it replaces."""
        previous, self._host = self._host, host
        return previous

    @contextmanager
    def lend(self, host: AgentHost) -> Iterator[None]:
        """Answer through ``host`` inside the ``with`` block only: one event of another
        agent's (``hookline serve``), after which the context's own host answers again."""
        owner = self.attach(host)
        try:
            yield
        finally:
            self._host = owner

    # -- the session, as the host has it now ------------------------------------------

    @property
    def session_file(self) -> str | None:
        """The session's file; None for a session kept in memory."""
        return self.host.get_session_file()

    @property
    def session_manager(self) -> SessionView:
        """A read-only view of the session (``ReadonlySession``): hooks read, the agent writes.
        With no agent it is an empty session, never ``None``."""
        return self.host.get_session_manager()

    @property
    def model(self) -> str | None:
        """The model spec (``provider:name``); ``model_info`` is the object."""
        info = self.host.get_model_info()
        return info.spec if info is not None else None

    @property
    def store(self) -> HookStore:
        """State that outlives the event and the process: ``ctx.store.session`` (this
        session's keys) and ``ctx.store.project`` (every session's in this project), with
        ``get``/``set``/``incr``/``delete`` and their awaitable ``a…`` forms
        (``hookline.core.store``). The backend is ``HOOKLINE_STORE``'s; the ids are the
        session view's id and folder, as the host has them now (never ``ctx.cwd``, which
        behind the bridges is whichever input came last)."""
        from hookline.core.store import HookStore, process_backend  # loaded on use

        session = self.session_manager
        return HookStore(process_backend(), session.get_session_id(), session.get_cwd())

    @property
    def mode(self) -> RunMode:
        """How the agent runs: ``interactive``, ``rpc``, ``json``, ``print`` or ``serve``."""
        return self.host.get_mode()

    # -- control flow --------------------------------------------------------

    def is_idle(self) -> bool:
        """True when no run is streaming."""
        return self.host.is_idle()

    def abort(self) -> None:
        """Stop the current run (the model call and running tools are cancelled)."""
        self.host.abort()

    def has_pending_messages(self) -> bool:
        """True when sent messages wait for the run to reach their landing point."""
        return self.host.has_pending_messages()

    def shutdown(self) -> None:
        """Ask for a graceful exit: after the current run, with ``session_shutdown``."""
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
        """
        task = self.host.start_compaction(custom_instructions)
        if on_complete is not None or on_error is not None:
            task.add_done_callback(lambda done: _report_compaction(done, on_complete, on_error))

    def get_context_usage(self) -> ContextUsage | None:
        """Tokens in the context, the window and the percentage used (None before a call)."""
        return self.host.get_context_usage()

    @property
    def signal(self) -> asyncio.Event | None:
        """Set when the current run is aborted; None while idle."""
        return self.host.get_signal()

    @property
    def model_info(self) -> ModelInfo | None:
        """The current model: provider, id and context window."""
        return self.host.get_model_info()

    @property
    def model_registry(self) -> ModelRegistryView:
        """The models a hook may call with ``complete()``, and their credentials as the
        providers find them (pi's ``ctx.modelRegistry``)."""
        return self.host.get_model_registry()

    async def set_model(self, spec: str | NamedModel) -> bool:
        """Switch the model (``provider:name``, ``model_info`` or a ``model_registry`` entry);
        False when it cannot be built (the reason is shown)."""
        return await self.host.select_model(spec if isinstance(spec, str) else spec.spec)

    def get_thinking_level(self) -> str:
        """``off`` | ``minimal`` | ``low`` | ``medium`` | ``high`` | ``xhigh``."""
        return self.host.get_thinking_level()

    def set_thinking_level(self, level: str) -> None:
        """Mapped to the provider's reasoning setting on the next model call."""
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
        """Run ``command args...`` in ``cwd``; ``timeout`` in seconds kills its process group."""
        from hookline.core.process import run_process  # asyncio's subprocess: loaded on use

        return await run_process(
            [command, *args], cwd=cwd or self.cwd, timeout=timeout, signal=signal
        )

    def get_system_prompt(self) -> str:
        return self.host.get_system_prompt()

    def set_system_prompt(self, prompt: str) -> None:
        """Replace the system prompt for this run (reset every run, never cumulative)."""
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
    """The context of a slash command handler: it may also wait and start sessions.

    It reads through to the runner's live context, so after ``new_session``
    ``session_file`` and ``session_manager`` are the new session's.
    """

    def __init__(self, base: HookContext) -> None:
        object.__setattr__(self, "_base", base)

    def __getattr__(self, name: str) -> Any:
        return getattr(object.__getattribute__(self, "_base"), name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(object.__getattribute__(self, "_base"), name, value)

    async def wait_for_idle(self) -> None:
        """Return once the agent is not streaming."""
        await self.host.wait_for_idle()

    async def new_session(
        self,
        *,
        parent_session: str | None = None,
        setup: Callable[[Any], Awaitable[None] | None] | None = None,
    ) -> bool:
        """Start a fresh session; ``setup(session_manager)`` may seed it. False if cancelled."""
        return await self.host.new_session(parent_session, setup)

    async def fork(self, entry_id: str | None = None) -> bool:
        """Copy the path up to ``entry_id`` into a new session file. False if cancelled."""
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
        hooks (``label`` goes on the summary a hook writes). False if cancelled."""
        return await self.host.navigate_tree(
            target_id,
            summarize=summarize,
            custom_instructions=custom_instructions,
            replace_instructions=replace_instructions,
            label=label,
        )

    async def switch_session(self, path: str) -> bool:
        """Resume another session file. False if cancelled."""
        return await self.host.switch_session(path)

    async def reload(self) -> None:
        """Re-discover and reload hooks: ``session_shutdown``, load, ``session_start``
        with ``source="reload"``."""
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
