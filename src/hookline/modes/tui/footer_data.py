"""``footer_data``: what a hook's footer shows that a hook cannot read elsewhere.

pi's ``FooterDataProvider``: the git branch (watched: ``on_branch_change``
tells a footer to draw again when you switch branches), the hooks' status
texts, and, hookline's additions, the model and the footer's usage counts.
Every getter reads the app's own state when called, so a footer that reads
them in ``render(width)`` is drawn live.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hookline.core.ui import StatusLine
    from hookline.modes.tui.footer import Usage

#: Seconds between two looks at ``.git/HEAD`` while the app runs.
BRANCH_POLL_INTERVAL = 0.5


def git_head(cwd: str) -> Path | None:
    """The ``HEAD`` file of the repository ``cwd`` is in (a worktree's own, where its
    ``.git`` is a file naming the git folder); ``None`` outside a repository."""
    folder = Path(cwd).resolve()
    for candidate in (folder, *folder.parents):
        dot_git = candidate / ".git"
        try:
            if dot_git.is_dir():
                head = dot_git / "HEAD"
                return head if head.is_file() else None
            if dot_git.is_file():
                text = dot_git.read_text(encoding="utf-8").strip()
                if text.startswith("gitdir: "):
                    head = (candidate / text[len("gitdir: ") :]).resolve() / "HEAD"
                    return head if head.is_file() else None
        except OSError:
            return None
    return None


def read_branch(head: Path | None) -> str | None:
    """The branch ``HEAD`` names, ``"detached"`` at a commit, ``None`` without one."""
    if head is None:
        return None
    try:
        text = head.read_text(encoding="utf-8").strip()
    except OSError:
        return None
    prefix = "ref: refs/heads/"
    return text[len(prefix) :] if text.startswith(prefix) else "detached"


class FooterData:
    """The third argument of a ``set_footer`` factory (pi's ``footerData``)."""

    def __init__(
        self,
        cwd: str,
        status: StatusLine,
        model: Callable[[], str | None],
        usage: Callable[[], Usage],
    ) -> None:
        self._cwd = cwd
        self._status = status
        self._model = model
        self._usage = usage
        self._head: Path | None = None
        self._branch: str | None = None
        self._looked = False
        self._subscribers: list[Callable[[], None]] = []

    def get_git_branch(self) -> str | None:
        """The current branch; ``"detached"`` at a commit, ``None`` outside a repository."""
        if not self._looked:
            self.poll()
        return self._branch

    def get_extension_statuses(self) -> Mapping[str, str]:
        """The hooks' ``set_status`` texts by key (sorted by key)."""
        return dict(self._status.items())

    def get_model(self) -> str | None:
        """The model's id as the footer names it (``None`` while the agent loads)."""
        return self._model()

    def get_usage(self) -> Usage:
        """Messages and tokens of the current branch, and the size of the next context."""
        return self._usage()

    def on_branch_change(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Call ``callback`` when the branch changes; returns the unsubscribe function
        (a footer returns it as its ``dispose``)."""
        self._subscribers.append(callback)

        def unsubscribe() -> None:
            if callback in self._subscribers:
                self._subscribers.remove(callback)

        return unsubscribe

    def poll(self) -> bool:
        """Look at ``HEAD`` again; True (and the subscribers told) when the branch changed."""
        first = not self._looked
        self._looked = True
        if self._head is None or not self._head.is_file():
            self._head = git_head(self._cwd)
        branch = read_branch(self._head)
        if branch == self._branch:
            return False
        self._branch = branch
        if not first:
            for callback in list(self._subscribers):
                _quietly(callback)
        return not first


def _quietly(callback: Callable[[], None]) -> None:
    """A hook's callback; its failure must not stop the others (nor the app)."""
    from hookline.core.calling import HOOK_FAILURES

    with contextlib.suppress(*HOOK_FAILURES):
        callback()
