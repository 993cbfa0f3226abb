"""Which simple commands only read: the programs and subcommands a mode may run unasked.

A bash line runs unasked, in every permission mode, only when every simple
command :func:`~hookline.shell.parse_command` sees in it, through wrappers, is
read-only (:func:`read_only_line`) and the files it names (:func:`path_words`)
lie inside the working directories, which the caller checks. A command is
read-only when its program is a bare name (or in ``/bin``, ``/usr/bin``) listed
in :data:`READ_ONLY_PROGRAMS`,
its arguments pass that program's check (no ``sort -o``, ``find -exec``, ``sed
w``, ``git -c``…), it is inside no wrapper but :data:`SAFE_WRAPPERS`, sets no
variable but :data:`SAFE_VARIABLES`, holds no word known only at run time, and
reads no redirection from a device (``< /dev/tcp/host/port`` connects). Where a
program has writing or code-running options its arguments are checked against
the options it may take: an unknown option fails closed.

``acceptEdits`` also runs the filesystem commands of :data:`FILESYSTEM_PROGRAMS`;
:func:`filesystem_operands` gives the paths such a command touches, for the
caller to test against the working directories, in a line that
:func:`runs_as_written`.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from hookline.shell.model import ParsedCommandLine, SimpleCommand
from hookline.shell.variables import search_path_problem

__all__ = [
    "FILESYSTEM_PROGRAMS",
    "GIT_READ_ONLY",
    "NO_PATHS",
    "READ_ONLY_PROGRAMS",
    "SAFE_VARIABLES",
    "SAFE_WRAPPERS",
    "Args",
    "filesystem_operands",
    "path_words",
    "read_only",
    "read_only_commands",
    "read_only_line",
    "runs_as_written",
]


@dataclass(frozen=True, slots=True)
class Args:
    """What a program's arguments may hold.

    With ``allowed`` unset, any option but the ``forbidden`` ones: ``-o`` is a short
    option (also inside a cluster such as ``-uo``), ``--output`` a long one (also as
    any abbreviation, ``--out=f``, which GNU getopt and git accept), ``-exec`` a
    word (``find``). With ``allowed`` set, only those options as written
    (``--opt=value`` by its name), ``valued`` ones taking the next word. ``operands``
    caps the non-option words; ``check`` is a last test of all the arguments.
    """

    forbidden: tuple[str, ...] = ()
    words: frozenset[str] = frozenset()
    allowed: frozenset[str] | None = None
    valued: frozenset[str] = frozenset()
    operands: int | None = None
    check: Callable[[Sequence[str]], bool] | None = None

    def accepts(self, args: Sequence[str]) -> bool:
        """Whether ``args`` hold only what this program may be given unasked."""
        operands = _operands(self, args)
        if operands is None:
            return False
        if self.operands is not None and len(operands) > self.operands:
            return False
        return self.check is None or self.check(args)


_ANY = Args()


def _operands(spec: Args, args: Sequence[str]) -> list[str] | None:
    """The non-option words of ``args``, or None when an option is not allowed."""
    operands: list[str] = []
    skip = False
    ended = False
    for arg in args:
        if skip:
            skip = False
            continue
        if ended or arg == "-" or not arg.startswith("-"):
            operands.append(arg)
            continue
        if arg == "--":
            ended = spec.allowed is not None  # a deny-list keeps looking: not every
            continue  # program honours ``--``
        if arg in spec.words or _forbidden(spec.forbidden, arg):
            return None
        if spec.allowed is None:
            continue
        name = arg.partition("=")[0] if arg.startswith("--") else arg
        if name not in spec.allowed:
            return None
        skip = arg in spec.valued
    return operands


def _forbidden(options: Sequence[str], arg: str) -> bool:
    if arg.startswith("--"):
        name = arg[2:].partition("=")[0]
        return any(o.startswith("--") and o[2:].startswith(name) for o in options)
    letters = arg[1:]
    return any(len(o) == 2 and o[1] in letters for o in options)


def _flags(*names: str) -> frozenset[str]:
    return frozenset(names)


# -- per-program checks -----------------------------------------------------------

#: ``s/a/b/g``, ``5p``, ``1,10p``, ``$p``, ``/re/p``, ``5q``: one command that prints or
#: substitutes, with no ``w``/``e`` flag and no second command after ``;``.
_SED_SCRIPT = re.compile(
    r"""(?:
        (?:[0-9]+|\$)(?:,(?:[0-9]+|\$))?[pdq]?  # addresses, then print, delete or quit
      | /[^/\\;\n]*/[pd]                       # a regex address, print or delete
      | s/[^/\\;\n]*/[^/\\;\n]*/[gpiI0-9]*   # a substitution without w or e
    )\Z""",
    re.VERBOSE,
)
_SED_VALUED = _flags("-e", "--expression", "-l", "--line-length")
_SED_FLAGS = _flags(
    *("-n", "--quiet", "--silent", "-E", "-r", "--regexp-extended", "-z", "--null-data"),
    *("-s", "--separate", "-u", "--unbuffered", "--posix", "--debug", *_SED_VALUED),
)
_SED_IN_PLACE = _flags("-i", "--in-place")


def _sed_parts(args: Sequence[str], in_place: bool) -> tuple[list[str], list[str]] | None:
    """A sed call's scripts and files, or None when it may write or run code."""
    allowed = _SED_FLAGS | _SED_IN_PLACE if in_place else _SED_FLAGS
    spec = Args(allowed=allowed, valued=_SED_VALUED)
    operands = _operands(spec, args)
    # ``--in-place=SUFFIX`` keeps a backup where SUFFIX says: ``../x/*`` is outside
    if operands is None or any(arg.startswith("--in-place=") for arg in args):
        return None
    scripts = [args[i + 1] for i, arg in enumerate(args[:-1]) if arg in ("-e", "--expression")]
    scripts += [arg.partition("=")[2] for arg in args if arg.startswith("--expression=")]
    if not scripts:
        if not operands:
            return None
        scripts, operands = [operands[0]], operands[1:]
    if not all(_SED_SCRIPT.match(script.strip()) for script in scripts):
        return None
    return scripts, operands


def _sed_reads(args: Sequence[str]) -> bool:
    return _sed_parts(args, in_place=False) is not None


#: ``git`` options before the subcommand that change nothing but paging and locking.
_GIT_GLOBAL = _flags("--no-pager", "-P", "--no-optional-locks")
#: Options of the diff family that write a file or run a program the line names
#: (``--show-signature`` runs gpg, which writes ``~/.gnupg``).
_GIT_DIFF_FORBIDDEN = ("--output", "--ext-diff", "--show-signature")


def _no_signature(args: Sequence[str]) -> bool:
    """No format shows a signature's check (``%G?``, ``%(signature)``): it runs gpg."""
    return not any("%G" in arg or "%(signature" in arg for arg in args)


_GIT_LOG = Args(forbidden=_GIT_DIFF_FORBIDDEN, check=_no_signature)


def _first_is(*words: str) -> Callable[[Sequence[str]], bool]:
    return lambda args: not args or args[0] in words


def _listing(args: Sequence[str]) -> bool:
    """``git branch``/``git tag`` list: patterns only after ``--list``/``-l``."""
    spec_words = [a for a in args if not a.startswith("-")]
    return not spec_words or "--list" in args or "-l" in args


_GIT_BRANCH = Args(
    allowed=_flags(
        *("-a", "--all", "-r", "--remotes", "-v", "-vv", "--verbose", "-l", "--list"),
        *("--show-current", "--color", "--no-color", "--column", "--no-column", "-i"),
        *("--ignore-case", "--merged", "--no-merged", "--contains", "--no-contains"),
        *("--points-at", "--sort", "--format", "--omit-empty", "--abbrev", "--no-abbrev"),
    ),
    check=lambda args: _listing(args) and _no_signature(args),
)
_GIT_TAG = Args(
    allowed=_flags(
        *("-l", "--list", "-n", "--sort", "--contains", "--no-contains", "--points-at"),
        *("--merged", "--no-merged", "--format", "--column", "--no-column", "-i"),
        *("--ignore-case", "--color", "--omit-empty"),
    ),
    check=lambda args: _listing(args) and _no_signature(args),
)

#: git subcommands that only read the repository, with their argument checks.
GIT_READ_ONLY: Mapping[str, Args] = {
    "status": _ANY,
    "log": _GIT_LOG,
    "show": _GIT_LOG,
    "diff": Args(forbidden=_GIT_DIFF_FORBIDDEN),
    "whatchanged": _GIT_LOG,
    "shortlog": _GIT_LOG,
    "blame": _ANY,
    "branch": _GIT_BRANCH,
    "tag": _GIT_TAG,
    "remote": Args(allowed=_flags("-v", "--verbose"), operands=0),
    "rev-parse": _ANY,
    "rev-list": _ANY,
    "ls-files": _ANY,
    "ls-tree": _ANY,
    "cat-file": _ANY,
    "describe": _ANY,
    "merge-base": _ANY,
    "show-ref": _ANY,
    "for-each-ref": Args(check=_no_signature),
    "name-rev": _ANY,
    "count-objects": _ANY,
    "check-ignore": _ANY,
    "check-attr": _ANY,
    "grep": Args(forbidden=("-O", "--open-files-in-pager")),
    "reflog": Args(check=_first_is("show")),
    "stash": Args(check=lambda args: bool(args) and args[0] in ("list", "show")),
    "worktree": Args(check=lambda args: bool(args) and args[0] == "list"),
    "version": _ANY,
}


#: What no git subcommand may take: not only the diff family writes ``--output`` (``git
#: blame``, ``rev-list``, ``reflog show``, ``stash list`` parse the same options).
_GIT_ANY = Args(forbidden=_GIT_DIFF_FORBIDDEN, check=_no_signature)


def _git(args: Sequence[str]) -> bool:
    index = 0
    while index < len(args) and args[index] in _GIT_GLOBAL:
        index += 1
    if index == len(args):
        return False
    sub = GIT_READ_ONLY.get(args[index])
    rest = args[index + 1 :]
    return sub is not None and sub.accepts(rest) and _GIT_ANY.accepts(rest)


def _date_format(args: Sequence[str]) -> bool:
    """``date +%F``: an operand is a format; ``date 0101…`` sets the clock."""
    operands = _operands(_DATE_FLAGS, args)
    return operands is not None and all(op.startswith("+") for op in operands)


_DATE_FLAGS = Args(
    allowed=_flags(
        *("-u", "--utc", "--universal", "-R", "--rfc-email", "-I", "--iso-8601"),
        *("--rfc-3339", "-d", "--date", "-r", "--reference", "--debug"),
    ),
    valued=_flags("-d", "--date", "-r", "--reference"),
)

#: ``md5sum -c LIST`` reads the files LIST names.
_SUMS = Args(forbidden=("-c", "--check"))


#: jq's module directives and builtins that read a file its program names, in any
#: folder (``import "config" as $c {search: "~/.docker"}`` reads a JSON file of HOME).
_JQ_MODULES = ("import", "include", "modulemeta")


def _jq_reads_no_module(args: Sequence[str]) -> bool:
    """No word of a jq call names a module: a program file (``-f``) may hold one too."""
    return not any(word in arg for arg in args for word in _JQ_MODULES)


def _ls_stays(args: Sequence[str]) -> bool:
    """``ls -R`` walks folders, ``-L`` follows links: together they leave the folder."""
    short = "".join(a[1:] for a in args if a.startswith("-") and not a.startswith("--"))
    walks = "R" in short or any(a == "--recursive" for a in args)
    follows = "L" in short or any(a.startswith("--dereference") for a in args)
    return not (walks and follows)


#: Programs that only read, each with the check its arguments must pass. Not here on
#: purpose: pagers and editors (``less``, ``more``, ``man``, ``vi``: they run
#: shells), ``awk`` (``system()``), ``xargs``, ``tee``, ``xxd`` (writes its second
#: operand), interpreters, network clients.
#: Not listed although they only read: ``env``, ``printenv`` and ``ps`` (``ps e``) print
#: the environment, where API keys live; the model would read them unasked.
READ_ONLY_PROGRAMS: Mapping[str, Args] = {
    **dict.fromkeys(
        (
            *("cat", "head", "tail", "wc", "nl", "tac", "rev", "cut", "paste", "tr"),
            *("fold", "fmt", "column", "expand", "unexpand", "comm", "cmp"),
            *("od", "hexdump", "strings", "stat", "df", "dir", "vdir"),
            *("pwd", "whoami", "id", "groups", "uname", "nproc", "basename", "dirname"),
            *("realpath", "readlink", "true", "false", "echo", "test", "["),
            *("seq", "which", "type", "expr", "sleep", "getconf", "locale"),
            "tsort",
            *("egrep", "fgrep", "free", "uptime"),
        ),
        _ANY,
    ),
    # options that read the files a file names, or follow links out of the folder walked
    **dict.fromkeys(("md5sum", "sha1sum", "sha256sum", "sha512sum", "b2sum", "cksum"), _SUMS),
    "wc": Args(forbidden=("--files0-from",)),
    "du": Args(forbidden=("--files0-from", "-L", "--dereference")),
    "grep": Args(forbidden=("-R", "--dereference-recursive")),
    "diff": Args(forbidden=("-r", "--recursive")),  # follows the links it meets
    "ls": Args(check=_ls_stays),
    # one folder: a bare ``cd`` goes to $HOME, ``cd -`` to $OLDPWD
    "cd": Args(check=lambda args: len(args) == 1 and not args[0].startswith("-")),
    "printf": Args(forbidden=("-v",)),  # ``printf -v PATH …`` sets a variable
    "sort": Args(forbidden=("-o", "--output", "--compress-program", "--files0-from")),
    "uniq": Args(operands=1),  # a second operand is the file it writes
    "tree": Args(forbidden=("-o", "--output", "-R", "-l", "--followlinks", "--fromfile")),
    "file": Args(forbidden=("-C", "--compile", "-f", "--files-from")),
    "rg": Args(forbidden=("--pre", "--hostname-bin", "-L", "--follow")),
    "find": Args(
        words=_flags(
            *("-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0"),
            *("-fprintf", "-fls", "-L", "-follow", "-files0-from"),
        )
    ),
    "sed": Args(check=_sed_reads),
    "jq": Args(forbidden=("-f", "--from-file", "-L", "--library-path"), check=_jq_reads_no_module),
    "git": Args(check=_git),
    "date": Args(check=_date_format),
    # bare: ``-f``, ``-d``, ``-i``, ``-A``… look the name up in DNS (the network)
    "hostname": Args(allowed=frozenset(), operands=0),
    "command": Args(allowed=_flags("-v", "-V")),  # ``command -v ls``: a lookup
}

#: Read-only programs none of whose words name a file they read (a path given to
#: ``echo`` is only printed): every word of the others may be a path, which the
#: caller holds to the working directories as Claude Code does.
NO_PATHS = frozenset(
    {
        *("echo", "printf", "seq", "expr", "true", "false", "sleep"),
        *("uname", "whoami", "id", "groups", "nproc", "hostname", "type", "which"),
        *("command", "locale", "getconf", "pwd", "free", "uptime"),
        *("basename", "dirname"),
    }
)


def path_words(command: SimpleCommand) -> tuple[str, ...]:
    """The words of a read-only command that may name a file it reads: every argument
    but options, the value of ``--opt=value``, and each tail of a short option cluster,
    one of which may be a value (``-fFILE``, ``-nmFILE``; none for :data:`NO_PATHS`)."""
    if command.name in NO_PATHS:
        return ()
    words: list[str] = []
    for arg in command.args:
        if arg.startswith("--"):
            value = arg.partition("=")[2]
            if value:
                words.append(value)
        elif arg.startswith("-") and len(arg) > 2:
            words.extend(arg[index:] for index in range(2, len(arg)))
        elif not arg.startswith("-"):
            words.append(arg)
    return tuple(words)


#: Wrappers a read-only command may sit in, with what their own options may hold
#: (GNU ``time -o`` writes a file).
SAFE_WRAPPERS: Mapping[str, Args] = {
    "time": Args(forbidden=("-o", "--output", "-a", "--append")),
    "nice": _ANY,
    "timeout": _ANY,
    "stdbuf": _ANY,
    "command": _ANY,
}

#: Variables a read-only command may be given (``LC_ALL=C sort``): locale and display.
SAFE_VARIABLES = frozenset(
    {
        *("LANG", "LANGUAGE", "LC_ALL", "LC_COLLATE", "LC_CTYPE", "LC_MESSAGES"),
        *("LC_NUMERIC", "LC_TIME", "TZ", "NO_COLOR", "COLUMNS"),
    }
)

#: Where a program given by path must sit (``./ls`` may be a file of the project).
_SYSTEM_DIRS = frozenset({"/bin", "/usr/bin"})


def _known_program(command: SimpleCommand) -> bool:
    """Named by a bare name looked up in a search path of absolute folders (the bash tool
    runs with this process's environment), or by a path in a system folder."""
    if command.program_dynamic:
        return False
    if "/" in command.program:
        return posixpath.dirname(command.program) in _SYSTEM_DIRS
    return search_path_problem("PATH", os.environ.get("PATH", "")) is None


def _wrapped_safely(command: SimpleCommand) -> bool:
    """Each wrapper is a safe one, and its own options pass its check."""
    argvs = command.wrapper_argvs
    if len(argvs) != len(command.wrappers):
        return False
    for index, (label, argv) in enumerate(zip(command.wrappers, argvs, strict=True)):
        spec = SAFE_WRAPPERS.get(label)
        inner = argvs[index + 1] if index + 1 < len(argvs) else command.argv
        if spec is None or not argv or len(argv) < len(inner) or argv[-len(inner) :] != inner:
            return False
        if not spec.accepts(argv[1 : len(argv) - len(inner)]):
            return False
    return True


def _reads_safely(command: SimpleCommand) -> bool:
    """No redirection writes, and none reads a device (``< /dev/tcp/…`` connects) or a
    place known only at run time."""
    for redirection in command.redirections:
        if redirection.writes_file or redirection.dynamic:
            return False
        target = redirection.target or ""
        if redirection.op == "<>" or (target.startswith("/dev/") and target != "/dev/null"):
            return False
    return True


def _plain(command: SimpleCommand) -> bool:
    """Known before it runs, wrapped and given variables only harmlessly."""
    return (
        bool(command.argv)
        and not command.dynamic
        and _known_program(command)
        and set(command.assignments) <= SAFE_VARIABLES
        and _wrapped_safely(command)
    )


def read_only(command: SimpleCommand) -> bool:
    """Whether ``command`` only reads: a listed program whose arguments pass its check,
    known before it runs, with no redirection that writes or reads a device."""
    spec = READ_ONLY_PROGRAMS.get(command.name)
    return (
        spec is not None
        and _plain(command)
        and _reads_safely(command)
        and spec.accepts(command.args)
    )


def runs_as_written(line: ParsedCommandLine) -> bool:
    """Whether each command of ``line`` runs what it names: the line could be analysed
    and sets no variable outside a command (``PATH=/x; ls``, ``IFS=…``)."""
    return not line.unparsable and not line.assigned


def read_only_commands(
    line: ParsedCommandLine, *, untrusted_repository: bool = False
) -> tuple[bool, ...]:
    """For each simple command of ``line``, whether it is :func:`read_only` there: all
    false when the line does not :func:`runs_as_written`. ``untrusted_repository``:
    the repository of the working directory may make git run a program it names or
    read another one (:func:`hookline.shell.git_repository.untrusted_repository`), so
    no ``git`` is."""
    names = {command.name for command in line.commands}
    if not runs_as_written(line) or {"cd", "git"} <= names:
        return (False,) * len(line.commands)
    verdicts = tuple(read_only(command) for command in line.commands)
    # git runs what the configuration of the repository it finds says (``core.fsmonitor``):
    # only that of the working directory (not one a ``cd`` reaches), vetted, and not one
    # the line itself may write first (``cp x .git/config && git status`` in acceptEdits)
    writes = any(
        (command.name in FILESYSTEM_PROGRAMS and not verdict)
        or any(redirection.writes_file for redirection in command.redirections)
        for command, verdict in zip(line.commands, verdicts, strict=True)
    )
    git_runs_its_own = untrusted_repository or writes
    return tuple(
        verdict and not (command.name == "git" and git_runs_its_own)
        for command, verdict in zip(line.commands, verdicts, strict=True)
    )


def read_only_line(line: ParsedCommandLine, *, untrusted_repository: bool = False) -> bool:
    """Whether a whole line only reads: every simple command in it is read-only there."""
    verdicts = read_only_commands(line, untrusted_repository=untrusted_repository)
    return bool(verdicts) and all(verdicts)


# -- acceptEdits --------------------------------------------------------------------

_TARGET = _flags("-t", "--target-directory")

#: Filesystem commands ``acceptEdits`` runs unasked when every path they touch is in
#: the working directories: the options each may take (``-t DIR`` is a path too).
FILESYSTEM_PROGRAMS: Mapping[str, Args] = {
    "mkdir": Args(
        allowed=_flags("-p", "--parents", "-v", "--verbose", "-m", "--mode"),
        valued=_flags("-m", "--mode"),
    ),
    "touch": Args(
        allowed=_flags("-a", "-c", "-m", "--no-create", "-d", "--date", "-t"),
        valued=_flags("-d", "--date", "-t"),
    ),
    "rm": Args(
        allowed=_flags(
            *("-r", "-R", "-f", "-rf", "-fr", "-Rf", "-fR", "-v", "-d", "--recursive"),
            *("--force", "--verbose", "--dir"),
        )
    ),
    "rmdir": Args(allowed=_flags("-p", "--parents", "-v", "--verbose")),
    "mv": Args(
        allowed=_flags("-f", "-v", "-n", "-T", "--force", "--verbose", "--no-clobber", *_TARGET),
        valued=_TARGET,
    ),
    "cp": Args(
        allowed=_flags(
            *("-r", "-R", "-a", "-f", "-p", "-v", "-n", "-T", "-rf", "-fr", "--recursive"),
            *("--force", "--archive", "--verbose", "--no-clobber", *_TARGET),
        ),
        valued=_TARGET,
    ),
    "sed": Args(check=lambda args: _sed_parts(args, in_place=True) is not None),
}


def _glob_escapes(operand: str) -> bool:
    """A glob may match a symlink: only a last component's glob is followed no further."""
    first = min((operand.find(c) for c in "*?[" if c in operand), default=-1)
    return first >= 0 and "/" in operand[first:]


def filesystem_operands(command: SimpleCommand) -> tuple[str, ...] | None:
    """The paths a filesystem command of :data:`FILESYSTEM_PROGRAMS` touches, as written,
    or None when it is not one ``acceptEdits`` may run unasked (another program, an
    option not listed, a word known only at run time, a redirection, ``~-``…)."""
    spec = FILESYSTEM_PROGRAMS.get(command.name)
    if spec is None or not _plain(command) or command.redirections:
        return None
    if not spec.accepts(command.args):
        return None
    if command.name == "sed":
        parts = _sed_parts(command.args, in_place=True)
        paths = parts[1] if parts is not None else []
    else:
        operands = _operands(spec, command.args) or []
        targets = [command.args[i + 1] for i, arg in enumerate(command.args[:-1]) if arg in _TARGET]
        targets += [arg.partition("=")[2] for arg in command.args if arg.startswith("--target")]
        paths = [*operands, *targets]
    if not paths:
        return None
    for path in paths:
        tilde = path.startswith("~") and not (path == "~" or path.startswith("~/"))
        if tilde or _glob_escapes(path) or ".." in path.split("/"):
            return None
    return tuple(paths)
