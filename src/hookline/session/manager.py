"""``SessionManager``: one session (a file, or memory only), its entry tree and leaf.

The leaf is the entry the next append hangs under. ``branch`` moves it back
so the next append forks the tree there; leaf moves are not written to the
file, so a reopened session's leaf is its last entry.

When an append cannot be written (disk full, a file size limit, an I/O
error) the file is cut back to its last whole entry and the session goes on
in memory: that entry and every later one are kept for the run but not
saved (``unsaved_entry_ids``), so the file stays a clean prefix of the
conversation. The ``hookline.session`` logger says so at the failure and,
with the ids, at ``close``.

An append writes its line before it returns, so a killed process loses
nothing appended; a background thread fsyncs in groups, and ``flushed()``
(``flush()`` when blocking is fine) says when every entry so far is on disk:
await it before acknowledging an entry to the outside. A failed fsync is
handled like a failed write: those entries become unsaved.
"""

from __future__ import annotations

import logging
import os
import weakref
from collections import deque
from pathlib import Path
from typing import Any, cast

from hookline.core.messages import AssistantMessage, Attribution, Content, Message, tool_calls
from hookline.session.committer import Committer
from hookline.session.context_path import ContextPath
from hookline.session.entries import (
    SESSION_VERSION,
    SessionEntry,
    SessionHeader,
    new_entry_id,
    new_session_id,
    now_iso,
)
from hookline.session.errors import SessionClosedError, SessionWriteError
from hookline.session.listing import SessionInfo, list_session_infos
from hookline.session.storage import (
    LockedFile,
    encode_line,
    read_session_file,
    session_file_name,
    sessions_dir,
)

PathLike = str | os.PathLike[str]

log = logging.getLogger("hookline.session")
#: How many unsaved entry ids the closing warning names (the count is always given).
_IDS_SHOWN = 20


class SessionManager:
    """Append-only session storage with tree navigation; build with the classmethods."""

    def __init__(
        self,
        header: SessionHeader,
        entries: list[SessionEntry],
        index: dict[str, SessionEntry],
        file: LockedFile | None,
        path: Path | None,
        warnings: list[str] | None = None,
        *,
        linear: bool = False,
    ) -> None:
        """Internal: use ``create``, ``open``, ``in_memory`` or ``continue_recent``.

        ``linear``: each of ``entries`` is the child of the one before (no branches).
        """
        self._header = header
        self._entries = entries
        self._index = index
        self._file = file
        self._path = path
        self._leaf: str | None = entries[-1]["id"] if entries else None
        # The path root → leaf and its context messages, built at the first use
        # and then kept up to date by appends and leaf moves, so a turn of a
        # 100 000-entry session does not walk the tree again.
        self._context: ContextPath | None = None
        # While true, the path to the last entry is the entry list itself: no walk.
        self._linear = linear or not entries
        self._closed = False
        self._read_only = path is not None and file is None
        #: What the loader skipped or repaired (torn last line, corrupt lines), for the UI.
        self.load_warnings: list[str] = list(warnings or [])
        # Appends write at once; this thread fsyncs them (``flushed`` waits for it).
        self._committer: Committer | None = None
        self._finalizer: weakref.finalize[Any, Any] | None = None
        if file is not None:
            self._committer = Committer(file)
            self._finalizer = weakref.finalize(self, _close_file, self._committer, file)
        # (sequence number, entry id) of this run's writes not yet known on disk.
        self._pending: deque[tuple[int, str]] = deque()
        self._save_error: SessionWriteError | None = None
        self._unsaved: list[str] = []

    # -- construction ------------------------------------------------------------

    @classmethod
    def create(
        cls,
        cwd: PathLike,
        *,
        session_dir: PathLike | None = None,
        parent_session: str | None = None,
    ) -> SessionManager:
        """A new session file under ``$HOOKLINE_HOME/sessions/<slug>/`` (or ``session_dir``)."""
        header = _new_header(cwd, parent_session)
        folder = sessions_dir(cwd, session_dir)
        path = folder / session_file_name(header["timestamp"], header["id"])
        file = LockedFile(path, create=True)
        try:
            file.append(encode_line(header))
        except BaseException:
            file.close()
            path.unlink(missing_ok=True)  # no headerless file for list_sessions to trip on
            raise
        return cls(header, [], {}, file, path)

    @classmethod
    def open(cls, path: PathLike, *, read_only: bool = False) -> SessionManager:
        """Resume a session file: locked for writing unless ``read_only``.

        Raises ``SessionLockedError`` when another manager or process writes
        it, ``SessionFormatError`` when it is not a session file.
        """
        file_path = Path(path).expanduser().absolute()
        file = None if read_only else LockedFile(file_path, create=False)
        try:
            parsed = read_session_file(file_path)
            if file is not None:
                if parsed.missing_newline:
                    file.append(b"\n")
                    parsed.warnings.append(f"{file_path}: final newline was missing; added")
                elif parsed.good_size < file_path.stat().st_size:
                    file.truncate(parsed.good_size)
        except BaseException:
            if file is not None:
                file.close()
            raise
        return cls(
            cast(SessionHeader, parsed.header),
            cast(list[SessionEntry], parsed.entries),
            cast(dict[str, SessionEntry], parsed.index),
            file,
            file_path,
            parsed.warnings,
            linear=parsed.linear,
        )

    @classmethod
    def in_memory(cls, cwd: PathLike, *, parent_session: str | None = None) -> SessionManager:
        """Same API with no file (``--no-session``): ``get_session_file()`` is ``None``."""
        return cls(_new_header(cwd, parent_session), [], {}, None, None)

    @classmethod
    def continue_recent(
        cls, cwd: PathLike, *, session_dir: PathLike | None = None
    ) -> SessionManager:
        """Resume the project's most recently written session, or create one if none.

        Only a session whose header ``cwd`` is this project counts: ``/x/a/b``
        and ``/x/a-b`` share a folder name, never their sessions.
        """
        for info in cls.list_sessions(cwd, session_dir=session_dir):
            return cls.open(info.path)
        return cls.create(cwd, session_dir=session_dir)

    @staticmethod
    def list_sessions(cwd: PathLike, *, session_dir: PathLike | None = None) -> list[SessionInfo]:
        """The project's sessions, most recently written first (unreadable files skipped).

        Sessions recorded for another directory (same folder name, or a shared
        ``session_dir``) are left out.
        """
        project = str(Path(cwd).resolve())
        infos = list_session_infos(sessions_dir(cwd, session_dir))
        return [info for info in infos if info.cwd == project]

    # -- identity ----------------------------------------------------------------

    def get_session_file(self) -> str | None:
        """The file path, or ``None`` for an in-memory session."""
        return str(self._path) if self._path is not None else None

    def get_session_id(self) -> str:
        return self._header["id"]

    def get_cwd(self) -> str:
        return self._header["cwd"]

    def get_header(self) -> SessionHeader:
        return self._header

    @property
    def is_persistent(self) -> bool:
        """True when entries go to a file (False for ``in_memory`` sessions)."""
        return self._path is not None

    @property
    def save_error(self) -> SessionWriteError | None:
        """Why appends stopped reaching the file (``None`` while every append is saved)."""
        self._check_commits()
        return self._save_error

    @property
    def unsaved_entry_ids(self) -> list[str]:
        """Entries of this run kept in memory only because the file could not take them."""
        self._check_commits()
        return list(self._unsaved)

    # -- durability --------------------------------------------------------------

    def flush(self) -> bool:
        """Block until every entry appended so far is on disk.

        True when none is unsaved (an in-memory session has nothing to wait
        for); False after a failed write or fsync (see ``unsaved_entry_ids``).
        """
        if self._committer is not None and self._pending:
            self._committer.wait(self._pending[-1][0])
        return not self.unsaved_entry_ids

    async def flushed(self) -> bool:
        """``flush`` for the event loop: await it before acknowledging an entry outside.

        An append returns once its line is written (a killed process loses
        nothing); the fsync runs in a background thread, shared by every
        append made meanwhile, and this resolves when it covered them all.
        """
        if self._committer is not None and self._pending:
            await self._committer.wait_async(self._pending[-1][0])
        return not self.unsaved_entry_ids

    # -- appending ---------------------------------------------------------------

    def append_message(self, message: Message) -> str:
        """Append a conversation message; a ``role: "custom"`` one becomes a custom_message."""
        if message["role"] == "custom":
            return self.append_custom_message(
                message["custom_type"],
                message["content"],
                display=message.get("display", True),
                details=message.get("details"),
                attribution=message.get("attribution"),
            )
        return self._append({"type": "message", "message": message})

    def append_custom_entry(self, custom_type: str, data: Any = None) -> str:
        """Hook state (``append_entry``): stored, never sent to the model."""
        return self._append({"type": "custom", "custom_type": custom_type, "data": data})

    def append_custom_message(
        self,
        custom_type: str,
        content: str | list[Content],
        *,
        display: bool = True,
        details: Any = None,
        attribution: Attribution | None = None,
    ) -> str:
        """A hook message (``send_message``): the model sees it as user text; ``attribution``
        says who asked for it (``user`` or ``agent``)."""
        fields: dict[str, Any] = {
            "type": "custom_message",
            "custom_type": custom_type,
            "content": content,
            "display": display,
        }
        if details is not None:
            fields["details"] = details
        if attribution is not None:
            fields["attribution"] = attribution
        return self._append(fields)

    def append_session_info(self, name: str) -> str:
        """Name the session; listings (``/resume``) show the last name given."""
        if not isinstance(name, str) or not name.strip():
            raise ValueError("a session name must be a non-empty string")
        return self._append({"type": "session_info", "name": name.strip()})

    def get_session_name(self) -> str | None:
        """The last name given with ``append_session_info``, if any."""
        for entry in reversed(self._entries):
            if entry["type"] == "session_info":
                return str(entry["name"])
        return None

    def append_label(self, target_id: str, label: str | None) -> str:
        """Bookmark entry ``target_id`` with ``label`` (None clears it)."""
        if target_id not in self._index:
            raise ValueError(f"set_label: {target_id!r} is not an entry of this session")
        if label is not None and not isinstance(label, str):
            raise ValueError(f"set_label: the label must be a string or None, got {label!r}")
        return self._append({"type": "label", "target_id": target_id, "label": label})

    def get_labels(self) -> dict[str, str]:
        """Each labelled entry's current label (``/tree`` shows them)."""
        labels: dict[str, str] = {}
        for entry in self._entries:
            if entry["type"] == "label":
                if entry["label"] is None:
                    labels.pop(entry["target_id"], None)
                else:
                    labels[entry["target_id"]] = entry["label"]
        return labels

    def append_model_change(self, model: str, previous: str | None = None) -> str:
        return self._append({"type": "model_change", "model": model, "previous": previous})

    def append_compaction(
        self,
        summary: str,
        *,
        first_kept_entry_id: str | None,
        tokens_before: int,
        details: Any = None,
        from_hook: bool = False,
    ) -> str:
        """Record a compaction: the context drops what precedes ``first_kept_entry_id``."""
        if first_kept_entry_id is not None and first_kept_entry_id not in self._index:
            raise ValueError(f"first_kept_entry_id {first_kept_entry_id!r} is not an entry")
        fields: dict[str, Any] = {
            "type": "compaction",
            "summary": summary,
            "first_kept_entry_id": first_kept_entry_id,
            "tokens_before": tokens_before,
            "from_hook": from_hook,
        }
        if details is not None:
            fields["details"] = details
        return self._append(fields)

    def append_branch_summary(
        self, summary: str, *, from_id: str | None, details: Any = None
    ) -> str:
        """Summarise the branch left behind (``from_id`` was its leaf) at the current leaf."""
        fields: dict[str, Any] = {"type": "branch_summary", "summary": summary, "from_id": from_id}
        if details is not None:
            fields["details"] = details
        return self._append(fields)

    def _append(self, fields: dict[str, Any]) -> str:
        if self._closed:
            raise SessionClosedError(f"session {self._path or self.get_session_id()} is closed")
        if self._read_only:
            raise SessionClosedError(f"session {self._path} was opened read-only")
        entry_id = new_entry_id(self._index)
        # Key order for readers of the raw file: type, id, parent_id, timestamp, then the rest.
        entry = cast(
            SessionEntry,
            {
                "type": fields["type"],
                "id": entry_id,
                "parent_id": self._leaf,
                "timestamp": now_iso(),
                **fields,
            },
        )
        committer = self._committer
        if committer is not None and self.save_error is None:
            pending = self._pending
            while pending and pending[0][0] <= committer.durable:
                pending.popleft()
            try:
                pending.append((committer.write(encode_line(entry)), entry_id))
            except SessionWriteError as exc:
                self._check_commits()  # an fsync failed meanwhile: its entries come first
                if self._save_error is None:
                    self._stop_saving(exc, entry_id)
        if self._save_error is not None:
            self._unsaved.append(entry_id)
        if self._linear and self._entries and self._leaf != self._entries[-1]["id"]:
            self._linear = False
        self._entries.append(entry)
        self._index[entry_id] = entry
        if self._context is not None:
            self._context.append(entry)
        self._leaf = entry_id
        return entry_id

    def _stop_saving(self, exc: SessionWriteError, first: str) -> None:
        self._save_error = exc
        log.warning(
            "hookline: %s; entry %s and every later entry of this run are kept in "
            "memory only, not saved (the file ends at the last saved entry)",
            exc,
            first,
        )

    def _check_commits(self) -> None:
        """After a failed fsync: this run's entries not known on disk become unsaved."""
        committer = self._committer
        if committer is None or committer.error is None or self._save_error is not None:
            return
        durable = committer.durable
        lost = [entry_id for seq, entry_id in self._pending if seq > durable]
        self._pending.clear()
        self._stop_saving(committer.error, lost[0] if lost else "(none)")
        self._unsaved.extend(lost)

    def answer_open_tool_calls(self, text: str) -> list[str]:
        """Give each unanswered tool call of the last assistant message an error result.

        A run cancelled mid-tool (an abort that had to cancel a hung hook)
        leaves a call without a result, which model APIs refuse in the next
        request. Returns the new entries' ids (none when every call has one).
        """
        answered: set[str] = set()
        last: AssistantMessage | None = None
        for entry in reversed(self._branch(None)):
            if entry["type"] != "message":
                continue
            message = entry["message"]
            if message["role"] == "tool":
                answered.add(message["tool_call_id"])
                continue
            if message["role"] == "assistant":
                last = message
            break
        if last is None:
            return []
        return [
            self.append_message(
                {
                    "role": "tool",
                    "tool_call_id": call["id"],
                    "tool_name": call["name"],
                    "content": [{"type": "text", "text": text}],
                    "is_error": True,
                }
            )
            for call in tool_calls(last)
            if call["id"] not in answered
        ]

    # -- the tree ----------------------------------------------------------------

    def get_entries(self) -> list[SessionEntry]:
        """All entries in file order (the header excluded)."""
        return list(self._entries)

    def get_entry(self, entry_id: str) -> SessionEntry | None:
        return self._index.get(entry_id)

    def get_leaf_id(self) -> str | None:
        """The entry the next append hangs under (``None``: the next append is a root)."""
        return self._leaf

    def branch(self, from_id: str | None) -> None:
        """Move the leaf to an earlier entry (``None``: before the first) to fork there."""
        if from_id is not None and from_id not in self._index:
            raise ValueError(f"no entry {from_id!r} in session {self.get_session_id()}")
        if self._context is not None and from_id != self._leaf:
            self._context.move(from_id)
        self._leaf = from_id

    def get_branch(self, leaf: str | None = None) -> list[SessionEntry]:
        """The path root → ``leaf`` (default: the current leaf), a new list each call."""
        return list(self._branch(leaf))

    def _branch(self, leaf: str | None) -> list[SessionEntry]:
        """The path, shared with the cache when it is the current leaf's: do not mutate."""
        if leaf is None or leaf == self._leaf:
            return self._current().entries
        return self._walk(leaf)

    def _current(self) -> ContextPath:
        if self._context is None:
            entries = self._entries
            on_chain = self._linear and bool(entries) and self._leaf == entries[-1]["id"]
            self._context = ContextPath(self._index)
            self._context.reset(self._leaf, entries if on_chain else None)
        return self._context

    def _walk(self, current: str | None) -> list[SessionEntry]:
        if current is not None and current not in self._index:
            raise ValueError(f"no entry {current!r} in session {self.get_session_id()}")
        path: list[SessionEntry] = []
        index = self._index
        seen: set[str] = set()
        while current is not None and current not in seen:
            seen.add(current)
            entry = index.get(current)
            if entry is None:
                break
            path.append(entry)
            current = entry["parent_id"]
        path.reverse()
        return path

    def get_tree(self) -> dict[str | None, list[str]]:
        """Children ids of each entry in file order; key ``None`` lists the roots."""
        children: dict[str | None, list[str]] = {None: []}
        for entry in self._entries:
            children.setdefault(entry["id"], [])
            children.setdefault(entry["parent_id"], []).append(entry["id"])
        return children

    def build_context_messages(self) -> list[Message]:
        """The messages the model sees at the current leaf (rules: ``session.context``)."""
        return list(self._current().messages)

    # -- fork and close ----------------------------------------------------------

    def fork(self, entry_id: str | None) -> SessionManager:
        """A new session holding the path up to ``entry_id``; its header names this file.

        A file session forks into a new file beside it; an in-memory one stays
        in memory. Entry ids are kept, so compactions' references stay valid.
        """
        path = self._branch(entry_id) if entry_id is not None else []
        parent = str(self._path) if self._path is not None else None
        if self._path is None:
            header = _new_header(self.get_cwd(), parent)
            copies = [cast(SessionEntry, dict(e)) for e in path]
            index = {e["id"]: e for e in copies}
            return SessionManager(header, copies, index, None, None, linear=True)
        forked = SessionManager.create(
            self.get_cwd(), session_dir=self._path.parent, parent_session=parent
        )
        assert forked._file is not None
        if path:
            try:
                forked._file.append(b"".join(encode_line(e) for e in path))
            except BaseException:
                forked.close()
                Path(forked.get_session_file() or "").unlink(missing_ok=True)
                raise
        forked._entries = [cast(SessionEntry, dict(e)) for e in path]
        forked._index = {e["id"]: e for e in forked._entries}
        forked._leaf = entry_id
        return forked

    def close(self) -> None:
        """Release the file lock; later appends raise ``SessionClosedError``. Idempotent.

        Says which entries were not saved, if any (once).
        """
        if self._closed:
            return
        self._closed = True
        if self._finalizer is not None:
            self._finalizer()  # waits for the pending fsync, then releases the lock
        self._check_commits()
        if self._unsaved:
            shown = ", ".join(self._unsaved[:_IDS_SHOWN])
            more = len(self._unsaved) - _IDS_SHOWN
            count = len(self._unsaved)
            log.warning(
                "hookline: session file %s: %s not saved (%s): %s%s",
                self._path,
                "1 entry of this run was" if count == 1 else f"{count} entries of this run were",
                self._save_error.reason if self._save_error else "unknown cause",
                shown,
                f" and {more} more" if more > 0 else "",
            )

    def __enter__(self) -> SessionManager:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        where = self._path or "in memory"
        return f"<SessionManager {self.get_session_id()} {where} entries={len(self._entries)}>"


def _close_file(committer: Committer, file: LockedFile) -> None:
    committer.close()
    file.close()


def _new_header(cwd: PathLike, parent_session: str | None) -> SessionHeader:
    header: SessionHeader = {
        "type": "session",
        "version": SESSION_VERSION,
        "id": new_session_id(),
        "cwd": str(Path(cwd).resolve()),
        "timestamp": now_iso(),
    }
    if parent_session is not None:
        header["parent_session"] = parent_session
    return header
