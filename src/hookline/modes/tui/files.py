"""``@`` in the editor completes a path of the working directory, as Claude Code and pi do.

The paths are ``find``'s walk (``.gitignore`` respected, ripgrep's list when it
runs, Read-denied files left out), listed once per prompt and capped: the
completer runs in a worker thread (``ThreadedCompleter``), so a large tree
never holds up the keys, and the next prompt lists again.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterable

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

from hookline.modes.tui import fuzzy

#: Paths listed at most (a home folder is not walked to its end).
LIMIT = 20_000
#: Completions offered at most for one query.
SHOWN = 50
#: ``@`` at the start or after a space, then the path typed so far (no space in it).
_TOKEN = re.compile(r"(?:^|(?<=\s))@([^\s@]*)$")

#: Lists the paths under a folder: ``(root, limit) -> paths``.
Lister = Callable[[str, int], list[str]]


def project_paths(hide: Callable[[str], bool] | None = None, *, ripgrep: bool = True) -> Lister:
    """``find``'s listing, leaving out what ``hide`` says (the Read-denied files)."""

    def lister(root: str, limit: int) -> list[str]:
        from hookline.tools.search import list_paths

        return list_paths(root, limit, hide=hide, ripgrep=ripgrep)

    return lister


class FileIndex:
    """The working directory's paths, listed on first use and kept until ``forget``."""

    def __init__(self, cwd: str, lister: Lister, limit: int = LIMIT) -> None:
        self.cwd = cwd
        self._lister = lister
        self._limit = limit
        self._paths: list[str] | None = None
        self._lock = threading.Lock()

    def paths(self) -> list[str]:
        """The listing; the first call after ``forget`` walks (call it off the loop)."""
        with self._lock:
            if self._paths is None:
                self._paths = self._lister(self.cwd, self._limit)
            return self._paths

    def forget(self) -> None:
        """A new prompt: list again when next asked (files come and go between turns)."""
        self._paths = None


class FileCompleter(Completer):
    """``@src/ho`` → the paths matching ``src/ho``, best first; a chosen file is followed
    by a space, a folder by nothing (the path goes on)."""

    def __init__(self, index: Callable[[], FileIndex | None]) -> None:
        self._index = index

    def get_completions(
        self, document: Document, complete_event: CompleteEvent
    ) -> Iterable[Completion]:
        query = at_query(document.text_before_cursor)
        index = self._index()
        if query is None or index is None:
            return
        for path in fuzzy.rank(query, index.paths(), str)[:SHOWN]:
            text = "@" + path + ("" if path.endswith("/") else " ")
            yield Completion(text, -len(query) - 1, display=path)


def at_query(text_before_cursor: str) -> str | None:
    """The path typed after an ``@`` at the cursor, or None when the cursor is not in one."""
    found = _TOKEN.search(text_before_cursor)
    return None if found is None else found.group(1)
