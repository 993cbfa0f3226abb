"""hookline.session: append-only JSON-lines session files, the entry tree, compaction.

Pure storage and tree logic; the agent emits the hook events around these
operations (``session_before_branch``, ``session_compact``, ...).
"""

from typing import TYPE_CHECKING

from hookline._lazy import lazy_exports

if TYPE_CHECKING:
    from hookline.session.compaction import (
        CompactionPreparation,
        default_summary,
        estimate_tokens,
        prepare_compaction,
        should_compact,
    )
    from hookline.session.context import BRANCH_SUMMARY_TYPE, COMPACTION_SUMMARY_TYPE
    from hookline.session.entries import (
        SESSION_VERSION,
        BranchSummaryEntry,
        CompactionEntry,
        CustomEntry,
        CustomMessageEntry,
        MessageEntry,
        ModelChangeEntry,
        SessionEntry,
        SessionHeader,
    )
    from hookline.session.errors import (
        SessionAccessError,
        SessionClosedError,
        SessionError,
        SessionFormatError,
        SessionLockedError,
        SessionWriteError,
    )
    from hookline.session.listing import SessionInfo
    from hookline.session.manager import SessionManager
    from hookline.session.readonly import ReadonlySession
    from hookline.session.storage import project_slug
    from hookline.session.transcript import serialize_conversation

__all__ = [
    "BRANCH_SUMMARY_TYPE",
    "COMPACTION_SUMMARY_TYPE",
    "SESSION_VERSION",
    "BranchSummaryEntry",
    "CompactionEntry",
    "CompactionPreparation",
    "CustomEntry",
    "CustomMessageEntry",
    "MessageEntry",
    "ModelChangeEntry",
    "ReadonlySession",
    "SessionAccessError",
    "SessionClosedError",
    "SessionEntry",
    "SessionError",
    "SessionFormatError",
    "SessionHeader",
    "SessionInfo",
    "SessionLockedError",
    "SessionManager",
    "SessionWriteError",
    "default_summary",
    "estimate_tokens",
    "prepare_compaction",
    "project_slug",
    "serialize_conversation",
    "should_compact",
]

#: Public name → the module that defines it, imported when the name is first read.
_EXPORTS = {
    "CompactionPreparation": "hookline.session.compaction",
    "default_summary": "hookline.session.compaction",
    "estimate_tokens": "hookline.session.compaction",
    "prepare_compaction": "hookline.session.compaction",
    "should_compact": "hookline.session.compaction",
    "BRANCH_SUMMARY_TYPE": "hookline.session.context",
    "COMPACTION_SUMMARY_TYPE": "hookline.session.context",
    "BranchSummaryEntry": "hookline.session.entries",
    "CompactionEntry": "hookline.session.entries",
    "CustomEntry": "hookline.session.entries",
    "CustomMessageEntry": "hookline.session.entries",
    "MessageEntry": "hookline.session.entries",
    "ModelChangeEntry": "hookline.session.entries",
    "SESSION_VERSION": "hookline.session.entries",
    "SessionEntry": "hookline.session.entries",
    "SessionHeader": "hookline.session.entries",
    "SessionAccessError": "hookline.session.errors",
    "SessionClosedError": "hookline.session.errors",
    "SessionError": "hookline.session.errors",
    "SessionFormatError": "hookline.session.errors",
    "SessionLockedError": "hookline.session.errors",
    "SessionWriteError": "hookline.session.errors",
    "SessionInfo": "hookline.session.listing",
    "SessionManager": "hookline.session.manager",
    "ReadonlySession": "hookline.session.readonly",
    "project_slug": "hookline.session.storage",
    "serialize_conversation": "hookline.session.transcript",
}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
