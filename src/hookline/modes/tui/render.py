"""Rich renderables to ANSI text, and the blocks the transcript prints.

Every block is rendered once, at a known width, into a string the terminal
app prints above the editor; nothing here touches the screen. Hook-provided
text goes through ``strip_terminal_controls`` first.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from io import StringIO
from typing import TYPE_CHECKING, Any

from hookline.core.ui import strip_all_but_style, strip_terminal_controls
from hookline.tools.elided import elide_lines

if TYPE_CHECKING:
    from rich.console import RenderableType
    from rich.markdown import Markdown
    from rich.text import Text

    from hookline.core.theme import Theme

#: A collapsed tool result: its first and last lines, the count of the rest between them.
COLLAPSED_HEAD_LINES = 5
COLLAPSED_TAIL_LINES = 3
#: Lines of a running tool's output shown live.
LIVE_TAIL_LINES = 6


def to_ansi(renderable: RenderableType, width: int, theme: Theme) -> str:
    """``renderable`` as ANSI text ``width`` columns wide, ending in a newline; its
    named styles (``theme.error``, Markdown's) in ``theme``'s colours."""
    from rich.console import Console

    from hookline.modes.tui.style import rich_styles

    out = StringIO()
    console = Console(
        file=out,
        width=max(width, 20),
        force_terminal=True,
        color_system="256",
        legacy_windows=False,
        soft_wrap=False,
        emoji=False,
        highlight=False,
        theme=rich_styles(theme),
    )
    console.print(renderable)
    return only_styles(out.getvalue())


#: Escape sequences and control characters (``\n`` and ``\t`` are not matched).
_SEQUENCE = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"
    r"|\x1b[PX^_][^\x1b]*(?:\x1b\\)?"
    r"|\x1b[ -/]*[0-~]?"
    r"|\x9b[0-?]*[ -/]*[@-~]"
    r"|[\x00-\x08\x0b-\x1f\x7f-\x9f]"
)
_SGR = re.compile(r"\x1b\[[0-9;]*m")


def only_styles(ansi: str) -> str:
    """``ansi`` with colours and styles (SGR) kept and every other sequence removed.

    A hook's renderer may return a rich renderable holding text it did not clean
    (rich keeps ESC): nothing it returns can move the cursor, clear the screen,
    set the title or reach the clipboard.
    """
    return _SEQUENCE.sub(lambda m: m[0] if _SGR.fullmatch(m[0]) else "", ansi)


def markdown(text: str) -> Markdown:
    """Assistant text: Markdown with highlighted code blocks.

    ``rich.markdown`` (markdown-it, pygments) is imported here, not at start-up:
    the first frame does not wait for it (the app warms it up in a thread).
    """
    from rich.markdown import Markdown

    return Markdown(text, code_theme="monokai", hyperlinks=False)


def styled(content: str = "", style: str = "") -> Text:
    """A rich ``Text``.

    rich is imported on first use, not with this module: the first frame is
    drawn by prompt_toolkit alone, and rich loads after it.
    """
    from rich.text import Text

    return Text(content, style=style)


def drawn(shown: Any) -> RenderableType | None:
    """What a tool's or hook's renderer returned, as something to draw: a string (cleaned)
    or a rich renderable; anything else (``None`` included) is ``None``, the default."""
    if isinstance(shown, str):
        return styled(clean(shown))
    if hasattr(shown, "__rich_console__") or hasattr(shown, "__rich__"):
        return shown  # type: ignore[no-any-return]
    return None


def indented(renderable: RenderableType, left: int) -> RenderableType:
    """``renderable`` shifted ``left`` columns right."""
    from rich.padding import Padding

    return Padding(renderable, (0, 0, 0, left))


def dim_ansi(text: str, width: int, theme: Theme) -> str:
    """``to_ansi(dim(text), width, theme)``, without loading rich for plain text.

    The header is written before the first frame; rich (tens of milliseconds
    to import) loads after it. Plain printable ASCII (and ``·``) in words that
    fit is wrapped here the way rich wraps it; anything else goes to rich.
    """
    text = clean(text)
    width = max(width, 20)
    words = re.findall(r"\S+ ?", text)
    index = theme.color_index("muted")
    if (
        index is None
        or index < 16  # rich writes the system colours its own way
        or not words
        or "".join(words) != text
        or not all(_PLAIN.fullmatch(w) and len(w) <= width for w in words)
    ):
        return to_ansi(dim(text), width, theme)
    lines = [""]
    for word in words:
        if lines[-1] and len(lines[-1] + word.rstrip()) > width:
            lines.append("")
        lines[-1] += word
    lines = [line if len(line) <= width else line.rstrip(" ") for line in lines]
    return "".join(f"\x1b[38;5;{index}m{line}\x1b[0m\n" for line in lines)


_PLAIN = re.compile(r"[\x21-\x7e·]+ ?")


def wrap_words(line: str, width: int) -> list[str]:
    """``line`` cut at spaces into lines of at most ``width`` columns (a longer word is cut);
    its indentation kept on the first. For text prompt_toolkit draws, which wraps anywhere."""
    import textwrap

    return textwrap.wrap(
        line, max(width, 10), break_on_hyphens=False, drop_whitespace=True, tabsize=4
    ) or [""]


def clean(text: str) -> str:
    """Text that came from a model, a tool or a hook, safe to show."""
    return strip_terminal_controls(text).expandtabs(4)


def key_argument(tool_name: str, args: Any) -> str:
    """The one argument that says what a call does (command, path, pattern, ...)."""
    if not isinstance(args, dict):
        return ""
    for key in ("command", "path", "file_path", "pattern", "url", "query"):
        value = args.get(key)
        if isinstance(value, str) and value:
            return value
    for value in args.values():
        if isinstance(value, str) and value:
            return value
    return ""


def one_line(text: str, width: int) -> str:
    """The first line of ``text``, cut with an ellipsis to ``width``."""
    first = text.strip().splitlines()[0] if text.strip() else ""
    return first if len(first) <= width else first[: max(width - 1, 0)] + "…"


def tail(text: str, lines: int) -> list[str]:
    """The last ``lines`` non-trailing lines of ``text``."""
    return text.rstrip("\n").splitlines()[-lines:] if text.strip() else []


def tool_header(
    name: str, args: Any, mark: str, style: str, width: int, call: str | None = None
) -> Text:
    """``mark name  key-argument``; ``call`` is a tool's own ``render_call`` text, drawn in
    its own colours (its first line)."""
    line = styled()
    line.append(f"{mark} ", style=style)
    line.append(clean(name), style="bold")
    room = max(width - len(name) - 6, 10)
    if call is not None:
        from rich.text import Text

        own = Text.from_ansi(strip_all_but_style(call).split("\n", 1)[0].expandtabs(4))
        own.truncate(room, overflow="ellipsis")
        if own.plain.strip():
            line.append("  ")
            line.append_text(own)
        return line
    arg = clean(key_argument(name, args))
    if arg:
        line.append("  " + one_line(arg, room), style="theme.accent")
    return line


def with_body(header: Text, body: RenderableType) -> RenderableType:
    """``header`` with a tool's own rendering under it, indented; an empty one (a
    collapsed "minimal" result) draws the header alone."""
    from rich.console import Group
    from rich.text import Text

    if isinstance(body, Text) and not body.plain.strip():
        return header
    return Group(header, indented(body, 4))


def tool_mark(is_error: bool, blocked: bool) -> tuple[str, str]:
    """The mark and colour of a finished call: blocked, failed or done."""
    if blocked:
        return "⊘", "theme.error.bold"
    if is_error:
        return "✗", "theme.error"
    return "✓", "theme.success"


def tool_block(
    name: str,
    args: Any,
    result: str,
    *,
    is_error: bool,
    blocked: bool,
    width: int,
    expanded: bool = False,
    call: str | None = None,
) -> tuple[RenderableType, bool]:
    """A finished call: header and its result, collapsed when long; and whether it was.

    The result hangs under ``⎿``: a line too long for the terminal wraps
    under its own start, not at the left edge.
    """
    header = tool_header(name, args, *tool_mark(is_error, blocked), width, call)
    lines = clean(result).rstrip("\n").splitlines() or ["(no output)"]
    if blocked:
        lines[0] = f"blocked {lines[0]}"
    summary = elide_lines(lines, COLLAPSED_HEAD_LINES, COLLAPSED_TAIL_LINES)
    collapsed = not expanded and summary.hidden > 0
    style = "theme.error" if (blocked or is_error) else "theme.output"
    rows = [(line, style) for line in lines]
    if collapsed:
        more = (f"{summary.marker} (ctrl+o to expand)", "theme.muted.italic")
        rows = [*((line, style) for line in summary.head), more]
        rows += [(line, style) for line in summary.tail]
    if all(len(line) <= width - 4 for line, _ in rows):  # no line wraps: one plain Text
        for i, (line, line_style) in enumerate(rows):
            header.append("\n  " + ("⎿ " if i == 0 else "  "), style="theme.muted")
            header.append(line, style=line_style)
        return header, collapsed
    body = styled()
    for i, (line, line_style) in enumerate(rows):
        body.append(("\n" if i else "") + line, style=line_style)
    return hanging(header, "  ⎿ ", body), collapsed


def hanging(header: Text, mark: str, body: Text) -> RenderableType:
    """``header``, then ``body`` indented by ``mark``'s width, ``mark`` on its first line;
    a line too long wraps under its own start."""
    from rich.console import Group

    return Group(header, hanging_text(styled(mark, "theme.muted"), body))


def running_tool(
    name: str,
    args: Any,
    output: str,
    spinner: str,
    width: int,
    call: str | None = None,
    lines: int = 0,
    own: RenderableType | None = None,
) -> RenderableType:
    """A call still running: header, how many lines came, and the live tail of its output;
    or the tool's own partial rendering (``own``) under the header.

    ``output`` is already a tail (``keep_tail``): a frame costs the same after
    5 000 lines as after 5.
    """
    block = tool_header(name, args, spinner, "theme.warning", width, call)
    if own is not None:
        return with_body(block, own)
    shown = tail(clean(output), LIVE_TAIL_LINES)
    if lines > len(shown):
        block.append(f"\n    … {lines - len(shown)} lines above", style="theme.muted.italic")
    for text in shown:
        block.append("\n    " + one_line(text, width - 4), style="theme.output")
    return block


#: Source lines of a streaming answer rendered live (the frame shows fewer still).
LIVE_SOURCE_LINES = 16
_FENCE = re.compile(r"(?m)^ {0,3}(`{3,}|~{3,})(.*)$")


def live_source(text: str, lines: int = LIVE_SOURCE_LINES) -> str:
    """The end of a streaming answer, to render live: its last ``lines`` source lines,
    with the code fence reopened when the cut falls inside a code block.

    Rendering the whole answer at each delta would cost more with every line;
    this keeps a frame's Markdown work the same at line 5 000 as at line 5.
    """
    cut = keep_tail(text, lines)
    if len(cut) == len(text):
        return text
    opened: tuple[str, str] | None = None
    for fence, info in _FENCE.findall(text, 0, len(text) - len(cut)):
        if opened is None:
            opened = (fence, info)
        elif fence[0] == opened[0][0] and len(fence) >= len(opened[0]) and not info.strip():
            opened = None
    return cut if opened is None else f"{opened[0]}{opened[1]}\n{cut}"


def keep_tail(text: str, lines: int) -> str:
    """The last ``lines`` complete lines of ``text`` and what follows them."""
    cut = len(text.rstrip("\n"))
    for _ in range(lines):
        cut = text.rfind("\n", 0, cut)
        if cut < 0:
            return text
    return text[cut + 1 :]


def user_block(text: str) -> Text:
    lines = clean(text).splitlines() or [""]
    return styled("\n".join(("› " if i == 0 else "  ") + x for i, x in enumerate(lines)), "bold")


def notice(text: str, kind: str = "info") -> RenderableType:
    """``ℹ text``: wrapped at words, the lines after the first under the text, not the mark."""
    marks = {
        "info": ("ℹ", "theme.accent"),
        "warning": ("⚠", "theme.warning"),
        "error": ("✖", "theme.error"),
    }
    mark, style = marks.get(kind, marks["info"])
    return hanging_text(styled(f"{mark} ", style), styled(clean(text), style))


def printed(text: str) -> Text:
    """A line printed to stdout or stderr while the app runs (a hook's ``print``, a log
    record): shown as written, wrapped at words instead of where the terminal cuts it."""
    return styled(clean(text))


def hanging_text(mark: Text, body: Text) -> RenderableType:
    """``mark`` then ``body``; ``body`` wraps at words in the columns after ``mark``."""
    from rich.table import Table

    grid = Table.grid()
    grid.add_column(width=mark.cell_len, no_wrap=True)
    grid.add_column(overflow="fold")  # only a word longer than the line is cut
    grid.add_row(mark, body)
    return grid


def dim(text: str) -> Text:
    return styled(clean(text), style="theme.muted")


def custom_message(custom_type: str, content: str) -> Text:
    block = styled()
    block.append(f"[{clean(custom_type)}] ", style="theme.label")
    block.append(clean(content))
    return block


def listing(title: str, rows: Sequence[tuple[str, str]]) -> Text:
    """A titled two-column list (``/help``, ``/hooks``, ``/permissions``)."""
    block = styled(title, style="bold")
    left = max((len(a) for a, _ in rows), default=0)
    for a, b in rows:
        block.append("\n  " + a.ljust(left), style="theme.accent")
        if b:
            block.append("  " + clean(b), style="theme.muted")
    return block
