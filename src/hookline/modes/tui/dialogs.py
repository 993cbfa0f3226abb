"""Hook dialogs as inline prompt_toolkit components: select, confirm, input, editor, custom.

A dialog is shown in place of the editor, one at a time (later ones wait in
order). Each resolves its future exactly once: with the user's answer, with
its default when Esc/Ctrl+C cancels it, when its ``timeout`` runs out (a
countdown is shown) or when its ``signal`` is set.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from prompt_toolkit.buffer import Buffer
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import (
    AnyContainer,
    BufferControl,
    Dimension,
    FormattedTextControl,
    HSplit,
    VSplit,
    Window,
    walk,
)
from prompt_toolkit.layout.processors import (
    Processor,
    Transformation,
    TransformationInput,
)

from hookline.modes.tui.render import clean, wrap_words


class Dialog:
    """One dialog: its container, the window to focus, and the future of its answer."""

    focus: Window
    container: AnyContainer

    def __init__(
        self,
        title: str,
        default: Any,
        timeout: float | None,
        signal: asyncio.Event | None,
    ) -> None:
        self.title = clean(title)
        self.default = default
        self.timeout = timeout if timeout is not None and timeout > 0 else None
        self.signal = signal
        self.future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.remaining: int | None = None
        self.kb = KeyBindings()

        @self.kb.add("escape")
        @self.kb.add("c-c")
        def _cancel(event: KeyPressEvent) -> None:
            self.finish(self.default)

    def finish(self, value: Any) -> None:
        if not self.future.done():
            self.future.set_result(value)

    @property
    def done(self) -> bool:
        return self.future.done()

    def title_fragments(self) -> StyleAndTextTuples:
        """The title after ``╭─``/``│``, wrapped at words to the terminal's width."""
        width = _columns() - 3
        lines = [part for line in self.title.splitlines() for part in wrap_words(line, width)]
        lines = lines or [""]
        out: StyleAndTextTuples = [("class:dialog.border", "╭─ "), ("class:dialog.title", lines[0])]
        for line in lines[1:]:
            out += [("", "\n"), ("class:dialog.border", "│  "), ("class:dialog.title", line)]
        return out

    def hint(self, keys: str) -> StyleAndTextTuples:
        text = keys
        if self.remaining is not None:
            text += f" · auto-answers {self._default_text()} in {self.remaining}s"
        return [("class:dialog.border", "╰ "), ("class:dialog.hint", text)]

    def _default_text(self) -> str:
        if self.default is None:
            return "cancel"
        if isinstance(self.default, bool):
            return "No" if not self.default else "Yes"
        return repr(self.default)


class SelectDialog(Dialog):
    """Arrow keys (or a digit) choose, Enter picks; descriptions shown beside options.

    ``searchable``: typing filters the options (fuzzy, as pi's selectors; digits
    are then typed, not picked), Backspace erases.
    """

    def __init__(
        self,
        title: str,
        options: Sequence[str],
        *,
        descriptions: Mapping[str, str] | None = None,
        default: Any = None,
        values: Sequence[Any] | None = None,
        timeout: float | None = None,
        signal: asyncio.Event | None = None,
        keys: Mapping[str, int] | None = None,
        searchable: bool = False,
        index: int = 0,
    ) -> None:
        super().__init__(title, default, timeout, signal)
        self.options = [clean(o) for o in options]
        self.values = list(values) if values is not None else list(options)
        self.descriptions = {clean(k): clean(v) for k, v in (descriptions or {}).items()}
        self.searchable = searchable
        #: What was typed to filter, and the options it leaves, best first (indexes).
        self.query = ""
        self.shown = list(range(len(self.options)))
        self.index = index if 0 <= index < len(self.options) else 0
        kb = self.kb

        @kb.add("up")
        @kb.add("c-p")
        def _up(event: KeyPressEvent) -> None:
            self.index = (self.index - 1) % max(len(self.shown), 1)

        @kb.add("down")
        @kb.add("c-n")
        @kb.add("tab")
        def _down(event: KeyPressEvent) -> None:
            self.index = (self.index + 1) % max(len(self.shown), 1)

        @kb.add("enter")
        def _pick(event: KeyPressEvent) -> None:
            if self.shown:
                self.finish(self.values[self.shown[self.index]])

        if searchable:

            @kb.add("<any>")
            def _type(event: KeyPressEvent) -> None:
                if event.data.isprintable():
                    self.search(self.query + event.data)

            @kb.add("backspace")
            def _erase(event: KeyPressEvent) -> None:
                self.search(self.query[:-1])

        else:
            for n in range(1, min(len(self.options), 9) + 1):
                kb.add(str(n))(self._picker(n - 1))
        for key, index_ in (keys or {}).items():
            kb.add(key)(self._picker(index_))

        self.focus = Window(
            FormattedTextControl(self._fragments, focusable=True, key_bindings=kb),
            dont_extend_height=True,
            wrap_lines=True,
        )
        self.container = self.focus

    def search(self, query: str) -> None:
        """Show only the options matching ``query``, best first; the cursor on the first."""
        from hookline.modes.tui.fuzzy import rank

        self.query = query
        self.shown = rank(query, range(len(self.options)), lambda i: self.options[i])
        self.index = 0

    def _picker(self, index: int) -> Callable[[KeyPressEvent], None]:
        def pick(event: KeyPressEvent) -> None:
            self.index = index
            self.finish(self.values[index])

        return pick

    def _fragments(self) -> StyleAndTextTuples:
        out = self.title_fragments()
        if self.searchable:
            out += [("", "\n"), ("class:dialog.border", "│ › "), ("", self.query)]
            out += [
                ("[SetCursorPosition]", ""),
                ("class:placeholder", "" if self.query else "type to filter"),
            ]
        width = max((len(o) for o in self.options), default=0)
        first, last = scroll_window(self.index, len(self.shown), VISIBLE_OPTIONS)
        if first > 0:
            out += [
                ("", "\n"),
                ("class:dialog.border", "│ "),
                ("class:dialog.hint", f"  ↑ {first} more"),
            ]
        for row in range(first, last):
            option = self.options[self.shown[row]]
            chosen = row == self.index
            style = "class:dialog.selected" if chosen else "class:dialog.option"
            out += [("", "\n"), ("class:dialog.border", "│ ")]
            out += [(style, f"{'❯' if chosen else ' '} {option.ljust(width)}")]
            description = self.descriptions.get(option)
            if description:
                out += [("class:dialog.description", f"  {description}")]
        if last < len(self.shown):
            more = len(self.shown) - last
            out += [
                ("", "\n"),
                ("class:dialog.border", "│ "),
                ("class:dialog.hint", f"  ↓ {more} more"),
            ]
        if not self.shown:
            out += [("", "\n"), ("class:dialog.border", "│ "), ("class:dialog.hint", "  no match")]
        keys = "type to filter · ↑↓ move" if self.searchable else "↑↓ move"
        out += [("", "\n"), *self.hint(f"{keys} · enter choose · esc cancel")]
        return out


def _columns() -> int:
    """The terminal's width now (80 when there is no app)."""
    from prompt_toolkit.application import get_app_or_none

    app = get_app_or_none()
    try:
        return app.output.get_size().columns if app is not None else 80
    except OSError:
        return 80


#: Options a select shows at once; the list scrolls with the cursor.
VISIBLE_OPTIONS = 10


def scroll_window(index: int, total: int, size: int) -> tuple[int, int]:
    """The ``[first, last)`` slice of ``total`` options that keeps ``index`` in view."""
    if total <= size:
        return 0, total
    first = min(max(index - size // 2, 0), total - size)
    return first, first + size


class _Placeholder(Processor):
    """Greyed hint text while the buffer is empty."""

    def __init__(self, text: str) -> None:
        self.text = text

    def apply_transformation(self, ti: TransformationInput) -> Transformation:
        if ti.document.text or ti.lineno != 0 or not self.text:
            return Transformation(ti.fragments)
        return Transformation([*ti.fragments, ("class:placeholder", self.text)])


class InputDialog(Dialog):
    """A text field: Enter answers its text; ``multiline`` makes it the editor dialog.

    A multi-line one where ``enter_submits`` is false (oh-my-pi's hook editor without
    ``promptStyle``) takes Enter as a newline and Ctrl+Enter (``ctrl+j`` in most
    terminals) or Alt+Enter as the answer.
    """

    def __init__(
        self,
        title: str,
        *,
        placeholder: str | None = None,
        prefill: str | None = None,
        multiline: bool = False,
        enter_submits: bool = True,
        timeout: float | None = None,
        signal: asyncio.Event | None = None,
    ) -> None:
        super().__init__(title, None, timeout, signal)
        self.multiline = multiline
        self.buffer = Buffer(multiline=multiline, document=None)
        if prefill:
            self.buffer.text = prefill
            self.buffer.cursor_position = len(prefill)
        kb = self.kb
        submit: tuple[str, ...]
        newline: tuple[str, ...]
        if not multiline:
            submit, newline, keys = ("enter",), (), "enter submit"
        elif enter_submits:
            submit, newline = ("enter",), ("escape enter", "c-j")
            keys = "enter submit · alt+enter newline"
        else:
            submit, newline = ("escape enter", "c-j"), ("enter",)
            keys = "enter newline · ctrl+enter submit"

        def _submit(event: KeyPressEvent) -> None:
            self.finish(self.buffer.text)

        def _newline(event: KeyPressEvent) -> None:
            self.buffer.newline(copy_margin=False)

        for key in submit:
            kb.add(*key.split())(_submit)
        for key in newline:
            kb.add(*key.split())(_newline)

        self.focus = Window(
            BufferControl(
                self.buffer,
                key_bindings=kb,
                input_processors=[_Placeholder(clean(placeholder or ""))],
            ),
            height=Dimension(min=1, max=12) if multiline else 1,
            dont_extend_height=True,
            wrap_lines=True,
        )
        self.container = HSplit(
            [
                Window(FormattedTextControl(self.title_fragments), dont_extend_height=True),
                prompted(self.focus),
                Window(
                    FormattedTextControl(lambda: self.hint(keys + " · esc cancel")),
                    height=1,
                ),
            ]
        )


def prompted(window: Window) -> AnyContainer:
    """``window`` (a text field) after the dialog's ``│ ›`` prompt."""
    return VSplit(
        [Window(FormattedTextControl([("class:dialog.border", "│ › ")]), width=4), window]
    )


class CustomDialog(Dialog):
    """A hook's own component: ``factory(done)`` returns a prompt_toolkit container.

    Inline, it takes the editor's place; with ``overlay`` it is framed and floats
    over the app (``container`` is then what the app's ``Float`` shows), the
    editor and everything else staying where they are underneath.
    """

    def __init__(self, factory: Callable[..., Any], *, overlay: bool = False) -> None:
        super().__init__("", None, None, None)
        self.overlay = overlay
        component = factory(self.finish)
        if hasattr(component, "__pt_container__"):
            component = component.__pt_container__()
        found = _first_focusable(component)
        # a component with nothing to focus gets an empty window that takes the keys
        self.focus = found or Window(FormattedTextControl("", focusable=True), height=0)
        parts = [component] if found is not None else [component, self.focus]
        body = HSplit(parts, key_bindings=self.kb)
        self.container = _framed(body) if overlay else body


def _framed(body: AnyContainer) -> AnyContainer:
    """``body`` in a box with a hint line, for an overlay (its own background, so what
    is underneath does not show through)."""
    from prompt_toolkit.widgets import Frame

    hint = Window(FormattedTextControl([("class:dialog.hint", "esc cancel")]), height=1)
    return Frame(HSplit([body, hint]), style="class:overlay")


def _first_focusable(container: Any) -> Window | None:
    for item in walk(container):
        if isinstance(item, Window) and item.content.is_focusable():
            return item
    return None


async def run_alone(dialog: Dialog) -> Any:
    """``dialog`` as an app of its own, before the terminal app is drawn (the trust
    question, the session picker); erased once answered. Its answer, or its default."""
    from prompt_toolkit.application import Application
    from prompt_toolkit.layout import Layout

    from hookline.modes.tui.style import app_style, startup_theme

    app: Application[None] = Application(
        layout=Layout(dialog.container, focused_element=dialog.focus),
        full_screen=False,
        erase_when_done=True,
        style=app_style(startup_theme()),
    )
    app.ttimeoutlen = 0.05
    # The answer ends the app in the same key press, so its last frame is erased cleanly.
    dialog.future.add_done_callback(lambda _: app.exit() if app.is_running else None)
    await app.run_async()
    return dialog.future.result() if dialog.future.done() else dialog.default


class DialogHost:
    """Shows dialogs one at a time; runs their countdowns and signal watchers."""

    def __init__(self, on_change: Callable[[], None]) -> None:
        self._queue: list[Dialog] = []
        self._on_change = on_change

    @property
    def current(self) -> Dialog | None:
        return self._queue[0] if self._queue else None

    def cancel_all(self) -> None:
        """The app is closing: every dialog answers its default."""
        for dialog in list(self._queue):
            dialog.finish(dialog.default)

    async def run(self, dialog: Dialog) -> Any:
        self._queue.append(dialog)
        watchers = []
        if dialog.signal is not None:
            watchers.append(asyncio.ensure_future(self._watch_signal(dialog, dialog.signal)))
        try:
            if self._queue[0] is dialog:
                self._shown(dialog)
            return await dialog.future
        finally:
            for task in watchers:
                task.cancel()
            first = self._queue and self._queue[0] is dialog
            self._queue.remove(dialog)
            if first and self._queue:
                self._shown(self._queue[0])
            self._on_change()

    def _shown(self, dialog: Dialog) -> None:
        if dialog.timeout is not None:
            task = asyncio.ensure_future(self._countdown(dialog, dialog.timeout))
            dialog.future.add_done_callback(lambda _: task.cancel())
        self._on_change()

    async def _countdown(self, dialog: Dialog, timeout: float) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not dialog.done:
            left = deadline - loop.time()
            if left <= 0:
                dialog.finish(dialog.default)
                return
            dialog.remaining = math.ceil(left)
            self._on_change()
            await asyncio.sleep(min(left, left - math.floor(left) or 1.0))

    async def _watch_signal(self, dialog: Dialog, signal: asyncio.Event) -> None:
        await signal.wait()
        dialog.finish(dialog.default)
