"""What :func:`~hookline.shell.parse_command` returns: simple commands and their redirections."""

from __future__ import annotations

import posixpath
from collections.abc import Sequence
from dataclasses import dataclass, field

#: Longer text is not parsed: it is reported unparsable.
MAX_LENGTH = 100_000
#: How deep ``bash -c``/``eval`` scripts are followed before the text is unparsable.
MAX_SCRIPT_DEPTH = 8

_OUTPUT_OPS = frozenset({">", ">>", "&>", "&>>", ">|", ">&", "<>"})
_NOT_WRITTEN = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr"})


class ShellParseError(ValueError):
    """Raised by ``parse_command(text, strict=True)`` when the text cannot be analysed;
    ``problems`` says why, as ``ParsedCommandLine.problems`` would.

    Example:

        >>> from hookline.shell import ShellParseError, parse_command
        >>> try:
        ...     parse_command('eval "$X"', strict=True)
        ... except ShellParseError as exc:
        ...     exc.problems
        ('eval script is not static: "$X"',)
    """

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(self.problems) or "unparsable command line")


@dataclass(frozen=True, slots=True)
class Redirection:
    """One redirection: ``op`` as written (``>``, ``>>``, ``<``, ``&>``, ``>|``, ``>&``,
    ``<<``, ``<<<``, …), its unquoted ``target`` (``None`` for heredocs, herestrings
    and ``>&-``), the file descriptor written before the operator, and whether the
    target is decided at run time (``> $FILE``).

    Example:

        >>> from hookline.shell import parse_command
        >>> parse_command("make 2>&1 > build.log").commands[0].redirections
        [Redirection(op='>&', target='1', fd=2, dynamic=False), Redirection(op='>', \
target='build.log', fd=None, dynamic=False)]
    """

    op: str
    target: str | None
    fd: int | None = None
    dynamic: bool = False

    @property
    def writes_file(self) -> bool:
        """True when this opens ``target`` for writing (an fd dup such as ``2>&1`` does not),
        so a rule about which files a command writes sees every one.

        Example:

            >>> from hookline.shell import parse_command
            >>> make = parse_command("make 2>&1 > build.log").commands[0]
            >>> [r.writes_file for r in make.redirections]
            [False, True]
        """
        if self.op not in _OUTPUT_OPS or self.target is None:
            return False
        if self.op == ">&" and (self.target == "-" or self.target.isdigit()):
            return False
        if self.dynamic and self.target.startswith((">(", "<(")):
            return False  # ``> >(cmd)`` writes to a pipe; ``cmd`` is listed as a command
        return self.target not in _NOT_WRITTEN


@dataclass(frozen=True, slots=True)
class SimpleCommand:
    """One program the shell runs, with its arguments as the program receives them.

    ``program`` is the command word unquoted (``/bin/rm`` stays as written;
    :attr:`name` is its basename). ``argv[0]`` is the program. A line holding
    only redirections (``> f``) gives a command with an empty program and argv.
    ``wrappers`` lists what it was found inside, outermost first (``sudo``,
    ``bash -c``, ``eval``, ``xargs``, ``find``), and ``wrapper_argvs`` the full
    argv of each of those wrapper commands (``["sudo", "-u", "root", "rm", "x"]``),
    so a rule can match the wrapper as written. ``dynamic_words`` is parallel to
    ``argv``; ``dynamic`` is true when any word is decided at run time or the
    wrapper adds arguments at run time (``xargs``, ``find -exec``).

    Example:

        >>> from hookline.shell import parse_command
        >>> rm = parse_command("sudo -u root rm -rf $DIR").commands[0]
        >>> rm.argv, rm.wrappers, rm.dynamic_words
        (['rm', '-rf', '$DIR'], ['sudo'], [False, False, True])
    """

    program: str
    argv: list[str]
    assignments: dict[str, str]
    redirections: list[Redirection]
    span: tuple[int, int]
    wrappers: list[str] = field(default_factory=list)
    dynamic: bool = False
    dynamic_words: list[bool] = field(default_factory=list)
    wrapper_argvs: list[list[str]] = field(default_factory=list)

    @property
    def name(self) -> str:
        """The program's basename: ``rm`` for ``/bin/rm``, so one rule sees both.

        Example:

            >>> from hookline.shell import parse_command
            >>> parse_command("/bin/rm x").commands[0].name
            'rm'
        """
        return posixpath.basename(self.program)

    @property
    def args(self) -> list[str]:
        """The arguments after the program.

        Example:

            >>> from hookline.shell import parse_command
            >>> parse_command("git push --force").commands[0].args
            ['push', '--force']
        """
        return self.argv[1:]

    @property
    def program_dynamic(self) -> bool:
        """True when the program itself is unknown until run time (``$CMD``, ``/bin/r?``):
        no rule about a program name can allow it.

        Example:

            >>> from hookline.shell import parse_command
            >>> parse_command("$CMD x").commands[0].program_dynamic
            True
        """
        return bool(self.dynamic_words) and self.dynamic_words[0]

    @property
    def writes(self) -> tuple[str, ...]:
        """Files opened for writing by output redirections (not ``/dev/null``, not ``2>&1``).

        Example:

            >>> from hookline.shell import parse_command
            >>> parse_command("echo hi > out.txt 2>/dev/null").commands[0].writes
            ('out.txt',)
        """
        return tuple(r.target for r in self.redirections if r.writes_file and r.target is not None)


@dataclass(frozen=True, slots=True)
class ParsedCommandLine:
    """Every simple command of a line, in source order, and whether the line could be analysed.

    Example:

        >>> from hookline.shell import parse_command
        >>> line = parse_command("PATH=/tmp; ls | grep x")
        >>> [c.name for c in line.commands], line.assigned, line.unparsable
        (['ls', 'grep'], ('PATH',), False)
    """

    text: str
    commands: tuple[SimpleCommand, ...]
    problems: tuple[str, ...] = ()
    #: Variables the line sets outside any command (``PATH=/x; ls``, ``for IFS in …``):
    #: they change what later commands run or how their words split.
    assigned: tuple[str, ...] = ()

    @property
    def unparsable(self) -> bool:
        """True when some part could not be analysed (``problems`` says why): callers must
        not auto-allow the line.

        Example:

            >>> from hookline.shell import parse_command
            >>> line = parse_command('python -c "import os"')
            >>> line.unparsable, line.problems
            (True, ('python runs inline code: -c',))
        """
        return bool(self.problems)

    @property
    def writes(self) -> tuple[str, ...]:
        """Every file any command of the line writes through a redirection.

        Example:

            >>> from hookline.shell import parse_command
            >>> parse_command("date > a.txt && cat a.txt >> b.txt").writes
            ('a.txt', 'b.txt')
        """
        return tuple(path for command in self.commands for path in command.writes)
