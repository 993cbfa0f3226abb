"""Programs that run a command they are given, seen through: one function per program.

``sudo rm x`` runs ``rm x``; ``bash -c 'rm x'`` runs a script; ``python -c …``
runs code no rule can read. Each program is one function from its words to an
:class:`Unwrapped` (what it runs) or ``None`` (it runs nothing it was given),
registered under the names it is run as in :data:`PROGRAMS`.

To teach the parser a program, write that function in this module and put
``@program("name", …)`` above it. A program read through its options alone
is one line in the table at the end, made by one of the builders here:
:func:`_simple` (``NAME [options] COMMAND…``), :func:`_opaque` (the command
cannot be found for certain), :func:`_runs_option` (an option names a command),
:func:`_interpreter` (``-c``/``-e`` code) or :func:`_later` (``at``/``batch``).
"""

from __future__ import annotations

import posixpath
import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field

from hookline.shell.options import Option, option_names, scan_options
from hookline.shell.words import Script, Word, snippet

#: ``NAME=`` at the start of a word: an assignment for ``env``/``sudo`` (which take any
#: name, ``BASH_FUNC_f%%=…`` included)
_ASSIGNMENT = re.compile(r"[^=]+=")


@dataclass(slots=True)
class Unwrapped:
    """What a wrapper runs: inner commands, scripts to parse, and whether it also counts itself."""

    label: str
    commands: list[list[Word]] = field(default_factory=list)
    scripts: list[Script] = field(default_factory=list)
    assignments: dict[str, str] = field(default_factory=dict)
    runtime_args: bool = False
    keep_self: bool = False
    #: a shell reading its script from stdin: a heredoc or herestring is the script
    stdin: bool = False
    #: why what it runs is known only at run time (the line is then unparsable)
    problems: list[str] = field(default_factory=list)


#: What a program runs, from its words (``words[0]`` is the program).
Unwrap = Callable[[list[Word]], Unwrapped | None]

#: Every program seen through, by the name it is run as (its basename).
PROGRAMS: dict[str, Unwrap] = {}


def program(*names: str) -> Callable[[Unwrap], Unwrap]:
    """Register the decorated function as what the programs ``names`` run."""

    def register(unwrap: Unwrap) -> Unwrap:
        for name in names:
            _register(name, unwrap)
        return unwrap

    return register


def _register(name: str, unwrap: Unwrap) -> None:
    if name in PROGRAMS:
        raise ValueError(f"the program {name!r} is registered twice")
    PROGRAMS[name] = unwrap


def _register_all(table: dict[str, Unwrap]) -> None:
    for name, unwrap in table.items():
        _register(name, unwrap)


def _is_assignment(word: Word) -> bool:
    return _ASSIGNMENT.match(word.value) is not None


def _take_assignments(words: list[Word], i: int, into: dict[str, str]) -> int:
    while i < len(words) and _is_assignment(words[i]):
        name, _, value = words[i].value.partition("=")
        into[name] = value
        i += 1
    return i


def _joined(words: list[Word]) -> Script:
    """``eval a b`` and ``watch a b`` run their arguments joined by spaces."""
    return Script(" ".join(w.value for w in words), words)


def _simple(
    label: str,
    short_value: str = "",
    long_value: frozenset[str] = frozenset(),
    stops: str = "",
    *,
    shell: bool = False,
    skip: int = 0,
) -> Unwrap:
    """A wrapper ``NAME [options] [skip operands] COMMAND…``; options in ``stops`` mean it
    runs nothing; ``shell``: with no command it starts a shell that reads stdin."""

    def unwrap(words: list[Word]) -> Unwrapped | None:
        i, found = scan_options(words, 1, short_value, long_value)
        if any(len(o.name) == 2 and o.name[1] in stops for o in found):
            return None
        i += skip
        if i >= len(words) and shell:
            return Unwrapped(f"{label} stdin", stdin=True)
        return Unwrapped(label, commands=[words[i:]])

    return unwrap


def _opaque(label: str, short_value: str = "", long_value: frozenset[str] = frozenset()) -> Unwrap:
    """A wrapper whose command cannot be found reliably: the line is unparsable, and the
    words after its options are still reported as a command, for deny rules."""

    def unwrap(words: list[Word]) -> Unwrapped | None:
        i, _ = scan_options(words, 1, short_value, long_value)
        problem = f"{label} runs a command the parser cannot find for certain"
        return Unwrapped(label, commands=[words[i:]], problems=[problem])

    return unwrap


@program("sudo")
def _sudo(words: list[Word]) -> Unwrapped | None:
    i, found = scan_options(
        words,
        1,
        "acugpCDrtTUR",
        frozenset(
            {
                "--user",
                "--group",
                "--prompt",
                "--close-from",
                "--chdir",
                "--role",
                "--type",
                "--command-timeout",
                "--other-user",
                "--chroot",
                "--host",
            }
        ),
    )
    names = option_names(found)
    if names & {"-e", "--edit", "-l", "--list", "-v", "--validate", "-K", "-V", "--version"}:
        return None
    result = Unwrapped("sudo")
    i = _take_assignments(words, i, result.assignments)
    if i >= len(words) and names & {"-s", "--shell", "-i", "--login"}:
        return Unwrapped("sudo -s", stdin=True)  # a shell that reads its script from stdin
    result.commands.append(words[i:])
    return result


@program("env")
def _env(words: list[Word]) -> Unwrapped | None:
    result = Unwrapped("env")
    i = 1
    split: Option | None = None
    while i < len(words):
        i, found = scan_options(
            words, i, "uCSP", frozenset({"--unset", "--chdir", "--split-string"})
        )
        for option in found:
            if option.name in ("-S", "--split-string") and option.word is not None:
                split = option
        if i < len(words) and words[i].value == "-":
            i += 1
            continue
        before = i
        i = _take_assignments(words, i, result.assignments)
        if i == before:
            break
    if split is not None and split.word is not None:
        rest = words[i:]
        text = " ".join([split.value or "", *(shlex.quote(w.value) for w in rest)])
        return Unwrapped("env -S", scripts=[Script(text, [split.word, *rest])])
    result.commands.append(words[i:])
    return result


@program("command")
def _command_builtin(words: list[Word]) -> Unwrapped | None:
    i, found = scan_options(words, 1)
    if option_names(found) & {"-v", "-V"}:
        return None
    return Unwrapped("command", commands=[words[i:]])


@program("timeout")
def _timeout(words: list[Word]) -> Unwrapped | None:
    i, _ = scan_options(words, 1, "sk", frozenset({"--signal", "--kill-after"}))
    return Unwrapped("timeout", commands=[words[i + 1 :]])


@program("chrt")
def _chrt(words: list[Word]) -> Unwrapped | None:
    i, found = scan_options(
        words, 1, "TPD", frozenset({"--sched-runtime", "--sched-period", "--sched-deadline"})
    )
    if option_names(found) & {"-p", "--pid", "-m", "--max", "-h", "--help", "-V", "--version"}:
        return None
    return Unwrapped("chrt", commands=[words[i + 1 :]])


@program("ionice")
def _ionice(words: list[Word]) -> Unwrapped | None:
    i, found = scan_options(
        words, 1, "cnpPu", frozenset({"--class", "--classdata", "--pid", "--pgid", "--uid"})
    )
    if option_names(found) & {"-p", "-P", "-u", "--pid", "--pgid", "--uid"}:
        return None
    return Unwrapped("ionice", commands=[words[i:]])


@program("flock")
def _flock(words: list[Word]) -> Unwrapped | None:
    values = "wEc"
    long_values = frozenset({"--timeout", "--wait", "--conflict-exit-code", "--command"})
    i, found = scan_options(words, 1, values, long_values)
    i += 1  # the lock file (or fd)
    j, more = scan_options(words, i, values, long_values)
    for option in [*found, *more]:
        script = option.script() if option.name in ("-c", "--command") else None
        if script is not None:
            return Unwrapped("flock -c", scripts=[script])
    return Unwrapped("flock", commands=[words[j:]])


@program("watch")
def _watch(words: list[Word]) -> Unwrapped | None:
    i, found = scan_options(words, 1, "nq", frozenset({"--interval", "--equexit"}))
    if option_names(found) & {"-x", "--exec"}:
        return Unwrapped("watch", commands=[words[i:]])
    if i >= len(words):
        return None
    return Unwrapped("watch", scripts=[_joined(words[i:])])


@program("xargs")
def _xargs(words: list[Word]) -> Unwrapped | None:
    i, found = scan_options(
        words,
        1,
        "adEILnPs",
        frozenset(
            {
                "--arg-file",
                "--delimiter",
                "--max-args",
                "--max-procs",
                "--max-chars",
                "--process-slot-var",
            }
        ),
    )
    # ``-I X`` puts each input line where ``X`` occurs (``xargs -I{} sh -c {}``); ``-i`` may
    # name its string in the same word, so under it every argument is decided at run time
    marks: set[str] | None = set()
    for option in found:
        if option.name == "-I" or option.name.startswith("--replace"):
            marks = None if marks is None else {*marks, option.value or "{}"}
        elif option.name == "-i":
            marks = None
    inner = words[i:]
    if marks != set():
        inner = inner[:1] + [_replaced(w, marks) for w in inner[1:]]
    return Unwrapped("xargs", commands=[inner], runtime_args=True)


def _replaced(word: Word, marks: set[str] | None) -> Word:
    """``word`` marked as decided at run time if a wrapper replaces part of it (``{}``);
    ``marks=None``: whatever the text."""
    if marks is None or any(mark in word.value for mark in marks):
        return Word(word.value, True, word.glob, word.start, word.end)
    return word


@program("find")
def _find(words: list[Word]) -> Unwrapped | None:
    result = Unwrapped("find", keep_self=True, runtime_args=True)
    i = 1
    while i < len(words):
        if words[i].value in ("-exec", "-execdir", "-ok", "-okdir") and not words[i].expands:
            j = i + 1
            while j < len(words):
                value = words[j].value
                if value == ";" or (value == "+" and words[j - 1].value == "{}"):
                    break
                j += 1
            # find puts the file name wherever ``{}`` occurs: ``sh -c 'cat {}'`` is not static
            result.commands.append([_replaced(w, {"{}"}) for w in words[i + 1 : j]])
            i = j
        i += 1
    return result if result.commands else None


@program("coproc")
def _coproc(words: list[Word]) -> Unwrapped | None:
    """``coproc cmd``, ``coproc { list; }``, ``coproc NAME { list; }``: the grammar splits
    the group, so the ``}`` left over makes the line unparsable; the list's first
    command is reported from here."""
    start = 1
    if len(words) > 2 and words[2].value in ("{", "(") and words[1].value not in ("{", "("):
        start = 2
    if start < len(words) and words[start].value in ("{", "("):
        start += 1
    return Unwrapped("coproc", commands=[words[start:]])


@program("busybox", "toybox")
def _busybox(words: list[Word]) -> Unwrapped | None:
    if len(words) < 2 or words[1].value.startswith("-"):
        return None
    return Unwrapped("busybox", commands=[words[1:]])


@program("su")
def _su(words: list[Word]) -> Unwrapped | None:
    """``su [options] [-] [user] -c CMD``: su permutes, so ``-c`` may follow the user."""
    for index, word in enumerate(words[1:], start=1):
        value = word.value
        if value in ("-c", "--command", "--session-command") and index + 1 < len(words):
            return Unwrapped("su -c", scripts=[Script(words[index + 1].value, [words[index + 1]])])
        if value.startswith(("--command=", "--session-command=")):
            return Unwrapped("su -c", scripts=[Script(value.partition("=")[2], [word])])
        if value.startswith("-") and not value.startswith("--") and "c" in value:
            letters = value[1:]
            attached = letters[letters.index("c") + 1 :]
            if attached:
                return Unwrapped("su -c", scripts=[Script(attached, [word])])
            if index + 1 < len(words):
                script = Script(words[index + 1].value, [words[index + 1]])
                return Unwrapped("su -c", scripts=[script])
    return Unwrapped("su", stdin=True)  # with no -c, the shell reads its script from stdin


@program("chroot")
def _chroot(words: list[Word]) -> Unwrapped | None:
    i, _ = scan_options(words, 1, "", frozenset({"--userspec", "--groups"}))
    if i + 1 >= len(words):
        return Unwrapped("chroot stdin", stdin=True)  # ``chroot /`` starts a shell
    return Unwrapped("chroot", commands=[words[i + 1 :]])


@program("runuser")
def _runuser(words: list[Word]) -> Unwrapped | None:
    """``runuser -u USER [--] CMD…`` runs a command; without ``-u`` it is ``su``."""
    i, found = scan_options(
        words,
        1,
        "ugGsw",
        frozenset({"--user", "--group", "--supp-group", "--shell", "--whitelist-environment"}),
    )
    if not option_names(found) & {"-u", "--user"} or option_names(found) & {"-c", "--command"}:
        unwrapped = _su(words)
        if unwrapped is not None:
            unwrapped.label = unwrapped.label.replace("su", "runuser", 1)
        return unwrapped
    return Unwrapped("runuser", commands=[words[i:]])


@program("sg")
def _sg(words: list[Word]) -> Unwrapped | None:
    """``sg GROUP [-c] COMMAND``: the command is one string, run by ``/bin/sh -c``."""
    i = 2 if len(words) > 1 and words[1].value != "-" else 3
    if i < len(words) and words[i].value == "-c":
        i += 1
    if i >= len(words):
        return Unwrapped("sg stdin", stdin=True)
    return Unwrapped("sg", scripts=[_joined(words[i:])])


#: ssh ``-o`` options and config keys that run a local command.
_SSH_RUNS = re.compile(
    r"(?i)\s*(proxycommand|localcommand|knownhostscommand|permitlocalcommand|match)"
)


def _ssh_problems(label: str, found: list[Option]) -> list[str]:
    """``-o ProxyCommand=…``, ``-F config``, ``scp -S program``: a local command."""
    return [
        f"{label} {o.name} {snippet(o.value or '')} runs a local command"
        for o in found
        if (o.name == "-o" and _SSH_RUNS.match(o.value or "")) or o.name in ("-F", "-S")
    ]


@program("scp", "sftp")
def _scp(words: list[Word]) -> Unwrapped | None:
    _, found = scan_options(words, 1, "cDFiJloPSRX")
    problems = _ssh_problems(words[0].value, found)
    return Unwrapped(words[0].value, problems=problems) if problems else None


@program("ssh")
def _ssh(words: list[Word]) -> Unwrapped | None:
    """``ssh [options] HOST [COMMAND…]``: the command words are joined into one script
    (run by the remote shell, which may be this machine's); ``-o ProxyCommand=…`` and
    ``-F config`` run a local command known only at run time."""
    i, found = scan_options(words, 1, "BbcDEeFIiJLlmOoPpQRSWw")
    problems = _ssh_problems("ssh", found)
    if i >= len(words):
        return Unwrapped("ssh", problems=problems) if problems else None
    rest = words[i + 1 :]
    if not rest:
        return Unwrapped("ssh stdin", stdin=True, problems=problems)
    return Unwrapped("ssh", scripts=[_joined(rest)], problems=problems)


#: bwrap options that take two arguments, and those that take none.
_BWRAP_TWO = frozenset(
    {
        "--bind",
        "--bind-try",
        "--dev-bind",
        "--dev-bind-try",
        "--ro-bind",
        "--ro-bind-try",
        "--symlink",
        "--setenv",
        "--file",
        "--bind-data",
        "--ro-bind-data",
        "--chmod",
        "--overlay-src",
    }
)
_BWRAP_NONE = frozenset(
    {
        "--share-net",
        "--die-with-parent",
        "--new-session",
        "--as-pid-1",
        "--clearenv",
        "--disable-userns",
        "--assert-userns-disabled",
        "--version",
        "--help",
        "--level-prefix",
    }
)


@program("bwrap")
def _bwrap(words: list[Word]) -> Unwrapped | None:
    i = 1
    while i < len(words) and words[i].value.startswith("--"):
        option = words[i].value
        if option == "--":
            i += 1
            break
        if option == "--args":
            return Unwrapped("bwrap", problems=["bwrap --args reads its arguments at run time"])
        if option in _BWRAP_NONE or option.startswith("--unshare"):
            i += 1
        else:
            i += 3 if option in _BWRAP_TWO else 2
    return Unwrapped("bwrap", commands=[words[i:]])


#: ``script`` options that take a value.
_SCRIPT_VALUES = "cEIOBTmo"


@program("script")
def _script(words: list[Word]) -> Unwrapped | None:
    """util-linux ``script [options] [file] [-- command…]``: ``-c``/``--command`` is a
    string run by ``$SHELL -c`` (options may follow the file); with no command it starts
    a shell that reads stdin."""
    i = 1
    while i < len(words):
        value = words[i].value
        if value == "--":
            return Unwrapped("script", commands=[words[i + 1 :]])
        if value.startswith("--command"):
            _, eq, attached = value.partition("=")
            target = words[i] if eq else words[i + 1] if i + 1 < len(words) else None
            if target is not None:
                text = attached if eq else target.value
                return Unwrapped("script -c", scripts=[Script(text, [target])])
        elif value.startswith("-") and not value.startswith("--"):
            for j, letter in enumerate(value[1:], start=1):
                if letter not in _SCRIPT_VALUES:
                    continue
                attached = value[j + 1 :]
                if letter == "c":
                    target = words[i] if attached else words[i + 1] if i + 1 < len(words) else None
                    if target is None:
                        return None
                    text = attached if attached else target.value
                    return Unwrapped("script -c", scripts=[Script(text, [target])])
                if not attached:
                    i += 1
                break
        i += 1
    return Unwrapped("script stdin", stdin=True)


def _runs_option(
    label: str, shorts: str = "", longs: tuple[str, ...] = (), plus: bool = False
) -> Unwrap:
    """A program that runs a command named in one of its options (``tar --to-command``,
    ``rsync -e``, ``zip -TT``, ``man -P``, ``vim -c``/``+cmd``): the line is unparsable."""

    def unwrap(words: list[Word]) -> Unwrapped | None:
        for word in words[1:]:
            value = word.value
            hit = bool(longs) and value.startswith(longs)
            if not hit and shorts and value[:1] == "-" and value[1:2] != "-":
                hit = any(letter in shorts for letter in value[1:])
            if not hit and plus and value[:1] == "+":
                hit = True
            if hit:
                problem = f"{label} {snippet(value)} runs a command given at run time"
                return Unwrapped(label, problems=[problem])
        return None

    return unwrap


@program("make")
def _make(words: list[Word]) -> Unwrapped | None:
    """``make --eval``/``-E`` runs text given at run time; ``make -f -`` (or a descriptor)
    reads a makefile from stdin. A makefile on disk is a script file, not read here."""
    _, found = scan_options(
        words, 1, "CEfIjloW", frozenset({"--file", "--makefile", "--eval", "--directory"})
    )
    for option in found:
        name = option.name
        if name in ("-E", "--eval"):
            return Unwrapped("make", problems=["make --eval runs text given at run time"])
        if name in ("-f", "--file", "--makefile") and option.value is not None:
            if option.value == "-" or option.word is None:
                return Unwrapped("make", problems=["make reads its makefile from stdin"])
            fed = _code_file("make", Word(option.value, option.word.expands, False, 0, 0))
            if fed is not None:
                return fed
    return None


#: ``setarch`` under its architecture names (``linux64 rm x``).
_ARCH_ALIASES = ("linux32", "linux64", "i386", "x86_64", "uname26")


@program("setarch")
def _setarch(words: list[Word]) -> Unwrapped | None:
    """``setarch [ARCH] [options] [COMMAND…]``: with no command it starts a shell."""
    i = 2 if len(words) > 1 and not words[1].value.startswith("-") else 1
    i, found = scan_options(words, i, "B")
    if option_names(found) & {"--list", "-h", "--help", "-V", "--version"}:
        return None
    if i >= len(words):
        return Unwrapped("setarch stdin", stdin=True)
    return Unwrapped("setarch", commands=[words[i:]])


#: Names of the dynamic loader, which runs the program it is given.
_LOADERS = (
    "ld.so",
    "ld-linux.so.2",
    "ld-linux-x86-64.so.2",
    "ld-linux-aarch64.so.1",
    "ld-linux-armhf.so.3",
    "ld-musl-x86_64.so.1",
    "ld-musl-aarch64.so.1",
)


@program(*_LOADERS)
def _loader(words: list[Word]) -> Unwrapped | None:
    """The dynamic loader runs the program it is given: ``ld-linux-x86-64.so.2 /bin/rm x``."""
    i = 1
    while i < len(words) and words[i].value.startswith("--"):
        i += 1 if words[i].value in ("--list", "--verify", "--help", "--version") else 2
    return Unwrapped("ld.so", commands=[words[i:]])


def _later(label: str) -> Unwrap:
    """``at``/``batch`` read the commands they schedule from stdin (or ``-f FILE``)."""

    def unwrap(words: list[Word]) -> Unwrapped | None:
        _, found = scan_options(words, 1, "qft")
        if option_names(found) & {"-l", "-r", "-d", "-c"}:
            return None
        if option_names(found) & {"-f"}:
            return Unwrapped(label, problems=[f"{label} -f schedules a script file's commands"])
        return Unwrapped(f"{label} stdin", stdin=True)

    return unwrap


@program("crontab")
def _crontab(words: list[Word]) -> Unwrapped | None:
    _, found = scan_options(words, 1, "u")
    if option_names(found) & {"-l", "-r", "-e", "-V"}:
        return None
    return Unwrapped("crontab", problems=["crontab installs commands that run later"])


@program("gdb")
def _gdb(words: list[Word]) -> Unwrapped | None:
    """``gdb --args PROG…`` runs PROG; ``-ex``/``-x``/``-batch`` commands can run anything."""
    values = {"-ex", "-iex", "-x", "-ix", "--eval-command", "--command", "-p", "--pid"}
    for index, word in enumerate(words[1:], start=1):
        if word.value == "--args":
            return Unwrapped("gdb --args", commands=[words[index + 1 :]])
        name = word.value.partition("=")[0]
        if name in values or name in ("-batch", "--batch"):
            return Unwrapped("gdb", problems=["gdb runs debugger commands known only at run time"])
    return None


def _interpreter(
    label: str, code: str, long_code: frozenset[str] = frozenset(), short_value: str = ""
) -> Unwrap:
    """An interpreter given code inline (``python -c``, ``perl -e``) or on stdin runs what
    no rule can read: the line is unparsable. A script file stays a plain command."""

    def unwrap(words: list[Word]) -> Unwrapped | None:
        i = 1
        while i < len(words):
            value = words[i].value
            if value == "--" or not value.startswith("-") or value == "-":
                break
            if value.startswith("-m") and "m" not in short_value and label.startswith("py"):
                module = value[2:] or (words[i + 1].value if i + 1 < len(words) else "")
                if module.partition(".")[0] in _CODE_MODULES:
                    problem = f"{label} -m {module} runs code given at run time"
                    return Unwrapped(label, problems=[problem])
                return None  # a module is a program file
            if value.partition("=")[0] in long_code or (
                not value.startswith("--") and any(c in code for c in value[1:])
            ):
                return Unwrapped(label, problems=[f"{label} runs inline code: {snippet(value)}"])
            if not value.startswith("--") and value[-1] in short_value:
                i += 1
            i += 1
        if i < len(words) and words[i].value != "-":
            return _code_file(label, words[i])
        return Unwrapped(f"{label} stdin", problems=[f"{label} reads its code from stdin"])

    return unwrap


#: Python modules that run code given as an argument or on stdin.
_CODE_MODULES = frozenset(
    {"code", "pdb", "timeit", "cProfile", "profile", "trace", "runpy", "IPython", "idlelib"}
)


def _code_file(label: str, word: Word) -> Unwrapped | None:
    """A program file that is a descriptor, stdin or a process substitution holds code
    known only at run time; any other file is a plain command (its text is not read)."""
    if word.expands or _descriptor(word.value) or _clean_path(word.value).startswith("/proc/"):
        problem = f"{label} reads its code from {snippet(word.value)}, known only at run time"
        return Unwrapped(label, problems=[problem])
    return None


#: awk programs that run commands: ``system()``, ``| getline``, ``print | "cmd"``.
_AWK_RUNS = re.compile(r"system|\|")


@program("awk", "gawk", "mawk", "nawk")
def _awk(words: list[Word]) -> Unwrapped | None:
    i, found = scan_options(words, 1, "Ffve", frozenset({"--file", "--assign", "--source"}))
    for option in found:
        if option.name in ("-f", "--file") and option.word is not None:
            fed = _code_file("awk", Word(option.value or "", option.word.expands, False, 0, 0))
            if fed is not None:
                return fed
    programs = [o.value or "" for o in found if o.name in ("--source", "-e")]
    if not option_names(found) & {"-f", "--file"} and i < len(words):
        programs.append(words[i].value)
    if any(_AWK_RUNS.search(p) for p in programs):
        return Unwrapped("awk", problems=["awk program runs commands known only at run time"])
    return None


#: a sed script with the GNU ``e`` command or ``s///e`` flag (run a command)
_SED_RUNS = re.compile(
    r"(?:^|[;\n{}])\s*(?:[0-9$,]+\s*|/(?:\\.|[^/])*/\s*)?!?\s*e(?:\s|;|$)"
    r"|s([^\w\s\\])(?:\\.|(?!\1).)*\1(?:\\.|(?!\1).)*\1[gpiImM0-9]*e"
)


@program("sed")
def _sed(words: list[Word]) -> Unwrapped | None:
    i, found = scan_options(words, 1, "efl", frozenset({"--expression", "--file"}))
    for option in found:
        if option.name in ("-f", "--file") and option.word is not None:
            fed = _code_file("sed", Word(option.value or "", option.word.expands, False, 0, 0))
            if fed is not None:
                return fed
    scripts = [o.value or "" for o in found if o.name in ("-e", "--expression")]
    if not scripts and not option_names(found) & {"-f", "--file"} and i < len(words):
        scripts.append(words[i].value)
    if any(_SED_RUNS.search(script) for script in scripts):
        return Unwrapped("sed", problems=["sed script runs a command (the e command or flag)"])
    return None


#: git configuration keys whose value is a command git runs.
_GIT_RUNS = re.compile(
    r"(?i)\s*(alias\.|core\.(pager|editor|sshcommand|hookspath|fsmonitor|askpass|gitproxy)"
    r"|pager\.|sequence\.editor|credential\.|gpg\.|diff\..*\.(command|textconv)|diff\.external"
    r"|filter\.|merge\..*\.driver|uploadpack\.|receive\.|sendemail\.|difftool\.|mergetool\."
    r"|interactive\.difffilter|ssh\.|include\.|includeif\.|protocol\..*\.allow|remote\..*\.(uploadpack|receivepack|proxy)"
    r"|init\.templatedir)"
)


@program("git")
def _git(words: list[Word]) -> Unwrapped | None:
    """``git -c alias.x='!cmd' x``, ``git -c core.pager=cmd``, ``git config alias.x '!cmd'``:
    configuration that makes git run a command known only at run time."""
    if len(words) < 2:
        return None
    if words[1].value[:1] != "-":  # ``git commit -m x``: no global options, the common case
        return _git_subcommand(words, 1)
    i, found = scan_options(
        words,
        1,
        "cC",
        frozenset({"--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env"}),
    )
    risky = [o.value or "" for o in found if o.name in ("-c", "--config-env")]
    if any(o.name == "--exec-path" and o.value for o in found):
        risky.append("--exec-path")
    if any(_GIT_RUNS.match(key) or key == "--exec-path" for key in risky):
        return Unwrapped("git", problems=["git configuration that runs a command at run time"])
    return _git_subcommand(words, i)


def _git_subcommand(words: list[Word], i: int) -> Unwrapped | None:
    if i >= len(words) or words[i].value not in _GIT_SPECIAL:
        return None
    subcommand = words[i].value
    args = [w.value for w in words[i + 1 :]]
    if subcommand == "config":
        if any(_GIT_RUNS.match(key) for key in args if not key.startswith("-")):
            return Unwrapped("git", problems=["git configuration that runs a command at run time"])
    elif _git_runs_command(subcommand, args):
        shown = snippet(" ".join(w.value for w in words[i:]))
        return Unwrapped("git", problems=[f"git {shown} runs a command given at run time"])
    return None


#: git subcommands that may run a command they are given (or set one in the config).
_GIT_SPECIAL = frozenset(
    {
        *("config", "submodule", "bisect", "filter-branch", "rebase", "difftool", "grep"),
        *("clone", "fetch", "pull", "ls-remote", "archive", "push", "send-pack", "remote"),
    }
)
#: git options that name a program to run, whatever the subcommand.
_GIT_PROGRAM_OPTIONS = ("--upload-pack", "--receive-pack", "--exec", "--extcmd", "--open-files")


def _git_runs_command(subcommand: str, args: list[str]) -> bool:
    """``git rebase -x CMD``, ``git submodule foreach CMD``, ``git bisect run CMD``,
    ``git filter-branch --tree-filter CMD``, ``git clone -u CMD``, ``git grep -O CMD``…"""
    if subcommand == "submodule" and "foreach" in args:
        return True
    if subcommand == "bisect" and args[:1] == ["run"]:
        return True
    if subcommand == "filter-branch":
        return True
    if any(a.startswith(_GIT_PROGRAM_OPTIONS) for a in args):
        return True
    short = {"rebase": "x", "difftool": "x", "grep": "O"}.get(subcommand, "")
    if subcommand in ("clone", "fetch", "pull", "ls-remote", "archive", "push"):
        short = "u"
    return bool(short) and any(
        a.startswith("-") and not a.startswith("--") and short in a[1:] for a in args
    )


@program("taskset")
def _taskset(words: list[Word]) -> Unwrapped | None:
    i, found = scan_options(words, 1)
    if option_names(found) & {"-p", "--pid"}:
        return None
    return Unwrapped("taskset", commands=[words[i + 1 :]])


#: Shells: ``-c SCRIPT``, a script from stdin, or a script file.
_SHELLS = (
    *("sh", "bash", "rbash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "yash"),
    *("posh", "csh", "tcsh", "oksh", "loksh", "pdksh"),
)


@program(*_SHELLS)
def _shell(words: list[Word]) -> Unwrapped | None:
    """``bash [options] -c SCRIPT [name args…]``: the first operand after ``-c`` is the script;
    with no operand (or ``-s``) the script is stdin, read from a heredoc or herestring."""
    reads_c = reads_stdin = False
    i = 1
    n = len(words)
    while i < n:
        word = words[i].value
        if word == "--" or word == "-":
            i += 1
            break
        if word.startswith("--"):
            i += 2 if word in ("--rcfile", "--init-file") else 1
            continue
        if len(word) > 1 and word[0] in "-+":
            letters = word[1:]
            if "c" in letters and word[0] == "-":
                reads_c = True
            if "s" in letters and word[0] == "-":
                reads_stdin = True
            i += 2 if ("o" in letters or "O" in letters) else 1
            continue
        break
    name = posixpath.basename(words[0].value)
    problems = [
        f"{name} {word.value.partition('=')[0]} runs a file's code known only at run time"
        for word in words[1:i]
        if word.value.partition("=")[0] in ("--rcfile", "--init-file")
    ]
    if not reads_c and i < n and _descriptor(words[i].value) and not _stdin_file(words[i].value):
        problems.append(f"{name} reads its script from a descriptor: {snippet(words[i].value)}")
    if problems:
        return Unwrapped(name, problems=problems)
    if reads_c and i >= n:  # the script comes at run time (``xargs sh -c``)
        unknown = Word("", True, False, words[-1].end, words[-1].end)
        return Unwrapped(f"{name} -c", scripts=[Script("", [unknown])])
    if not reads_c and i < n and _substituted(words[i]):
        return Unwrapped(f"{name} <(…)", scripts=[Script(words[i].value, [words[i]])])
    if reads_c and i < n:
        script = Script(words[i].value, [words[i]])
        return Unwrapped(f"{name} -c", scripts=[script])
    if not reads_c and (reads_stdin or i >= n or _stdin_file(words[i].value)):
        return Unwrapped(f"{name} stdin", stdin=True)
    return None


#: Script files that are the shell's own stdin.
_STDIN_FILES = frozenset({"/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"})
#: Files that are a process's open descriptors (``/dev/fd/3``, ``/proc/123/fd/0``).
_DESCRIPTOR = re.compile(r"/(?:dev/(?:fd/|std)|proc/[^/]+/fd/)")


def _clean_path(path: str) -> str:
    """``//dev/./stdin`` as ``/dev/stdin``: the kernel's reading of a path's dots and slashes."""
    cleaned = posixpath.normpath(path)
    return "/" + cleaned.lstrip("/") if cleaned.startswith("/") else cleaned


def _stdin_file(path: str) -> bool:
    return _clean_path(path) in _STDIN_FILES


def _descriptor(path: str) -> bool:
    """A file that is an open descriptor or a terminal: what it holds is known only at run time."""
    cleaned = _clean_path(path)
    return _DESCRIPTOR.match(cleaned) is not None or cleaned.startswith(("/dev/tty", "/dev/pts"))


def _substituted(word: Word) -> bool:
    """A script file that is a process substitution: its text is known only when it runs."""
    return word.expands and word.value.startswith(("<(", ">("))


@program("source", ".")
def _source(words: list[Word]) -> Unwrapped | None:
    """``source <(…)`` and ``. <(…)`` run a script computed at run time; ``source
    /dev/stdin`` reads it from stdin (a heredoc is parsed); ``source /dev/fd/3``, a file
    under ``/proc`` or one named at run time cannot be read before it runs."""
    i = 2 if len(words) > 2 and words[1].value == "--" else 1
    if i >= len(words):
        return None
    path = words[i]
    if _substituted(path):
        return Unwrapped("source <(…)", scripts=[Script(path.value, [path])])
    if _stdin_file(path.value):
        return Unwrapped("source stdin", stdin=True)
    if path.expands or _descriptor(path.value) or _clean_path(path.value).startswith("/proc/"):
        shown = snippet(path.value)
        return Unwrapped("source", problems=[f"source reads code known only at run time: {shown}"])
    return None


@program("eval")
def _eval(words: list[Word]) -> Unwrapped | None:
    i = 2 if len(words) > 1 and words[1].value == "--" else 1
    if i >= len(words):
        return None
    return Unwrapped("eval", scripts=[_joined(words[i:])])


@program("trap")
def _trap(words: list[Word]) -> Unwrapped | None:
    i, found = scan_options(words, 1)
    if option_names(found) & {"-l", "-p"} or len(words) - i < 2:
        return None
    action = words[i]
    if action.value in ("", "-") or action.value.isdigit():
        return None
    return Unwrapped("trap", scripts=[Script(action.value, [action])], keep_self=True)


#: Programs read through their options alone, made by the builders above.
_register_all(
    {
        "doas": _simple("doas", "uC", stops="Cs"),
        "builtin": _simple("builtin"),
        "exec": _simple("exec", "a"),
        "nice": _simple("nice", "n", frozenset({"--adjustment"})),
        "nohup": _simple("nohup"),
        "time": _simple("time", "fo", frozenset({"--format", "--output"})),
        "stdbuf": _simple("stdbuf", "ioe", frozenset({"--input", "--output", "--error"})),
        "setsid": _simple("setsid"),
        "unbuffer": _simple("unbuffer"),
        "fakeroot": _simple("fakeroot", "lsi", shell=True),
        "strace": _simple("strace", "abeEIoOpPsSuX", stops="p"),
        "ltrace": _simple("ltrace", "aADeFlnopsuwxX", stops="p"),
        "valgrind": _simple("valgrind"),
        "newgrp": _simple("newgrp", skip=1, shell=True),
        "pkexec": _simple("pkexec", "", frozenset({"--user"})),
        "setpriv": _simple(
            "setpriv",
            "",
            frozenset(
                {
                    *("--ruid", "--euid", "--reuid", "--rgid", "--egid", "--regid", "--groups"),
                    *("--inh-caps", "--ambient-caps", "--bounding-set", "--securebits"),
                    *("--pdeathsig", "--selinux-label", "--apparmor-profile", "--landlock-access"),
                    *("--landlock-rule", "--seccomp-filter"),
                }
            ),
        ),
        "unshare": _simple(
            "unshare",
            "SGRw",
            frozenset(
                {
                    *("--propagation", "--setgroups", "--map-user", "--map-group", "--map-users"),
                    *("--map-groups", "--setuid", "--setgid", "--root", "--wd", "--load-interp"),
                    *("--monotonic", "--boottime"),
                }
            ),
            shell=True,
        ),
        "nsenter": _simple(
            "nsenter", "tSGW", frozenset({"--target", "--setuid", "--setgid", "--env"}), shell=True
        ),
        "systemd-run": _simple(
            "systemd-run",
            "pEuHM",
            frozenset(
                {
                    *("--property", "--unit", "--setenv", "--host", "--machine", "--uid", "--gid"),
                    *("--nice", "--working-directory", "--slice", "--description", "--on-active"),
                    *("--on-boot", "--on-startup", "--on-unit-active", "--on-unit-inactive"),
                    *("--on-calendar", "--on-clock-change", "--on-timezone-change"),
                    *("--timer-property", "--path-property", "--socket-property", "--service-type"),
                    *("--background", "--expand-environment", "--shell-prompt-prefix"),
                }
            ),
        ),
        "flatpak-spawn": _simple("flatpak-spawn"),
        "firejail": _simple("firejail", shell=True),
        "proot": _opaque("proot", "rbmwkqi"),
        "faketime": _opaque("faketime", "p", frozenset({"--date-prog"})),
        "torify": _simple("torify"),
        "torsocks": _simple("torsocks", "upaP", shell=True),
        "proxychains": _simple("proxychains", "f"),
        "proxychains4": _simple("proxychains4", "f"),
        "xvfb-run": _simple(
            "xvfb-run",
            "efnpsw",
            frozenset(
                {"--error-file", "--auth-file", "--server-num", "--xauth-protocol", "--server-args"}
            ),
        ),
        "dbus-run-session": _simple(
            "dbus-run-session", "", frozenset({"--config-file", "--dbus-daemon"})
        ),
        "dbus-launch": _simple("dbus-launch"),
        "catchsegv": _simple("catchsegv"),
        "numactl": _opaque("numactl", "CmNpPiw"),
        "cgexec": _simple("cgexec", "g"),
        **{arch: _simple(arch, "B", stops="h") for arch in _ARCH_ALIASES},
        "prlimit": _simple("prlimit", "p", stops="p"),
        "eatmydata": _simple("eatmydata"),
        "nocache": _simple("nocache"),
        "chronic": _simple("chronic"),
        "ifne": _simple("ifne"),
        "systemd-inhibit": _simple(
            "systemd-inhibit", "", frozenset({"--what", "--who", "--why", "--mode"}), stops="l"
        ),
        "systemd-cat": _simple("systemd-cat", "tp", frozenset({"--identifier", "--priority"})),
        "cpulimit": _opaque("cpulimit", "lpe", frozenset({"--limit", "--pid", "--exe"})),
        "trickle": _simple("trickle", "udwtlna"),
        "runcon": _opaque("runcon", "turl"),
        "chpst": _opaque("chpst", "uUbeg/nlLmdosrpfc"),
        "setuidgid": _simple("setuidgid", skip=1),
        "envuidgid": _simple("envuidgid", skip=1),
        "envdir": _simple("envdir", skip=1),
        "softlimit": _simple("softlimit", "mdsloparfct"),
        "setlock": _simple("setlock", skip=1),
        "lckdo": _simple("lckdo", "w", skip=1),
        "timelimit": _simple("timelimit", "tTsSp"),
        "daemonize": _opaque("daemonize", "acepPlouEv"),
        # Programs with a command language of their own that can run a shell command
        # (``tmux new 'cmd'``, ``capsh -- -c``, ``perf stat cmd``, sqlite3's ``.shell``, ed's
        # ``!cmd``, ``split --filter``, ``history -w FILE``): never read as safe.
        **{
            name: _opaque(name)
            for name in ("tmux", "screen", "capsh", "perf", "sqlite3", "ed", "red", "split")
        },
        "history": _opaque("history"),
        "start-stop-daemon": _opaque("start-stop-daemon"),
        "mpirun": _opaque("mpirun"),
        "mpiexec": _opaque("mpiexec"),
        "sem": _opaque("sem"),
        "parallel": _opaque("parallel", "jSaEd"),
        "expect": _interpreter("expect", "ci"),
        "python": _interpreter("python", "ci", short_value="WX"),
        "python3": _interpreter("python3", "ci", short_value="WX"),
        "python2": _interpreter("python2", "ci", short_value="WX"),
        "pypy3": _interpreter("pypy3", "ci", short_value="WX"),
        "perl": _interpreter("perl", "eE", short_value="IM"),
        "ruby": _interpreter("ruby", "e", short_value="Ir"),
        "node": _interpreter("node", "ep", frozenset({"--eval", "--print"}), "r"),
        "nodejs": _interpreter("nodejs", "ep", frozenset({"--eval", "--print"}), "r"),
        "php": _interpreter("php", "rBRE", short_value="cd"),
        "lua": _interpreter("lua", "e", short_value="l"),
        "Rscript": _interpreter("Rscript", "e"),
        "tclsh": _interpreter("tclsh", ""),
        "tar": _runs_option(
            "tar",
            "IF",
            (
                *("--to-command", "--checkpoint-action", "--use-compress-program"),
                *("--info-script", "--new-volume-script", "--rsh-command", "--rmt-command"),
            ),
        ),
        "zip": _runs_option("zip", "", ("--unzip-command", "-TT")),
        "rsync": _runs_option("rsync", "e", ("--rsh", "--rsync-path")),
        "man": _runs_option("man", "PH", ("--pager", "--html")),
        # ``go test -exec X``, ``go build -toolexec X``, ``go vet -vettool X``;
        # ``cargo --config target.….runner="X"``
        "go": _runs_option(
            "go", "", tuple(f"{d}{o}" for d in ("-", "--") for o in ("toolexec", "exec", "vettool"))
        ),
        "cargo": _runs_option("cargo", "", ("--config",)),
        **{
            editor: _runs_option(
                editor, "cS", ("--cmd", "--eval", "--load", "--funcall"), plus=True
            )
            for editor in ("vi", "vim", "nvim", "ex", "view", "vimdiff", "emacs")
        },
        "at": _later("at"),
        "batch": _later("batch"),
    }
)


#: Programs that run a script file, which may be their stdin (``echo 'rm x' | bash s``).
SCRIPT_FILE_RUNNERS: frozenset[Unwrap] = frozenset({_source, _shell})
