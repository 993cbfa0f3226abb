"""hookline.session: append-only JSON-lines session files, the entry tree, compaction.

Pure storage and tree logic; the agent emits the hook events around these
operations (``session_before_branch``, ``session_compact``, ...).
"""

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
from hookline.session.storage import project_slug

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
    "should_compact",
]
