"""The public entry: :func:`parse_command`."""

from __future__ import annotations

from hookline.shell.analysis import Analysis, Context
from hookline.shell.model import MAX_LENGTH, ParsedCommandLine, ShellParseError
from hookline.shell.walker import walk_script


def parse_command(text: str, *, strict: bool = False) -> ParsedCommandLine:
    """The simple commands ``text`` would run, seen through syntax and wrappers (the
    package's docstring lists what is followed); ``strict`` raises
    :class:`ShellParseError` instead of returning an unparsable result. Never auto-allow
    a line whose result is ``unparsable``.

    Example:

        >>> from hookline.shell import parse_command
        >>> [c.argv for c in parse_command("echo hi; bash -c 'rm -rf build'").commands]
        [['echo', 'hi'], ['rm', '-rf', 'build']]
    """
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
