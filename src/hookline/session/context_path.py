"""The current path of the session tree and its context messages, kept up to date.

A resumed 100 000-entry session asks for its context at every model call.
Walking the tree and rebuilding the message list each time costs tens of
milliseconds, so this object keeps both and changes them by what changed:

- appending at the leaf extends the path and the message list;
- moving the leaf to an entry on the path cuts both back;
- moving it elsewhere walks only from the new leaf up to the path;
- a compaction rebuilds the list from its kept entries, not from the root.

Only ``reset`` walks the whole path (``rescans`` counts those walks). The
result always equals ``context_messages(path)`` (the rules live there).
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping, Sequence
from operator import countOf, itemgetter

from hookline.core.messages import Message
from hookline.session.context import entry_message
from hookline.session.entries import CompactionEntry, SessionEntry

_TYPE = itemgetter("type")
_MESSAGE = itemgetter("message")


class ContextPath:
    """Root → leaf entries and the model's messages there; mutate only through the methods."""

    def __init__(self, index: Mapping[str, SessionEntry]) -> None:
        self._index = index
        #: The path root → leaf (shared: callers copy before handing it out).
        self.entries: list[SessionEntry] = []
        #: The context messages at the leaf (shared: callers copy).
        self.messages: list[Message] = []
        # id → position on the path, built at the first leaf move (70 MB for a
        # million entries that a session never moving its leaf does not need).
        self._pos: dict[str, int] | None = None
        # _counts[i]: len(self.messages) right after entries[i], in the message
        # list of the latest compaction at or before i (or of none).
        self._counts = array("q")
        # For each compaction on the path: (its position, the list it replaced).
        self._saved: list[tuple[int, list[Message]]] = []
        #: Full walks of the path so far (a test counts them; appends and moves add none).
        self.rescans = 0

    @property
    def leaf(self) -> str | None:
        return self.entries[-1]["id"] if self.entries else None

    def reset(self, leaf: str | None, chain: Sequence[SessionEntry] | None = None) -> None:
        """Walk root → ``leaf`` from scratch (a load, or the first call).

        ``chain``: the path already known (a file without branches), copied, not walked.
        """
        self.rescans += 1
        self.entries = entries = list(chain) if chain is not None else self._walk_up(leaf, {})
        self._pos = None
        self._saved = []
        if countOf(map(_TYPE, entries), "message") == len(entries):
            # The usual path, messages only: both lists at C speed.
            self.messages = list(map(_MESSAGE, entries))
            self._counts = array("q", range(1, len(entries) + 1))
            return
        messages: list[Message] = []
        self.messages = messages
        counts = self._counts = array("q")
        add, count = messages.append, counts.append
        for position, entry in enumerate(entries):
            if entry["type"] == "message":
                add(entry["message"])
            elif entry["type"] == "compaction":
                self._saved.append((position, messages))
                self.messages = messages = self._compacted(entry, position)
                add = messages.append
            else:
                message = entry_message(entry)
                if message is not None:
                    add(message)
            count(len(messages))

    def append(self, entry: SessionEntry) -> None:
        """``entry`` now hangs under the leaf and becomes the leaf."""
        position = len(self.entries)
        if self._pos is not None:
            self._pos[entry["id"]] = position
        self.entries.append(entry)
        if entry["type"] == "compaction":
            self._saved.append((position, self.messages))
            self.messages = self._compacted(entry, position)
        else:
            message = entry_message(entry)
            if message is not None:
                self.messages.append(message)
        self._counts.append(len(self.messages))

    def move(self, leaf: str | None) -> None:
        """Make ``leaf`` the leaf: cut back to where its path meets this one, then extend."""
        if leaf is None:
            self._cut(0)
            return
        positions = self._positions()
        position = positions.get(leaf)
        if position is not None:
            self._cut(position + 1)
            return
        branch = self._walk_up(leaf, positions)
        fork = branch[0]["parent_id"] if branch else None
        self._cut(positions[fork] + 1 if fork is not None and fork in positions else 0)
        for entry in branch:
            self.append(entry)

    def _cut(self, length: int) -> None:
        """Keep the first ``length`` entries of the path."""
        if self._pos is not None:
            for entry in self.entries[length:]:
                del self._pos[entry["id"]]
        del self.entries[length:]
        del self._counts[length:]
        while self._saved and self._saved[-1][0] >= length:
            self.messages = self._saved.pop()[1]
        del self.messages[self._counts[-1] if length else 0 :]

    def _compacted(self, compaction: CompactionEntry, position: int) -> list[Message]:
        """The new message list a compaction at ``position`` starts (see ``context``)."""
        messages = [entry_message(compaction)]
        kept_id = compaction.get("first_kept_entry_id")
        kept = position
        if kept_id is not None:  # usually a few entries back: look from the end
            entries = self.entries
            for i in range(position - 1, -1, -1):
                if entries[i]["id"] == kept_id:
                    kept = i
                    break
        for entry in self.entries[kept:position]:
            if entry["type"] != "compaction":
                messages.append(entry_message(entry))
        return [m for m in messages if m is not None]

    def _positions(self) -> dict[str, int]:
        if self._pos is None:
            self._pos = {entry["id"]: i for i, entry in enumerate(self.entries)}
        return self._pos

    def _walk_up(self, leaf: str | None, stop: Mapping[str, int]) -> list[SessionEntry]:
        """Entries from ``leaf`` up to (excluding) the first in ``stop`` or the root, in
        root → leaf order. A parent cycle (a hand-edited file) ends the walk."""
        walked: list[SessionEntry] = []
        add, get = walked.append, self._index.get
        limit = len(self._index)
        current = leaf
        while current is not None and current not in stop:
            entry = get(current)
            if entry is None:
                break
            add(entry)
            if len(walked) > limit:  # longer than the tree: a cycle
                return self._walk_up_checked(leaf, stop)
            current = entry["parent_id"]
        walked.reverse()
        return walked

    def _walk_up_checked(self, leaf: str | None, stop: Mapping[str, int]) -> list[SessionEntry]:
        """``_walk_up`` that stops where the parent chain comes back on itself."""
        walked: list[SessionEntry] = []
        seen: set[str] = set()
        current = leaf
        while current is not None and current not in seen and current not in stop:
            seen.add(current)
            entry = self._index.get(current)
            if entry is None:
                break
            walked.append(entry)
            current = entry["parent_id"]
        walked.reverse()
        return walked
