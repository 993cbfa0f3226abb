"""``SessionFacts``: what every hook input starts with, read from the agent at each event.

Nothing here is kept between events: the adapter builds the facts from the
handler's ``ctx`` when the event comes, so a model switch, a new session or a
permission-mode change is in the next hook's input without anyone telling
the engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hookline.core.context import HookContext

#: Thinking level → Claude Code's ``effort`` in hook input (``off``: none is sent).
EFFORTS = {"minimal": "low", "low": "low", "medium": "medium", "high": "high", "xhigh": "max"}


@dataclass(frozen=True, slots=True)
class SessionFacts:
    """The session as one event's hooks see it (optional ones omitted when unknown)."""

    session_id: str
    transcript_path: str
    cwd: str
    permission_mode: str | None = None
    #: The model spec (``provider:name``): SessionStart's ``model``.
    model: str | None = None
    #: The reasoning effort the model runs with (``low``/``medium``/``high``/``max``).
    effort: str | None = None
    #: The user prompt this event belongs to (a new one per prompt).
    prompt_id: str | None = None

    @classmethod
    def of(cls, ctx: HookContext, *, session_id: str, prompt_id: str | None) -> SessionFacts:
        """Read from ``ctx`` and its host; ``session_id`` stands in when no session is
        attached (a runner without an agent)."""
        session = ctx.session_manager
        return cls(
            session.get_session_id() if session is not None else session_id,
            ctx.session_file or "",
            ctx.cwd,
            ctx.host.get_permission_mode(),
            ctx.model,
            EFFORTS.get(ctx.get_thinking_level()),
            prompt_id,
        )
