"""The live area: the streaming answer's tail and the running calls, redrawn as they change.

It draws the activity's state, bounded (a tail): a long answer or a 5 000-line
tool output costs the same per frame as a short one. The answer's tail is
rendered off the loop, at most every ``LIVE_RENDER_INTERVAL``; running calls
are drawn again at the spinner's tick, not at each piece of output.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from prompt_toolkit.formatted_text import ANSI, StyleAndTextTuples
from prompt_toolkit.layout import FormattedTextControl, Window
from prompt_toolkit.layout.controls import UIContent

from hookline.modes.tui import render
from hookline.modes.tui.activity import Activity, RunningTool
from hookline.modes.tui.live import LiveAnswer

if TYPE_CHECKING:
    from rich.console import RenderableType

    from hookline.core.theme import Theme
    from hookline.modes.tui.style import Palette

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
#: No answer streaming: one empty list, so that the live area sees the same text.
_NOTHING: StyleAndTextTuples = []
#: Lines of a streaming answer shown live (the whole answer is printed when it ends).
LIVE_TEXT_LINES = 12
#: Seconds between two Markdown renders of a streaming answer (the spinner's tick
#: draws the latest text after a burst): typing stays quick however fast it streams.
LIVE_RENDER_INTERVAL = 0.15


def spinner_frame() -> str:
    """The spinner's character now (ten frames a second)."""
    return SPINNER[int(time.monotonic() * 10) % len(SPINNER)]


class LiveArea:
    """Draws the activity's streaming answer and running calls."""

    def __init__(
        self,
        activity: Activity,
        width: Callable[[], int],
        redraw: Callable[[], None],
        call_text: Callable[[RunningTool], str | None],
        palette: Palette,
        partial: Callable[[RunningTool], RenderableType | None] = lambda tool: None,
    ) -> None:
        self._activity = activity
        self._palette = palette
        self._width = width
        self._redraw = redraw
        self._call_text = call_text
        #: A running call's own rendering (its ``render_result`` with ``is_partial``).
        self._partial = partial
        self._live = LiveAnswer(LIVE_TEXT_LINES)
        #: The streaming answer's rendered tail: (answer number, text length, width,
        #: fragments), when the last render started, and the render under way.
        self.cache: tuple[int, int, int, StyleAndTextTuples] = (-1, -1, -1, [])
        self.rendered_at = 0.0
        self._job: asyncio.Future[None] | None = None
        #: What the area shows and what it was made from (see ``fragments``).
        self._drawn: tuple[object, StyleAndTextTuples] = (None, [])

    def shown(self) -> bool:
        """Something streams or runs."""
        return bool(self._activity.answer or self._activity.running)

    def window(self) -> Window:
        return Window(StableText(self.fragments), dont_extend_height=True, wrap_lines=False)

    def fragments(self) -> StyleAndTextTuples:
        """The answer's tail and the running calls: the same list until one of them changes
        (the live area's control builds its lines only for a new one).

        Running calls are drawn again at the spinner's tick, not at each piece of output:
        a command printing thousands of lines a second costs ten renders a second.
        """
        width = self._width()
        answer = _NOTHING
        if self._activity.answer:
            self.answer_changed(width)
            if self.cache[0] == self._activity.answer_number:
                answer = self.cache[3]
        running = self._activity.running
        frame = spinner_frame()
        # the objects themselves, not their ids: a new one may take a freed one's address
        key = (answer, width, tuple(running.values()), frame if running else "")
        if self._drawn[0] != key:
            self._drawn = (key, self._fragments_now(answer, frame, width))
        return self._drawn[1]

    def answer_changed(self, width: int) -> None:
        """Start rendering the streaming answer's tail, off the loop, when it changed.

        One render at a time, at most every ``LIVE_RENDER_INTERVAL``; the frame
        shows the last finished one meanwhile, so keys are read while it renders.
        """
        text, number = self._activity.answer, self._activity.answer_number
        if self.cache[:3] == (number, len(text), width) or self._job is not None:
            return
        now = time.monotonic()
        same = self.cache[0] == number and self.cache[2] == width
        if same and now - self.rendered_at < LIVE_RENDER_INTERVAL:
            return
        self.rendered_at = now
        self._job = asyncio.ensure_future(self._render(text, width, number))

    async def _render(self, text: str, width: int, number: int) -> None:
        try:
            theme = self._palette.theme
            fragments = await asyncio.to_thread(live_answer, self._live, text, width, theme)
        finally:
            self._job = None
        if number == self._activity.answer_number:  # still the same answer
            self.cache = (number, len(text), width, fragments)
            self._redraw()

    def _fragments_now(
        self, answer: StyleAndTextTuples, frame: str, width: int
    ) -> StyleAndTextTuples:
        parts: list[str] = []
        for tool in self._activity.running.values():
            block = render.running_tool(
                tool.name,
                tool.args,
                tool.output,
                frame,
                width,
                self._call_text(tool),
                tool.lines,
                self._partial(tool),
            )
            parts.append(render.to_ansi(block, width, self._palette.theme).rstrip("\n"))
        if not parts:
            return answer
        tools = _fragments("\n".join(parts))
        return [*answer, ("", "\n"), *tools] if answer else tools


class StableText(FormattedTextControl):
    """A text control for text that changes now and then (the live area): its lines are
    built once per text and width.

    prompt_toolkit's control splits the text into lines and searches it for a cursor
    at every call, and a frame asks a dozen times (heights, then drawing): with a
    screenful of highlighted Markdown that was most of a frame while an answer
    streamed. ``text`` must return the same list object while nothing changed.
    """

    def __init__(self, text: Callable[[], StyleAndTextTuples]) -> None:
        self._source = text
        self._current: StyleAndTextTuples = []
        super().__init__(lambda: self._current)
        self._made: tuple[object, int, UIContent] | None = None

    def create_content(self, width: int, height: int | None) -> UIContent:
        fragments = self._source()
        made = self._made
        if made is not None and made[0] is fragments and made[1] == width:
            return made[2]
        # built from these fragments (prompt_toolkit keeps one text per frame otherwise)
        self._current = fragments
        self._fragment_cache.clear()
        content = super().create_content(width, height)
        self._made = (fragments, width, content)
        return content


def live_answer(live: LiveAnswer, text: str, width: int, theme: Theme) -> StyleAndTextTuples:
    """The last ``LIVE_TEXT_LINES`` lines of a streaming answer, rendered (only its open
    block anew) and parsed into prompt_toolkit fragments once (parsing ANSI at every
    frame slowed typing down)."""
    return _fragments(live.tail(text, width, theme))


def _fragments(ansi: str) -> StyleAndTextTuples:
    """ANSI text as prompt_toolkit fragments, without the plain spaces rich pads lines with
    to the width: a frame copies every cell of the live area, one at a time."""
    lines = ansi.split("\n")
    return list(ANSI("\n".join(line.rstrip(" ") for line in lines)).__pt_formatted_text__())
