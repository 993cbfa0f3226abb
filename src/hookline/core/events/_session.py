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

    Payload: ``source`` (``startup``, ``resume``, ``clear``, ``compact``, ``reload``),
    ``session_file``; ``reason`` is the source in pi's words (``new`` for ``clear``).

    Result: none (a notification). Claude's name: ``SessionStart``.

    Combination: every handler runs; failures are reported, the chain goes on.
    """

    type: ClassVar[str] = "session_start"
    source: str = "startup"  # "startup" | "resume" | "clear" | "compact" | "reload"
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

    Payload: ``cwd``, ``reason`` (``startup``, ``reload``).

    Result: ``ResourcesDiscoverResult`` (``skill_paths``, ``prompt_paths``,
    ``theme_paths``: files or folders).

    Combination: every handler runs; their paths are all loaded, in load order.
    """

    type: ClassVar[str] = "resources_discover"
    cwd: str = ""
    reason: str = "startup"  # "startup" | "reload"


@dataclass(slots=True, kw_only=True)
class SessionBeforeSwitchEvent(Event):
    """The session is about to be replaced (``/new``, ``/resume``, RPC ``switch_session``).

    Payload: ``reason`` (``new``, ``switch``, ``fork``, ``clear``), ``target_session_file``.

    Result: ``SessionBeforeSwitchResult`` (``cancel``).

    Combination: the latest result is kept; ``cancel: true`` stops the chain and the switch.
    """

    type: ClassVar[str] = "session_before_switch"
    reason: str  # "new" | "switch" | "fork" | "clear"
    target_session_file: str | None = None


@dataclass(slots=True, kw_only=True)
class SessionSwitchEvent(Event):
    """The session was replaced: a new one, another one resumed, or a fork (after
    ``session_fork``).

    Payload: ``reason`` (``new``, ``switch``, ``fork``, ``clear``),
    ``previous_session_file``, ``session_file``.

    Result: none (a notification).

    Combination: every handler runs; failures are reported, the chain goes on.
    """

    type: ClassVar[str] = "session_switch"
    reason: str
    previous_session_file: str | None = None
    session_file: str | None = None


@dataclass(slots=True, kw_only=True)
class SessionBeforeBranchEvent(Event):
    """The conversation is about to be branched at an earlier turn (``/branch``).

    Payload: ``target_turn_index``, ``entry_id``.

    Result: ``SessionBeforeBranchResult`` (``cancel``, ``skip_conversation_restore``).

    Combination: the latest result is kept; ``cancel: true`` stops the chain and the branch.
    """

    type: ClassVar[str] = "session_before_branch"
    target_turn_index: int
    entry_id: str | None = None


@dataclass(slots=True, kw_only=True)
class SessionBranchEvent(Event):
    """The conversation was branched.

    Payload: ``target_turn_index``, ``entry_id``, ``previous_session_file``.

    Result: none (a notification).

    Combination: every handler runs; failures are reported, the chain goes on.
    """

    type: ClassVar[str] = "session_branch"
    target_turn_index: int
    entry_id: str | None = None
    previous_session_file: str | None = None


@dataclass(slots=True, kw_only=True)
class SessionBeforeForkEvent(Event):
    """The session is about to be forked into a new file (``/fork``).

    Payload: ``entry_id`` (where the fork starts).

    Result: ``SessionBeforeForkResult`` (``cancel``).

    Combination: the latest result is kept; ``cancel: true`` stops the chain and the fork.
    """

    type: ClassVar[str] = "session_before_fork"
    entry_id: str | None = None


@dataclass(slots=True, kw_only=True)
class SessionForkEvent(Event):
    """The session was forked.

    Payload: ``previous_session_file``, ``session_file``.

    Result: none (a notification).

    Combination: every handler runs; failures are reported, the chain goes on.
    """

    type: ClassVar[str] = "session_fork"
    previous_session_file: str | None = None
    session_file: str | None = None


@dataclass(slots=True, kw_only=True)
class CompactionPreparation:
    """What a compaction would do: summarise ``messages_to_summarize`` (after
    ``previous_summary``, the last compaction's), keep from ``first_kept_entry_id`` on."""

    first_kept_entry_id: str | None = None
    previous_summary: str | None = None
    messages_to_summarize: list[Message] = field(default_factory=list)
    entry_ids_to_summarize: list[str] = field(default_factory=list)
    tokens_before: int = 0


@dataclass(slots=True, kw_only=True)
class SessionBeforeCompactEvent(Event):
    """A compaction (``/compact`` or automatic) is about to summarise older messages.

    Payload: ``trigger`` (``manual`` or ``auto``), ``custom_instructions``,
    ``summary`` (the summary hookline would write), ``messages`` (those to be
    summarised), ``tokens_before``, ``preparation`` (``first_kept_entry_id``,
    ``previous_summary``, ``messages_to_summarize``, ``entry_ids_to_summarize``),
    ``signal`` (set when the compaction is aborted with ``ctx.abort()``: slow work
    should stop; the compaction is then not applied).

    Result: ``SessionBeforeCompactResult`` (``cancel``, or ``compaction``
    with your own summary). A plain string is a custom summary. Claude's name: ``PreCompact``.

    Combination: the latest result is kept; ``cancel: true`` stops the chain and the compaction.
    """

    type: ClassVar[str] = "session_before_compact"
    trigger: Literal["manual", "auto"] = "manual"
    custom_instructions: str | None = None
    summary: str = ""  # the default summary hookline would write
    messages: list[Message] = field(default_factory=list)
    tokens_before: int = 0
    preparation: CompactionPreparation = field(default_factory=CompactionPreparation)
    signal: Any = None


@dataclass(slots=True, kw_only=True)
class SessionCompactingEvent(Event):
    """A compaction is building its summary request.

    Payload: ``messages`` (those being summarised).

    Result: ``SessionCompactingResult`` (``context`` lines to keep,
    ``prompt`` for the summary, ``preserve_data``).

    Combination: every handler runs; the latest result wins.
    """

    type: ClassVar[str] = "session.compacting"
    messages: list[Message] = field(default_factory=list)


@dataclass(slots=True, kw_only=True)
class SessionCompactEvent(Event):
    """A compaction was written to the session.

    Payload: ``summary``, ``trigger`` (``manual`` or ``auto``), ``first_kept_entry_id``,
    ``tokens_before``, ``from_hook`` (a hook supplied the summary).

    Result: none (a notification).

    Combination: every handler runs; failures are reported, the chain goes on.
    """

    type: ClassVar[str] = "session_compact"
    summary: str
    trigger: Literal["manual", "auto"] = "manual"
    first_kept_entry_id: str | None = None
    tokens_before: int = 0
    from_hook: bool = False


@dataclass(slots=True, kw_only=True)
class TreePreparation:
    """A tree move: the branch left (``entry_ids_to_summarize``, after the common ancestor)
    and the summary options the user chose."""

    target_id: str
    old_leaf_id: str | None = None
    common_ancestor_id: str | None = None
    entry_ids_to_summarize: list[str] = field(default_factory=list)
    user_wants_summary: bool = False
    custom_instructions: str | None = None
    replace_instructions: bool = False
    label: str | None = None


@dataclass(slots=True, kw_only=True)
class SessionBeforeTreeEvent(Event):
    """The session's leaf is about to move to another entry (``/tree``).

    Payload: ``target_id``, ``old_leaf_id``, ``preparation`` (``common_ancestor_id``,
    ``entry_ids_to_summarize``, the summary options and ``label``), ``signal`` (set when
    the move is aborted).

    Result: ``SessionBeforeTreeResult`` (``cancel``, or ``summary`` of the
    branch being left).

    Combination: the latest result is kept; ``cancel: true`` stops the chain and the move.
    """

    type: ClassVar[str] = "session_before_tree"
    target_id: str
    old_leaf_id: str | None = None
    preparation: TreePreparation | None = None
    signal: Any = None


@dataclass(slots=True, kw_only=True)
class SessionTreeEvent(Event):
    """The session's leaf moved.

    Payload: ``new_leaf_id``, ``old_leaf_id``, ``summary_entry_id``.

    Result: none (a notification).

    Combination: every handler runs; failures are reported, the chain goes on.
    """

    type: ClassVar[str] = "session_tree"
    new_leaf_id: str | None
    old_leaf_id: str | None = None
    summary_entry_id: str | None = None


@dataclass(slots=True, kw_only=True)
class SessionShutdownEvent(Event):
    """The agent is shutting down (quit, a signal): always fires on the way out; also
    before ``/new`` and ``/reload``, whose ``session_start`` runs on the hooks loaded again.

    Payload: ``reason`` (pi's ``quit``, ``new``, ``reload``; ``sigterm``, ``sigint``,
    ``clear``, ``logout``, ``other``), ``target_session_file`` (the session ``new``
    goes to). hookline said ``exit`` where pi says ``quit``: compare with
    ``reason in ("quit", "exit")`` to run under both.

    Result: none (a notification). Claude's name: ``SessionEnd``.

    Combination: every handler runs; failures are reported, the chain goes on.
    """

    type: ClassVar[str] = "session_shutdown"
    reason: str = "quit"  # "quit" | "new" | "reload" | "sigterm" | "clear" | "logout" | "other"
    target_session_file: str | None = None
