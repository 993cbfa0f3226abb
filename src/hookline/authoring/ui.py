"""``ScriptedUI``: dialogs answered from a script, for tests and ``hookline hooks test``.

``ui.answer("confirm", True)`` queues the answer of the next ``confirm``;
``ui.time_out("select")`` makes the next ``select`` end as its timeout would
(its default answer). A dialog nothing was queued for answers what a mode
without a UI answers (``None``, ``False``). Every dialog is recorded in
``asked``, every notification in ``notifications``.

``ctx.ui.custom`` shows its component to the test (``await ui.next_component()``,
a ``ShownComponent`` to render, press keys on and read ``done``'s value from); a
``custom`` answer queued with ``ui.answer("custom", value)`` closes the next one at
once with ``value``.

``ctx.ui.set_editor_component(factory)`` builds the hook's editor at once, as the
terminal app would (``ui.prompt_editor``, a ``ShownComponent`` to press keys on);
what its Enter submits is recorded in ``ui.submitted``.

``ctx.ui.theme`` is plain (text unchanged, easy to assert on); ``set_theme``
switches by name and stays plain, or to a given ``Theme`` as it is (to test colours).
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from hookline.authoring.shown import ShownComponent
from hookline.components.overlay_stack import OverlayStack
from hookline.core.ui import NoUI, OverlayPlacement, StatusLine

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from hookline.core.theme import Theme, ThemeInfo, ThemeResult

DialogKind = Literal["select", "confirm", "input", "editor", "custom"]
_KINDS: tuple[DialogKind, ...] = ("select", "confirm", "input", "editor", "custom")
_TIMED_OUT = object()


@dataclass(frozen=True, slots=True)
class Dialog:
    """One dialog a hook opened: its kind, title, the options or text it offered, the answer."""

    kind: DialogKind
    title: str
    detail: Any
    timeout: float | None
    answer: Any
    timed_out: bool = False


class ScriptedUI(NoUI):
    """A UI whose dialogs answer from queued answers (see the module doc)."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[Dialog] = []
        self._queued: dict[str, deque[Any]] = {kind: deque() for kind in _KINDS}
        self._theme: Theme | None = None
        #: a coloured theme's escapes stay, as in the terminal app
        self.status = StatusLine(keep_style=True)
        #: Every component ``custom`` showed, in order.
        self.components: list[ShownComponent] = []
        self._shown = asyncio.Condition()
        #: The terminal size components are drawn for.
        self.columns, self.rows = 80, 24
        #: The overlays shown (``custom(..., overlay=True)`` and ``tui.show_overlay``).
        self.overlays = OverlayStack(lambda: (self.columns, self.rows))
        #: The editor a hook put in place of the prompt (``set_editor_component``).
        self.prompt_editor: ShownComponent | None = None
        #: What that editor submitted, in order (the terminal app would send it).
        self.submitted: list[str] = []

    @property
    def theme(self) -> Theme:
        return self._theme or super().theme

    def set_theme(self, theme: str | Theme) -> ThemeResult:
        from hookline.core.theme import ThemeError, ThemeResult, theme_by_name

        try:
            self._theme = theme_by_name(theme, "plain") if isinstance(theme, str) else theme
        except ThemeError as exc:
            return ThemeResult(False, str(exc))
        return ThemeResult(True)

    def get_theme(self, name: str) -> Theme | None:
        from hookline.core.theme import ThemeError, theme_by_name

        try:
            return theme_by_name(name, "plain")
        except ThemeError:
            return None

    def get_all_themes(self) -> list[ThemeInfo]:
        from hookline.core.theme import available_themes

        return available_themes()

    def answer(self, kind: DialogKind, *answers: Any) -> ScriptedUI:
        """Queue the answers of the next dialogs of ``kind``, in order."""
        self._check(kind)
        for value in answers:
            if kind == "confirm" and not isinstance(value, bool):
                raise TypeError(f"a confirm answer is True or False, not {value!r}")
            self._queued[kind].append(value)
        return self

    def time_out(self, kind: DialogKind) -> ScriptedUI:
        """The next dialog of ``kind`` ends as if its ``timeout`` passed (its default answer)."""
        self._check(kind)
        self._queued[kind].append(_TIMED_OUT)
        return self

    def pending(self) -> dict[str, list[Any]]:
        """Answers queued but never asked for (a test may assert this is empty)."""
        return {k: list(q) for k, q in self._queued.items() if q}

    @staticmethod
    def _check(kind: str) -> None:
        if kind not in _KINDS:
            raise ValueError(f"unknown dialog {kind!r}: one of {', '.join(_KINDS)}")

    def _next(
        self, kind: DialogKind, title: str, detail: Any, timeout: float | None, default: Any
    ) -> Any:
        queue = self._queued[kind]
        value = queue.popleft() if queue else default
        timed_out = value is _TIMED_OUT
        if timed_out:
            value = default
        elif kind == "select" and value is not None and value not in detail:
            raise AssertionError(f"scripted select answer {value!r} is not among {list(detail)}")
        self.asked.append(Dialog(kind, title, detail, timeout, value, timed_out))
        return value

    async def select(
        self,
        title: str,
        options: Sequence[str],
        *,
        timeout: float | None = None,
        signal: asyncio.Event | None = None,
        descriptions: Mapping[str, str] | None = None,
    ) -> str | None:
        answer: str | None = self._next("select", title, list(options), timeout, None)
        return answer

    async def confirm(
        self,
        title: str,
        message: str,
        *,
        timeout: float | None = None,
        signal: asyncio.Event | None = None,
    ) -> bool:
        answer: bool = self._next("confirm", title, message, timeout, False)
        return answer

    async def input(
        self,
        title: str,
        placeholder: str | None = None,
        *,
        timeout: float | None = None,
        signal: asyncio.Event | None = None,
    ) -> str | None:
        answer: str | None = self._next("input", title, placeholder, timeout, None)
        return answer

    async def editor(
        self,
        title: str,
        prefill: str | None = None,
        *,
        timeout: float | None = None,
        signal: asyncio.Event | None = None,
        prompt_style: bool | None = None,
    ) -> str | None:
        answer: str | None = self._next("editor", title, prefill, timeout, None)
        return answer

    async def custom(
        self,
        factory: Callable[..., Any],
        *,
        overlay: bool = False,
        **placement: Unpack[OverlayPlacement],
    ) -> Any:
        """Build the component and wait until the test closes it (or a queued answer)."""
        from hookline.components import OverlayOptions, default_keybindings, is_component_factory

        options = OverlayOptions.from_placement(placement)  # wrong options fail as in the app
        shown = ShownComponent(overlay, dict(placement), self.columns, self.rows, self.overlays)
        if is_component_factory(factory):
            shown.component = factory(shown, self.theme, default_keybindings(), shown.finish)
        else:
            shown.component = factory(shown.finish)
        queue = self._queued["custom"]
        if queue:
            value = queue.popleft()
            shown.finish(None if value is _TIMED_OUT else value)
        if shown.component is None:
            shown.finish(None)
        handle = None
        if overlay and shown.component is not None and not shown.done:
            handle = self.overlays.show(shown.component, options, on_removed=shown.finish)
            on_handle = placement.get("on_handle")
            if on_handle is not None:
                on_handle(handle)
        async with self._shown:
            self.components.append(shown)
            self._shown.notify_all()
        try:
            value = await shown.future
        finally:
            if handle is not None:
                handle.hide()
        self.asked.append(Dialog("custom", "", shown, None, value))
        return value

    def set_editor_component(self, factory: Callable[..., Any] | None) -> None:
        """Build the hook's editor now (``None``: back to no editor of a hook's)."""
        from hookline.components import EditorTheme, default_keybindings

        if factory is None:
            self.prompt_editor = None
            return
        shown = ShownComponent(False, {}, self.columns, self.rows, self.overlays)
        editor = factory(shown, EditorTheme(), default_keybindings())

        def submit(text: str) -> None:  # as the app sends: recorded, remembered, cleared
            if text.strip():
                self.submitted.append(text)
                if callable(getattr(editor, "add_to_history", None)):
                    editor.add_to_history(text)
                editor.set_text("")

        editor.on_submit = submit
        shown.component = editor
        self.prompt_editor = shown

    async def next_component(self, timeout: float = 5.0) -> ShownComponent:
        """The next component ``custom`` shows (one already shown and still open first)."""

        def open_one() -> ShownComponent | None:
            return next((c for c in self.components if not c.done and not c.seen), None)

        async with self._shown:
            await asyncio.wait_for(self._shown.wait_for(lambda: open_one() is not None), timeout)
            found = open_one()
            assert found is not None
            found.seen = True
            return found
