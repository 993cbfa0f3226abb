"""Session operations of the agent and the events around them.

Each ``before`` event may cancel; the operation then does nothing and
returns False. ``SessionLifecycle`` is an object the ``Agent`` owns: it holds
the current session, which the agent answers hooks with when they ask.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from hookline.core.events import (
    AutoCompactionEndEvent,
    AutoCompactionStartEvent,
    CompactionPreparation,
    Event,
    SessionBeforeBranchEvent,
    SessionBeforeCompactEvent,
    SessionBeforeForkEvent,
    SessionBeforeSwitchEvent,
    SessionBeforeTreeEvent,
    SessionBranchEvent,
    SessionCompactEvent,
    SessionCompactingEvent,
    SessionForkEvent,
    SessionShutdownEvent,
    SessionStartEvent,
    SessionSwitchEvent,
    SessionTreeEvent,
    TreePreparation,
)
from hookline.session import SessionManager, default_summary, estimate_tokens, prepare_compaction


@dataclass(slots=True)
class CompactionPolicy:
    """When compaction runs by itself: past ``threshold`` of the model's ``context_window``."""

    context_window: int = 200_000
    auto_compact: bool = True
    threshold: float = 0.8


class SessionLifecycle:
    """The session lifecycle with its hook events: start, switch, branch, fork, tree, compact."""

    def __init__(
        self,
        session: SessionManager,
        cwd: str,
        emit: Callable[[Event], Awaitable[Any]],
        compaction: CompactionPolicy,
    ) -> None:
        self.session = session
        self.cwd = cwd
        self.emit = emit
        self.compaction = compaction
        #: The leaf before each turn of the latest run (``branch(turn_index=...)``).
        self.turn_leaves: dict[int, str | None] = {}
        self._shut_down = False
        #: Set by ``abort()`` while a compaction or tree move asks its hooks (their signal).
        self.signal: asyncio.Event | None = None

    def abort(self) -> None:
        """Abort the compaction or tree move whose hooks are running, if one is."""
        if self.signal is not None:
            self.signal.set()

    @property
    def shut_down(self) -> bool:
        return self._shut_down

    async def start(self, source: str | None = None) -> None:
        """Announce the session (``session_start``): startup, resume, clear, compact or fork.

        Without ``source`` it is ``resume`` when the session already holds entries (it
        was opened with ``--continue``, ``--resume`` or ``--session FILE``), else ``startup``.
        """
        if source is None:
            source = "resume" if self.session.get_entries() else "startup"
        await self.emit(
            SessionStartEvent(source=source, session_file=self.session.get_session_file())
        )

    async def new_session(
        self,
        parent_session: str | None = None,
        setup: Callable[[Any], Awaitable[None] | None] | None = None,
        *,
        reason: str = "new",
        renew: Callable[[], Awaitable[None]] | None = None,
    ) -> bool:
        """Start a fresh session file (``/new``, ``/clear``, a hook's ``new_session``).

        As in pi, the session left is shut down (``session_shutdown`` with ``reason``),
        then ``renew`` loads the hooks again, whose ``session_start`` follows."""
        if await self._cancelled(SessionBeforeSwitchEvent(reason=reason)):
            return False
        previous = self.session.get_session_file()
        persistent = previous is not None
        if persistent:
            # Created before the old one closes: if this fails, the run keeps its session.
            fresh = SessionManager.create(self.cwd, parent_session=parent_session or previous)
        else:
            fresh = SessionManager.in_memory(self.cwd)
        await self.emit(
            SessionShutdownEvent(reason=reason, target_session_file=fresh.get_session_file())
        )
        self.session.close()
        if setup is not None:
            value = setup(fresh)
            if value is not None:
                await value
        self.session = fresh
        self.turn_leaves.clear()
        if renew is not None:
            await renew()
        await self.emit(
            SessionSwitchEvent(
                reason=reason, previous_session_file=previous, session_file=fresh.get_session_file()
            )
        )
        await self.start("clear")
        return True

    async def switch_session(self, path: str) -> bool:
        """Resume another session file."""
        if await self._cancelled(
            SessionBeforeSwitchEvent(reason="switch", target_session_file=path)
        ):
            return False
        previous = self.session.get_session_file()
        opened = SessionManager.open(path)
        self.session.close()
        self.session = opened
        self.turn_leaves.clear()
        await self.emit(
            SessionSwitchEvent(reason="switch", previous_session_file=previous, session_file=path)
        )
        await self.start("resume")
        return True

    async def branch(self, turn_index: int | None = None, entry_id: str | None = None) -> bool:
        """Go back to the state before turn ``turn_index`` (or to ``entry_id``)."""
        if entry_id is None:
            if turn_index is None or turn_index not in self.turn_leaves:
                known = ", ".join(str(i) for i in sorted(self.turn_leaves)) or "none"
                raise ValueError(f"no turn {turn_index} in this run (known turns: {known})")
            entry_id = self.turn_leaves[turn_index]
        index = turn_index if turn_index is not None else -1
        result = await self.emit(
            SessionBeforeBranchEvent(target_turn_index=index, entry_id=entry_id)
        )
        from hookline.core.results import SessionBeforeBranchResult  # here: branching is rare

        if isinstance(result, SessionBeforeBranchResult):
            if result.cancel:
                return False
            skip = result.skip_conversation_restore
        else:
            skip = False
        if not skip:
            self.session.branch(entry_id)
        await self.emit(
            SessionBranchEvent(
                target_turn_index=index,
                entry_id=entry_id,
                previous_session_file=self.session.get_session_file(),
            )
        )
        return True

    async def fork(self, entry_id: str | None = None) -> bool:
        """Copy the path up to ``entry_id`` (default: the leaf) into a new session file."""
        return await self._fork(entry_id, entry_id or self.session.get_leaf_id())

    async def fork_before(self, user_entry_id: str) -> bool:
        """pi's fork from a user message: handlers see that message's id, the new
        session holds the path before it (nothing, when it was the first)."""
        entry = self.session.get_entry(user_entry_id)
        parent = entry.get("parent_id") if entry is not None else None
        return await self._fork(user_entry_id, parent)

    async def _fork(self, asked: str | None, keep_up_to: str | None) -> bool:
        if await self._cancelled(SessionBeforeForkEvent(entry_id=asked)):
            return False
        previous = self.session.get_session_file()
        forked = self.session.fork(keep_up_to)
        self.session.close()
        self.session = forked
        now = forked.get_session_file()
        await self.emit(SessionForkEvent(previous_session_file=previous, session_file=now))
        # The session file changed, as on /new and /resume: the same announcement.
        await self.emit(
            SessionSwitchEvent(reason="fork", previous_session_file=previous, session_file=now)
        )
        await self.start("fork")
        return True

    async def navigate_tree(
        self,
        target_id: str,
        *,
        summarize: bool = False,
        custom_instructions: str | None = None,
        replace_instructions: bool = False,
        label: str | None = None,
    ) -> bool:
        """Move the leaf to any entry; a hook may supply a summary of the branch left
        (``label`` is set on the summary entry)."""
        old = self.session.get_leaf_id()
        old_path = [e["id"] for e in self.session.get_branch(old)] if old else []
        new_path = {e["id"] for e in self.session.get_branch(target_id)}
        common = next((i for i in reversed(old_path) if i in new_path), None)
        left = old_path[old_path.index(common) + 1 :] if common in old_path else old_path
        preparation = TreePreparation(
            target_id=target_id,
            old_leaf_id=old,
            common_ancestor_id=common,
            entry_ids_to_summarize=left,
            user_wants_summary=summarize,
            custom_instructions=custom_instructions,
            replace_instructions=replace_instructions,
            label=label,
        )
        self.signal = signal = asyncio.Event()
        try:
            result = await self.emit(
                SessionBeforeTreeEvent(
                    target_id=target_id, old_leaf_id=old, preparation=preparation, signal=signal
                )
            )
        finally:
            self.signal = None
        from hookline.core.results import SessionBeforeTreeResult  # here: tree moves are rare

        summary_id = None
        if signal.is_set() or (isinstance(result, SessionBeforeTreeResult) and result.cancel):
            return False
        self.session.branch(target_id)
        if isinstance(result, SessionBeforeTreeResult) and result.summary is not None:
            summary_id = self.session.append_branch_summary(
                result.summary.summary, from_id=old, details=result.summary.details
            )
            if label:
                self.session.append_label(summary_id, label)
        await self.emit(
            SessionTreeEvent(
                new_leaf_id=self.session.get_leaf_id(), old_leaf_id=old, summary_entry_id=summary_id
            )
        )
        return True

    async def compact(
        self, custom_instructions: str | None = None, trigger: str = "manual"
    ) -> bool:
        """Summarise old messages into a compaction entry; hooks may cancel or supply it.

        As in pi, ``session_before_compact`` is asked whenever the session holds messages
        and was not just compacted, even when all of them would be kept: a hook may
        cancel, or supply a compaction. Without one, nothing is summarised then (pi
        writes a summary of nothing)."""
        branch = self.session.get_branch()
        if not branch or branch[-1]["type"] == "compaction":
            return False
        if not any(entry["type"] == "message" for entry in branch):
            return False
        prep = prepare_compaction(self.session)
        summary = default_summary(prep.messages_to_summarize)
        self.signal = signal = asyncio.Event()
        try:
            result = await self.emit(
                SessionBeforeCompactEvent(
                    trigger="auto" if trigger == "auto" else "manual",
                    custom_instructions=custom_instructions,
                    summary=summary,
                    messages=prep.messages_to_summarize,
                    tokens_before=prep.tokens_before,
                    preparation=self._preparation(prep),
                    signal=signal,
                )
            )
        finally:
            self.signal = None
        if signal.is_set():
            return False
        # here: compaction is rare, and most runs never load the result models
        from hookline.core.results import SessionBeforeCompactResult, SessionCompactingResult

        from_hook = False
        first_kept = prep.first_kept_entry_id
        details: Any = None
        if isinstance(result, SessionBeforeCompactResult):
            if result.cancel:
                return False
            if result.compaction is not None:
                summary = result.compaction.summary
                first_kept = result.compaction.first_kept_entry_id or first_kept
                details = result.compaction.details
                from_hook = True
        if not from_hook and not prep.messages_to_summarize:
            return False
        if not from_hook:
            extra = await self.emit(SessionCompactingEvent(messages=prep.messages_to_summarize))
            if isinstance(extra, SessionCompactingResult):
                if extra.context:
                    summary += "\n\nAdditional context:\n" + "\n".join(extra.context)
                if extra.prompt:
                    summary = f"{extra.prompt}\n\n{summary}"
                if extra.preserve_data:
                    details = {"preserve_data": extra.preserve_data}
        self.session.append_compaction(
            summary,
            first_kept_entry_id=first_kept,
            tokens_before=prep.tokens_before,
            details=details,
            from_hook=from_hook,
        )
        await self.emit(
            SessionCompactEvent(
                summary=summary,
                trigger="auto" if trigger == "auto" else "manual",
                first_kept_entry_id=first_kept,
                tokens_before=prep.tokens_before,
                from_hook=from_hook,
            )
        )
        await self.start("compact")
        return True

    def _preparation(self, prep: Any) -> CompactionPreparation:
        """The event's view of ``prep``: entry ids, and the previous compaction's summary."""
        branch = self.session.get_branch()
        kept = prep.first_kept_entry_id
        ids: list[str] = []
        previous: str | None = None
        for entry in branch:
            if entry["id"] == kept:
                break
            if entry["type"] == "compaction":
                previous = entry["summary"]
            ids.append(entry["id"])
        return CompactionPreparation(
            first_kept_entry_id=kept,
            previous_summary=previous,
            messages_to_summarize=prep.messages_to_summarize,
            # all is kept (a short session): nothing is summarised
            entry_ids_to_summarize=ids if prep.messages_to_summarize else [],
            tokens_before=prep.tokens_before,
        )

    async def maybe_auto_compact(self) -> None:
        """Compact when the context passes the threshold of the model's window."""
        policy = self.compaction
        if not policy.auto_compact:
            return
        tokens = estimate_tokens(self.session.build_context_messages())
        if tokens < policy.context_window * policy.threshold:
            return
        await self.emit(AutoCompactionStartEvent(reason="threshold"))
        error = None
        done = False
        try:
            done = await self.compact(trigger="auto")
        except Exception as exc:  # compaction must never lose the session
            error = f"{type(exc).__name__}: {exc}"
        result: dict[str, Any] | None = None
        for entry in reversed(self.session.get_branch() if done else []):
            if entry["type"] == "compaction":
                result = {
                    "summary": entry["summary"],
                    "first_kept_entry_id": entry["first_kept_entry_id"],
                    "tokens_before": entry["tokens_before"],
                }
                break
        await self.emit(AutoCompactionEndEvent(aborted=not done, error=error, result=result))

    async def shutdown(self, reason: str = "quit") -> bool:
        """``session_shutdown`` once, then close the session file; False when already done."""
        if self._shut_down:
            return False
        self._shut_down = True
        try:
            await self.emit(SessionShutdownEvent(reason=reason))
        finally:
            self.session.close()
        return True

    async def _cancelled(self, event: Event) -> bool:
        result = await self.emit(event)
        return bool(getattr(result, "cancel", False))
