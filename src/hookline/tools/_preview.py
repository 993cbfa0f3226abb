"""How the built-in tools show a call before it runs: a file, a diff, a command line.

Each is a rich renderable a tool's ``meta["render_preview"]`` returns (the
terminal app shows it beside the approval dialog). rich and pygments load
here, when a preview is first drawn, never at start-up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hookline.tools.elided import elide_lines

if TYPE_CHECKING:
    from rich.console import RenderableType

    from hookline.shell.model import ParsedCommandLine

#: Lines of a file or a diff highlighted in a preview; the rest is counted, not drawn.
PREVIEW_MAX_LINES = 2000
#: The highlighting theme (the one the app's Markdown code blocks use).
THEME = "monokai"


def file_preview(path: str, content: str) -> RenderableType:
    """``content`` highlighted as the type of file ``path`` names, with line numbers."""
    from rich.syntax import Syntax

    shown, more = _cut(content)
    lexer = Syntax.guess_lexer(path, shown) if shown else "text"
    code = Syntax(shown or " ", lexer, theme=THEME, line_numbers=True, word_wrap=True)
    return _with_more(code, more)


def diff_preview(diff: str) -> RenderableType:
    """A unified diff, removed lines red and added lines green."""
    from rich.syntax import Syntax

    shown, more = _cut(diff)
    return _with_more(Syntax(shown or " ", "diff", theme=THEME, word_wrap=True), more)


def problem_preview(text: str) -> RenderableType:
    """Why the call will fail as it stands (an edit whose text is not in the file)."""
    from rich.text import Text

    return Text(text, style="red")


def command_preview(command: str, parsed: ParsedCommandLine) -> RenderableType:
    """The whole command line, then the simple commands the permission rules saw in it."""
    from rich.console import Group
    from rich.syntax import Syntax
    from rich.text import Text

    listing = Text()
    listing.append("runs", style="bold")
    for simple in parsed.commands:
        line = " ".join(simple.argv) or "(redirection only)"
        listing.append("\n  • ")
        listing.append(line, style="cyan")
        if simple.wrappers:
            listing.append(f"  via {', '.join(simple.wrappers)}", style="grey50")
    if not parsed.commands:
        listing.append("\n  (nothing)", style="grey50")
    if parsed.writes:
        listing.append("\nwrites  ", style="bold")
        listing.append(", ".join(parsed.writes), style="yellow")
    for problem in parsed.problems:
        listing.append("\nnot analysed: ", style="bold red")
        listing.append(problem, style="red")
    code = Syntax(command, "bash", theme=THEME, word_wrap=True)
    return Group(code, listing)


def _cut(text: str) -> tuple[str, str]:
    """The first ``PREVIEW_MAX_LINES`` lines of ``text`` and what says how many were left
    out (empty when none was)."""
    summary = elide_lines(text.rstrip("\n").splitlines(), PREVIEW_MAX_LINES, 0)
    return "\n".join(summary.head), summary.marker


def _with_more(shown: RenderableType, marker: str) -> RenderableType:
    if not marker:
        return shown
    from rich.console import Group
    from rich.text import Text

    return Group(shown, Text(marker, style="grey50 italic"))
