"""``hookline --resume`` with no id: pick one of this directory's sessions.

The sessions come newest first, one line each: the name (when it has one) and
the first prompt, how long ago it was written, how many messages it holds.
Typing filters them (a substring of the prompt, the name or the id), the arrows
move, Enter answers the chosen file, Esc or Ctrl+C answers ``None``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from prompt_toolkit.application import get_app
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.key_binding import KeyPressEvent
from prompt_toolkit.layout import BufferControl, FormattedTextControl, HSplit, Window

from hookline.modes.tui.dialogs import (
    VISIBLE_OPTIONS,
    Dialog,
    prompted,
    run_alone,
    scroll_window,
)
from hookline.modes.tui.render import clean
from hookline.session.listing import SessionInfo

#: (seconds in the unit, its name): the largest that fits says how long ago.
_UNITS = (
    (365 * 86400, "year"),
    (30 * 86400, "month"),
    (7 * 86400, "week"),
    (86400, "day"),
    (3600, "hour"),
    (60, "min"),
)


def ago(seconds: float) -> str:
    """``3 min ago``, ``1 hour ago``, ``2 weeks ago``; under a minute ``just now``."""
    for size, unit in _UNITS:
        count = int(seconds // size)
        if count >= 1:
            plural = "s" if count > 1 and unit != "min" else ""
            return f"{count} {unit}{plural} ago"
    return "just now"


class SessionPicker(Dialog):
    """The sessions, a filter field above them; answers the chosen session's file."""

    def __init__(self, cwd: str, sessions: Sequence[SessionInfo], title: str | None = None) -> None:
        super().__init__(title or f"Resume a session of {cwd}", None, None, None)
        self.sessions = list(sessions)
        self.shown = self.sessions
        self.index = 0
        self._now = time.time()
        self.filter = Buffer(multiline=False, on_text_changed=self._filtered)
        kb = self.kb

        @kb.add("up")
        @kb.add("c-p")
        def _up(event: KeyPressEvent) -> None:
            self.index = max(self.index - 1, 0)

        @kb.add("down")
        @kb.add("c-n")
        def _down(event: KeyPressEvent) -> None:
            self.index = min(self.index + 1, max(len(self.shown) - 1, 0))

        @kb.add("enter")
        def _pick(event: KeyPressEvent) -> None:
            if self.shown:
                self.finish(self.shown[self.index].path)

        self.focus = Window(BufferControl(self.filter, key_bindings=kb), height=1)
        self.container = HSplit(
            [
                Window(FormattedTextControl(self.title_fragments), dont_extend_height=True),
                prompted(self.focus),
                Window(FormattedTextControl(self._rows), dont_extend_height=True),
            ]
        )

    def _filtered(self, buffer: Buffer) -> None:
        self.shown = [s for s in self.sessions if s.matches(buffer.text)]
        self.index = 0

    def _rows(self) -> StyleAndTextTuples:
        out: StyleAndTextTuples = []
        first, last = scroll_window(self.index, len(self.shown), VISIBLE_OPTIONS)
        if first > 0:
            out += [("class:dialog.border", "│ "), ("class:dialog.hint", f"  ↑ {first} more\n")]
        width = get_app().output.get_size().columns
        for i in range(first, last):
            out += self._row(self.shown[i], i == self.index, width)
        if last < len(self.shown):
            more = len(self.shown) - last
            out += [("class:dialog.border", "│ "), ("class:dialog.hint", f"  ↓ {more} more\n")]
        if not self.shown:
            out += [
                ("class:dialog.border", "│ "),
                ("class:dialog.hint", f"  no session matches {self.filter.text!r}\n"),
            ]
        count = f"{len(self.shown)} of {len(self.sessions)} · " if self.filter.text else ""
        keys = f"{count}type to filter · ↑↓ move · enter resume · esc cancel"
        return [*out, *self.hint(keys)]

    def _row(self, session: SessionInfo, chosen: bool, width: int) -> StyleAndTextTuples:
        """One session: ``❯ name · first prompt ... 3 min ago · 5 msgs``."""
        facts = f"  {ago(self._now - session.modified)} · {session.message_count} msgs"
        name = clean(" ".join((session.name or "").split()))
        prompt = clean(session.first_message) or "(no prompt)"
        label = f"{name} · {prompt}" if name else prompt
        room = max(width - len(facts) - 5, 10)
        if len(label) > room:
            label = label[: room - 1] + "…"
        style = "class:dialog.selected" if chosen else "class:dialog.option"
        return [
            ("class:dialog.border", "│ "),
            (style, f"{'❯' if chosen else ' '} {label.ljust(room)}"),
            ("class:dialog.description", facts + "\n"),
        ]


async def pick_session(
    cwd: str, sessions: Sequence[SessionInfo], *, title: str | None = None
) -> str | None:
    """The file of the session chosen among ``sessions``; ``None`` when the user left.
    ``title`` says what for (default: resuming one of ``cwd``'s sessions)."""
    answer = await run_alone(SessionPicker(cwd, sessions, title))
    return answer if isinstance(answer, str) else None
