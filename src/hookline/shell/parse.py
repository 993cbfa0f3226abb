"""The public entry: :func:`parse_command`."""

from __future__ import annotations

from hookline.shell.analysis import Analysis, Context
from hookline.shell.model import MAX_LENGTH, ParsedCommandLine, ShellParseError
from hookline.shell.walker import walk_script


def parse_command(text: str, *, strict: bool = False) -> ParsedCommandLine:
    """The simple commands ``text`` would run; ``strict`` raises :class:`ShellParseError`
    instead of returning an unparsable result."""
    if not isinstance(text, str):
        raise TypeError(f"parse_command expects str, not {type(text).__name__}")
    if len(text) > MAX_LENGTH:
        result = ParsedCommandLine(text, (), (f"command line longer than {MAX_LENGTH} characters",))
    else:
        analysis = Analysis(text)
        try:
            walk_script(analysis, text, Context())
        except RecursionError:  # a safety net: the depth limits should stop well before
            analysis.problems.append("command line nested too deeply to analyse")
        result = ParsedCommandLine(
            text,
            tuple(analysis.commands),
            tuple(analysis.problems),
            tuple(dict.fromkeys(analysis.assigned)),
        )
    if strict and result.unparsable:
        raise ShellParseError(result.problems)
    return result
