"""Session events: start, switch, branch, fork, compaction, tree, shutdown."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from hookline.core.events._base import Event
from hookline.core.messages import Message


@dataclass(slots=True, kw_only=True)
class SessionStartEvent(Event):
    """A session was opened: at start-up, on resume, after ``/new`` (clear), a compaction
    or a ``/reload`` of the hooks.

    ``reason`` is the source in pi's words (``new`` for ``clear``).
    """

    type: ClassVar[str] = "session_start"
    #: ``startup``, ``resume``, ``clear``, ``compact`` or ``reload``.
    source: str = "startup"
    #: The session's file (``None`` when not saved).
    session_file: str | None = None

    @property
    def reason(self) -> str:
        """The source in pi's words: a new session (``clear``) is ``new``."""
        return _PI_START_REASONS.get(self.source, self.source)


#: ``session_start`` sources pi names otherwise.
_PI_START_REASONS = {"clear": "new"}


@dataclass(slots=True, kw_only=True)
class ResourcesDiscoverEvent(Event):
    """After ``session_start`` at start-up and on ``/reload``: a hook may add prompt
    templates, skills and themes of its own, loaded as if found on disk.
    """

    type: ClassVar[str] = "resources_discover"
    #: The directory resources are looked for from.
    cwd: str = ""
    #: ``startup`` or ``reload``.
    reason: str = "startup"


@dataclass(slots=True, kw_only=True)
class SessionBeforeSwitchEvent(Event):
    """The session is about to be replaced (``/new``, ``/resume``, RPC ``switch_session``)."""

    type: ClassVar[str] = "session_before_switch"
    #: ``new``, ``switch``, ``fork`` or ``clear``.
    reason: str
    #: The session switched to, when known.
    target_session_file: str | None = None


@dataclass(slots=True, kw_only=True)
class SessionSwitchEvent(Event):
    """The session was replaced: a new one, another one resumed, or a fork (after
    ``session_fork``).
    """

    type: ClassVar[str] = "session_switch"
    #: ``new``, ``switch``, ``fork`` or ``clear``.
    reason: str
    #: The session left.
    previous_session_file: str | None = None
    #: The session now current.
    session_file: str | None = None


@dataclass(slots=True, kw_only=True)
class SessionBeforeBranchEvent(Event):
    """The conversation is about to be branched at an earlier turn (``/branch``)."""

    type: ClassVar[str] = "session_before_branch"
    #: The turn the branch goes back to.
    target_turn_index: int
    #: The session entry it starts from.
    entry_id: str | None = None


@dataclass(slots=True, kw_only=True)
class SessionBranchEvent(Event):
    """The conversation was branched."""

    type: ClassVar[str] = "session_branch"
    #: The turn the branch went back to.
    target_turn_index: int
    #: The session entry it started from.
    entry_id: str | None = None
    #: The session branched from.
    previous_session_file: str | None = None


@dataclass(slots=True, kw_only=True)
class SessionBeforeForkEvent(Event):
    """The session is about to be forked into a new file (``/fork``)."""

    type: ClassVar[str] = "session_before_fork"
    #: Where the fork starts.
    entry_id: str | None = None


@dataclass(slots=True, kw_only=True)
class SessionForkEvent(Event):
    """The session was forked."""

    type: ClassVar[str] = "session_fork"
    #: The session forked from.
    previous_session_file: str | None = None
    #: The new session.
    session_file: str | None = None


@dataclass(slots=True, kw_only=True)
class CompactionPreparation:
    """What a compaction would do: summarise ``messages_to_summarize`` (after
    ``previous_summary``, the last compaction's), keep from ``first_kept_entry_id`` on."""

    #: The first entry kept after the compaction.
    first_kept_entry_id: str | None = None
    #: The last compaction's summary, when there was one.
    previous_summary: str | None = None
    #: The messages the summary replaces.
    messages_to_summarize: list[Message] = field(default_factory=list)
    #: Their session entries' ids.
    entry_ids_to_summarize: list[str] = field(default_factory=list)
    #: The context's size before, in tokens.
    tokens_before: int = 0


@dataclass(slots=True, kw_only=True)
class SessionBeforeCompactEvent(Event):
    """A compaction (``/compact`` or automatic) is about to summarise older messages.

    A plain string returned is a custom summary.
    """

    type: ClassVar[str] = "session_before_compact"
    #: ``manual`` (``/compact``) or ``auto``.
    trigger: Literal["manual", "auto"] = "manual"
    #: What the user asked the summary to focus on.
    custom_instructions: str | None = None
    #: The summary hookline would write.
    summary: str = ""
    #: The messages to be summarised.
    messages: list[Message] = field(default_factory=list)
    #: The context's size before, in tokens.
    tokens_before: int = 0
    #: ``first_kept_entry_id``, ``previous_summary``, ``messages_to_summarize``,
    #: ``entry_ids_to_summarize``, ``tokens_before``.
    preparation: CompactionPreparation = field(default_factory=CompactionPreparation)
    #: Set when the compaction is aborted with ``ctx.abort()``: slow work should stop; the
    #: compaction is then not applied.
    signal: Any = None


@dataclass(slots=True, kw_only=True)
class SessionCompactingEvent(Event):
    """A compaction is building its summary request."""

    type: ClassVar[str] = "session.compacting"
    #: The messages being summarised.
    messages: list[Message] = field(default_factory=list)


@dataclass(slots=True, kw_only=True)
class SessionCompactEvent(Event):
    """A compaction was written to the session."""

    type: ClassVar[str] = "session_compact"
    #: The summary written.
    summary: str
    #: ``manual`` or ``auto``.
    trigger: Literal["manual", "auto"] = "manual"
    #: Where the kept messages start.
    first_kept_entry_id: str | None = None
    #: The context's size before, in tokens.
    tokens_before: int = 0
    #: A hook supplied the summary.
    from_hook: bool = False


@dataclass(slots=True, kw_only=True)
class TreePreparation:
    """A tree move: the branch left (``entry_ids_to_summarize``, after the common ancestor)
    and the summary options the user chose."""

    #: The entry the leaf moves to.
    target_id: str
    #: The leaf before the move.
    old_leaf_id: str | None = None
    #: The last entry the old and the new branch share.
    common_ancestor_id: str | None = None
    #: The entries of the branch left, after the common ancestor.
    entry_ids_to_summarize: list[str] = field(default_factory=list)
    #: The user asked for a summary of the branch left.
    user_wants_summary: bool = False
    #: What the user asked the summary to focus on.
    custom_instructions: str | None = None
    #: ``custom_instructions`` replace the summary prompt instead of adding to it.
    replace_instructions: bool = False
    #: The label set on the summary entry.
    label: str | None = None


@dataclass(slots=True, kw_only=True)
class SessionBeforeTreeEvent(Event):
    """The session's leaf is about to move to another entry (``/tree``)."""

    type: ClassVar[str] = "session_before_tree"
    #: The entry the leaf moves to.
    target_id: str
    #: The leaf before the move.
    old_leaf_id: str | None = None
    #: ``common_ancestor_id``, ``entry_ids_to_summarize``, the summary options and ``label``.
    preparation: TreePreparation | None = None
    #: Set when the move is aborted.
    signal: Any = None


@dataclass(slots=True, kw_only=True)
class SessionTreeEvent(Event):
    """The session's leaf moved."""

    type: ClassVar[str] = "session_tree"
    #: The leaf after the move.
    new_leaf_id: str | None
    #: The leaf before it.
    old_leaf_id: str | None = None
    #: The entry holding the summary of the branch left, when one was written.
    summary_entry_id: str | None = None


@dataclass(slots=True, kw_only=True)
class SessionShutdownEvent(Event):
    """The agent is shutting down (quit, a signal): always fires on the way out; also
    before ``/new`` and ``/reload``, whose ``session_start`` runs on the hooks loaded again.

    hookline said ``exit`` where pi says ``quit``: compare with
    ``reason in ("quit", "exit")`` to run under both.
    """

    type: ClassVar[str] = "session_shutdown"
    #: pi's ``quit``, ``new``, ``reload``; ``sigterm``, ``sigint``, ``clear``, ``logout``,
    #: ``other``.
    reason: str = "quit"
    #: The session ``new`` goes to.
    target_session_file: str | None = None
