"""``ctx.session_manager``: the session as hooks may see it — read methods only.

Hooks change the session through the agent (``append_entry``, ``send_message``,
``set_label``, ...), so every write is ordered with the run and announced; a
hook holding the real manager could append behind the agent's back.
"""

from __future__ import annotations

from typing import Any

from hookline.core.messages import Message
from hookline.session.entries import SessionEntry, SessionHeader
from hookline.session.manager import SessionManager


class ReadonlySession:
    """Read-only view of a ``SessionManager``; unknown attributes are not passed through."""

    __slots__ = ("_session",)

    def __init__(self, session: SessionManager) -> None:
        self._session = session

    def get_session_file(self) -> str | None:
        return self._session.get_session_file()

    def get_session_id(self) -> str:
        return self._session.get_session_id()

    def get_cwd(self) -> str:
        return self._session.get_cwd()

    def get_header(self) -> SessionHeader:
        return self._session.get_header()

    def get_entries(self) -> list[SessionEntry]:
        return self._session.get_entries()

    def get_entry(self, entry_id: str) -> SessionEntry | None:
        return self._session.get_entry(entry_id)

    def get_leaf_id(self) -> str | None:
        return self._session.get_leaf_id()

    def get_branch(self, leaf: str | None = None) -> list[SessionEntry]:
        return self._session.get_branch(leaf)

    def get_tree(self) -> dict[str | None, list[str]]:
        return self._session.get_tree()

    def get_session_name(self) -> str | None:
        return self._session.get_session_name()

    def get_labels(self) -> dict[str, str]:
        return self._session.get_labels()

    def build_context_messages(self) -> list[Message]:
        return self._session.build_context_messages()

    def __repr__(self) -> str:
        return f"ReadonlySession({self._session!r})"

    def __getattr__(self, name: str) -> Any:
        raise AttributeError(
            f"ctx.session_manager is read-only: {name!r} is not available to hooks "
            "(change the session through pi: append_entry, send_message, set_label, ...)"
        )
