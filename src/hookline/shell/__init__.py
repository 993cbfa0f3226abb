"""Command lines as a shell runs them: the simple commands inside, seen through syntax and wrappers.

A permission rule such as ``Bash(echo *)`` is only safe if ``echo hi; rm x``,
``echo $(rm x)`` and ``sudo bash -c 'rm x'`` are seen for what they run.
:func:`parse_command` parses a command line with tree-sitter-bash and lists
every simple command a shell would execute:

- through ``;`` ``&&`` ``||`` ``&``, pipes, subshells and ``{ …; }`` groups,
  ``$(…)``, backticks, process substitution, substitutions inside strings,
  heredocs, ``${x:-$(…)}``, ``[[ … ]]`` and ``$((…))``, ``if``/``for``/
  ``while``/``until``/``case`` conditions and bodies, function bodies;
- through wrappers that run their argument as a command: ``sudo``, ``doas``,
  ``env`` (its ``VAR=val`` become assignments; ``-S`` is split and parsed),
  ``command``, ``builtin``, ``exec``, ``nice``, ``nohup``, ``time``,
  ``timeout``, ``stdbuf``, ``xargs``, ``find -exec/-execdir/-ok/-okdir``,
  ``ionice``, ``chrt``, ``setsid``, ``flock``, ``watch``, ``coproc``,
  ``busybox``/``toybox``, ``chroot``, ``taskset``, ``unbuffer``, ``fakeroot``,
  ``strace``, ``ltrace``, ``valgrind``, ``runuser``, ``setpriv``, ``unshare``,
  ``nsenter``, ``systemd-run``, ``flatpak-spawn``, ``pkexec``, ``firejail``,
  ``bwrap``, ``torsocks``/``torify``, ``proxychains``, ``xvfb-run``,
  ``dbus-run-session``, ``cgexec``, ``gdb --args``, ``script -- cmd``, the
  dynamic loader (``ld-linux-x86-64.so.2 /bin/rm``) and ``trap``;
- into scripts: ``sh``/``bash``/``zsh``/``dash``/``ksh``/``fish -c`` (also
  ``-lc``, ``-ec``, ``-c`` after other flags), ``su -c``, ``runuser -c``,
  ``script -c``, ``sg``, ``ssh host cmd…``, ``flock -c``, ``env -S``,
  ``watch`` and ``eval``, a heredoc or herestring fed to a shell (``bash
  <<'EOF'``, ``sh <<< "…"``, ``source /dev/stdin <<< "…"``), and the value
  of a variable programs run as a command (``GIT_PAGER=…``, ``EDITOR=…``),
  parsed recursively up to a depth limit.

For example::

    >>> from hookline.shell import parse_command
    >>> line = parse_command("FOO=1 sudo rm -rf -- '/x' && echo $(id -u) > out.txt")
    >>> [(c.argv, c.wrappers) for c in line.commands]
    [(['rm', '-rf', '--', '/x'], ['sudo']), (['echo', '$(id -u)'], []), (['id', '-u'], [])]
    >>> line.commands[0].assignments, line.writes, line.unparsable
    ({'FOO': '1'}, ('out.txt',), False)
    >>> parse_command('bash -c "$SCRIPT"').problems
    ('bash -c script is not static: "$SCRIPT"',)

Words are unquoted as the program receives them: ``r\\m``, ``'rm'``, ``"rm"``,
``r""m`` and ``$'\\x72m'`` are all ``rm`` (ANSI-C strings are decoded). A word
whose value the shell decides at run time (``$VAR``, ``$(…)``, brace
expansion ``{a,b}``) keeps its text and is marked dynamic; a glob (``*.py``)
is kept as written and is dynamic only in the program position, where it
makes the program unknown. A leading ``~`` is kept as written.

Scripts for ``sh``, ``dash`` and ``ksh`` are read with bash's grammar too. Where
a POSIX shell differs it mostly does less (no ``$'…'``, no brace expansion,
no ``[[``): it then spells some words differently than listed here.

bash evaluates a variable's value as arithmetic in ``$((…))``, ``$[…]``, ``((…))``,
``for ((…))``, ``${s:off:len}``, array subscripts, ``[[ a -eq b ]]``, ``let`` and
assignments to ``declare -i`` names, and a subscript inside that value runs
``$(…)``. Arithmetic that holds anything but numbers (a name, ``$x``, ``$(…)``)
makes the line unparsable; ``$((1+2))`` and ``${a[0]}`` do not.

Code known only at run time makes the line unparsable: an expansion that
evaluates a variable's value (``${x@P}``, ``${!x}``; the name listings
``${!a[@]}``/``${!prefix*}`` do not), code read from stdin, a file on stdin
or a descriptor (``bash < f``, ``curl … | sh``, ``source /dev/fd/3``, a script
file run while stdin is a pipe), a variable a shell runs as code
(``BASH_ENV``, ``ENV``, ``PS0``-``PS4``, ``PROMPT_COMMAND``, ``SHELLOPTS``,
``BASH_FUNC_f%%``, ``LD_*``, ``GIT_CONFIG*``; ``HOME``/``CDPATH``; ``PATH``
with a relative folder) set in any way, a name handed to a builtin that
evaluates its subscript (``read``, ``printf -v``, ``declare``, ``unset``,
``test -v``, ``[[ -v ]]``, ``getopts``, ``wait -p``, ``mapfile``) holding
``a[$(…)]`` or known only at run time, namerefs, builtins that run a string
(``mapfile -C``, ``compgen``/``complete -C/-F/-W``, ``enable -f``, ``fc``),
``--rcfile``/``--init-file``, interpreters given code inline or on stdin
(``python -c``, ``perl -e``, ``node -e``, ``awk`` with ``system()``, ``sed``
with ``e``), programs given a command in an option (``git -c alias.x=!…``,
``git rebase -x``, ``tar --to-command``, ``rsync -e``, ``ssh -o
ProxyCommand``, ``gdb -ex``, ``make --eval``…) and wrappers whose command
cannot be found for certain (``proot``, ``faketime``, ``parallel``). A
redirection on a function definition (``f() { …; } > .env``) is reported
as a write of that file.

Where tree-sitter-bash is known to misread bash (a backtick inside ``${…}``
or in a heredoc, ``$(…)`` in a ``<<-`` body, ``coproc`` groups), the commands
are still looked for, and the line is reported unparsable.

Text that tree-sitter cannot parse, or that cannot be analysed (too long, too
deeply nested, a ``-c`` script, ``eval`` argument or heredoc fed to a shell
that is not static) gives
``unparsable=True`` with the reasons in ``problems``. Callers fail closed:
never auto-allow an unparsable line. Spans are character offsets into the
text given to :func:`parse_command` (``text[start:end]``).

The package, from the entry down: :mod:`.parse` (:func:`parse_command`) and
:mod:`.model` (what it returns); :mod:`.walker`, the walk over the syntax tree;
:mod:`.commands`, a command's words reported through its wrappers;
:mod:`.wrappers`, one function per program that runs a command it is given
(add a program there); :mod:`.bash_builtins`, :mod:`.variables` and
:mod:`.arithmetic`, code known only at run time; :mod:`.redirections`,
:mod:`.words` and :mod:`.options`, reading the text. :mod:`.readonly` says which
commands only read (the list the permission modes run unasked). Only the names
below, and :mod:`.readonly`'s, are public.
"""

from hookline.shell.model import (
    MAX_LENGTH,
    MAX_SCRIPT_DEPTH,
    ParsedCommandLine,
    Redirection,
    ShellParseError,
    SimpleCommand,
)
from hookline.shell.parse import parse_command

__all__ = [
    "MAX_LENGTH",
    "MAX_SCRIPT_DEPTH",
    "ParsedCommandLine",
    "Redirection",
    "ShellParseError",
    "SimpleCommand",
    "parse_command",
]
