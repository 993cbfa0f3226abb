"""What a hook's renderer or factory hands the terminal app, as something it can draw.

pi's renderers and factories return a *component*: any object with
``render(width) -> list[str]``, lines of ANSI-styled text (pi-tui's contract).
hookline's may also return text (a theme's colours kept) or a rich renderable,
and a widget factory may return a prompt_toolkit container. Factories and
renderers get pi's arguments (``tui``, ``theme``, ...) as far as they take them:
a Python one written for fewer parameters is called with fewer.

Colours and attributes (SGR) survive; every other escape sequence a hook wrote
is removed before it reaches the terminal.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from prompt_toolkit.formatted_text import ANSI
from prompt_toolkit.layout import AnyContainer, FormattedTextControl, Window

from hookline.components import is_component
from hookline.core.ui import strip_all_but_style

if TYPE_CHECKING:
    from rich.console import RenderableType

    from hookline.core.theme import Theme


class LiveTheme:
    """The ``theme`` a factory gets: the app's theme *now*, whichever that is (pi's theme
    is such a proxy), so a component made before ``set_theme`` draws in the new one."""

    def __init__(self, current: Callable[[], Theme]) -> None:
        self._current = current

    def __getattr__(self, name: str) -> Any:
        return getattr(self._current(), name)

    def __repr__(self) -> str:
        return f"LiveTheme({self._current()!r})"


def call_upto(fn: Callable[..., Any], *args: Any) -> Any:
    """``fn`` called with as many of ``args`` as it takes positionally (all of them when
    it takes ``*args``, or when its signature cannot be read)."""
    return fn(*args[: _positional_room(fn, len(args))])


def _positional_room(fn: Callable[..., Any], most: int) -> int:
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return most
    room = 0
    for param in params:
        if param.kind is inspect.Parameter.VAR_POSITIONAL:
            return most
        if param.kind in (inspect.Parameter.POSITIONAL_ONLY, param.POSITIONAL_OR_KEYWORD):
            room += 1
    return min(room, most)


def is_rich(value: Any) -> bool:
    return hasattr(value, "__rich_console__") or hasattr(value, "__rich__")


def component_lines(component: Any, width: int) -> list[str]:
    """The component's lines at ``width``, each cleaned of all but its colours."""
    lines = component.render(width)
    if isinstance(lines, str) or not isinstance(lines, Sequence):
        raise TypeError(f"render(width) must return a list of lines, got {type(lines).__name__}")
    return [strip_all_but_style(str(line)).replace("\n", " ") for line in lines]


def ansi_text(text: str) -> RenderableType:
    """Hook text with a theme's colours, as a rich ``Text`` (other escapes removed)."""
    from rich.text import Text

    return Text.from_ansi(strip_all_but_style(text).expandtabs(4))


def renderable(shown: Any, width: int) -> RenderableType | None:
    """What a tool's or message's renderer returned, for the transcript: text, a rich
    renderable, or a component rendered at ``width``; ``None`` (or anything else) for
    the default rendering. Empty text or no lines draw nothing (``""``)."""
    if isinstance(shown, str):
        return ansi_text(shown)
    if is_rich(shown):
        return shown  # type: ignore[no-any-return]
    if is_component(shown):
        return ansi_text("\n".join(component_lines(shown, width)))
    return None


def one_line(shown: Any, width: int) -> str | None:
    """A call renderer's answer as one line of text (its colours kept), or ``None``."""
    if isinstance(shown, str):
        return strip_all_but_style(shown)
    if is_component(shown):
        return "\n".join(component_lines(shown, width))
    return None


class ComponentWindow(Window):
    """A component drawn at every frame at the app's width: what it shows is live (it
    reads its data when drawn, as pi's footer does). A failing ``render`` shows its error
    instead of ending the app."""

    def __init__(self, component: Any, width: Callable[[], int]) -> None:
        self.component = component
        self._width = width
        super().__init__(
            FormattedTextControl(self._text, style="class:widget"),
            dont_extend_height=True,
            wrap_lines=False,
        )

    def _text(self) -> ANSI:
        from hookline.core.calling import HOOK_FAILURES

        try:
            lines = component_lines(self.component, self._width())
        except HOOK_FAILURES as exc:
            lines = [f"[render failed: {type(exc).__name__}: {exc}]"]
        return ANSI("\n".join(lines))


def lines_window(lines: Sequence[str]) -> Window:
    """Fixed lines of text (a theme's colours kept)."""
    text = "\n".join(strip_all_but_style(str(line)) for line in lines)
    return Window(
        FormattedTextControl(ANSI(text), style="class:widget"),
        dont_extend_height=True,
        wrap_lines=True,
    )


def made_container(made: Any, width: Callable[[], int]) -> AnyContainer:
    """What ``set_widget``/``set_header``/``set_footer`` were given or their factory
    made: lines, a component, or a prompt_toolkit container."""
    if is_component(made):
        return ComponentWindow(made, width)
    if isinstance(made, Sequence) and not isinstance(made, str):
        return lines_window(made)
    if isinstance(made, str):
        return lines_window(made.splitlines())
    return made  # type: ignore[no-any-return]
