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
"""

from __future__ import annotations

import posixpath
import re
import shlex
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

import tree_sitter_bash
from tree_sitter import Language, Node, Parser

__all__ = [
    "MAX_LENGTH",
    "MAX_SCRIPT_DEPTH",
    "ParsedCommandLine",
    "Redirection",
    "ShellParseError",
    "SimpleCommand",
    "parse_command",
]

#: Longer text is not parsed: it is reported unparsable.
MAX_LENGTH = 100_000
#: How deep ``bash -c``/``eval`` scripts are followed before the text is unparsable.
MAX_SCRIPT_DEPTH = 8
#: How deep the syntax tree may nest (``$( $( $( …``) before the text is unparsable.
_MAX_TREE_DEPTH = 120
#: How many wrappers one command may sit in (``sudo nice timeout 5 …``).
_MAX_WRAPPERS = 32

_OUTPUT_OPS = frozenset({">", ">>", "&>", "&>>", ">|", ">&", "<>"})
_NOT_WRITTEN = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr"})
_REDIRECT_TYPES = frozenset({"file_redirect", "heredoc_redirect", "herestring_redirect"})
_EXPANSION_TYPES = frozenset(
    {
        "simple_expansion",
        "expansion",
        "command_substitution",
        "process_substitution",
        "arithmetic_expansion",
    }
)
_SUBSTITUTIONS = frozenset({"command_substitution", "process_substitution"})
#: ``NAME=`` at the start of a word: an assignment for ``env``/``sudo`` (which take any
#: name, ``BASH_FUNC_f%%=…`` included)
_ASSIGNMENT = re.compile(r"[^=]+=")
#: characters that make an unquoted word more than its text (escapes, globs, braces,
#: a substitution tree-sitter did not read as one)
_SPECIAL = re.compile(r"[\\*?\[{`$]")


class ShellParseError(ValueError):
    """Raised by ``parse_command(text, strict=True)`` when the text cannot be analysed."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(self.problems) or "unparsable command line")


@dataclass(frozen=True, slots=True)
class Redirection:
    """One redirection: ``op`` as written (``>``, ``>>``, ``<``, ``&>``, ``>|``, ``>&``,
    ``<<``, ``<<<``, …), its unquoted ``target`` (``None`` for heredocs, herestrings
    and ``>&-``), the file descriptor written before the operator, and whether the
    target is decided at run time (``> $FILE``)."""

    op: str
    target: str | None
    fd: int | None = None
    dynamic: bool = False

    @property
    def writes_file(self) -> bool:
        """True when this opens ``target`` for writing (an fd dup such as ``2>&1`` does not)."""
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
        """The program's basename: ``rm`` for ``/bin/rm``."""
        return posixpath.basename(self.program)

    @property
    def args(self) -> list[str]:
        """The arguments after the program."""
        return self.argv[1:]

    @property
    def program_dynamic(self) -> bool:
        """True when the program itself is unknown until run time (``$CMD``, ``/bin/r?``)."""
        return bool(self.dynamic_words) and self.dynamic_words[0]

    @property
    def writes(self) -> tuple[str, ...]:
        """Files opened for writing by output redirections (not ``/dev/null``, not ``2>&1``)."""
        return tuple(r.target for r in self.redirections if r.writes_file and r.target is not None)


@dataclass(frozen=True, slots=True)
class ParsedCommandLine:
    """Every simple command of a line, in source order, and whether the line could be analysed."""

    text: str
    commands: tuple[SimpleCommand, ...]
    problems: tuple[str, ...] = ()

    @property
    def unparsable(self) -> bool:
        """True when some part could not be analysed: callers must not auto-allow the line."""
        return bool(self.problems)

    @property
    def writes(self) -> tuple[str, ...]:
        """Every file any command of the line writes through a redirection."""
        return tuple(path for command in self.commands for path in command.writes)


def parse_command(text: str, *, strict: bool = False) -> ParsedCommandLine:
    """The simple commands ``text`` would run; ``strict`` raises :class:`ShellParseError`
    instead of returning an unparsable result."""
    if not isinstance(text, str):
        raise TypeError(f"parse_command expects str, not {type(text).__name__}")
    if len(text) > MAX_LENGTH:
        result = ParsedCommandLine(text, (), (f"command line longer than {MAX_LENGTH} characters",))
    else:
        analysis = _Analysis(text)
        try:
            analysis.script(text, _Context())
        except RecursionError:  # a safety net: the depth limits should stop well before
            analysis.problems.append("command line nested too deeply to analyse")
        result = ParsedCommandLine(text, tuple(analysis.commands), tuple(analysis.problems))
    if strict and result.unparsable:
        raise ShellParseError(result.problems)
    return result


# --- parser -----------------------------------------------------------------------------------

_LOCAL = threading.local()


def _parser() -> Parser:
    """One tree-sitter parser per thread, made on first use (a ``Parser`` is not thread-safe)."""
    parser: Parser | None = getattr(_LOCAL, "parser", None)
    if parser is None:
        parser = Parser(Language(tree_sitter_bash.language()))
        _LOCAL.parser = parser
    return parser


def _snippet(text: str, limit: int = 60) -> str:
    """Text quoted in a problem: one line, cut short."""
    flat = text.replace("\n", "\\n")
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:
        return data.decode("utf-8", "replace")


#: a wrapper a command was found in: its label (``sudo``, ``bash -c``) and its argv
_Wrap = tuple[str, tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class _Context:
    """Where the walker is: the wrappers around it, redirections inherited from an
    enclosing ``{ …; } > f``, the outer span for text from a ``-c`` script, script depth."""

    wrappers: tuple[_Wrap, ...] = ()
    inherited: tuple[Redirection, ...] = ()
    span: tuple[int, int] | None = None
    depth: int = 0


@dataclass(slots=True)
class _Word:
    """One shell word: its value, whether it expands at run time, whether it holds a glob."""

    value: str
    expands: bool
    glob: bool
    start: int
    end: int

    def dynamic_at(self, index: int) -> bool:
        return self.expands or (index == 0 and self.glob)


@dataclass(slots=True)
class _Script:
    """Text a wrapper hands to a shell, and the words it came from (for span and staticness)."""

    text: str
    words: list[_Word]


@dataclass(slots=True)
class _Unwrapped:
    """What a wrapper runs: inner commands, scripts to parse, and whether it also counts itself."""

    label: str
    commands: list[list[_Word]] = field(default_factory=list)
    scripts: list[_Script] = field(default_factory=list)
    assignments: dict[str, str] = field(default_factory=dict)
    runtime_args: bool = False
    keep_self: bool = False
    #: a shell reading its script from stdin: a heredoc or herestring is the script
    stdin: bool = False
    #: why what it runs is known only at run time (the line is then unparsable)
    problems: list[str] = field(default_factory=list)


class _Analysis:
    """One call of :func:`parse_command`: collects commands and problems."""

    def __init__(self, text: str) -> None:
        self.commands: list[SimpleCommand] = []
        self.problems: list[str] = []
        #: the text a heredoc or herestring feeds to stdin, by ``id`` of its Redirection
        self.stdin: dict[int, tuple[Redirection, _Script]] = {}
        self._top_text = text
        self._ascii = text.isascii()
        self._char_of: list[int] | None = None

    # -- scripts

    def script(self, text: str, ctx: _Context, tree_depth: int = 0) -> None:
        """Parse and walk one script; ``tree_depth`` is how deep the text that holds it sits,
        so nesting counts across ``bash -c`` levels."""
        if ctx.depth > MAX_SCRIPT_DEPTH:
            self.problems.append(f"scripts nested deeper than {MAX_SCRIPT_DEPTH} levels")
            return
        if not text.strip():
            return
        data = text.encode("utf-8", "surrogatepass")
        tree = _parser().parse(data)
        root = tree.root_node
        walker = _Walker(self, text, data)
        if root.has_error:
            self.problems.append(_error_reason(root, data, ctx))
        walker.walk(root, ctx, tree_depth)

    def arithmetic_problem(self, text: str) -> None:
        self.problem(f"arithmetic on a variable, whose value may run commands: {_snippet(text)}")

    def problem(self, problem: str) -> None:
        """Report ``problem`` once (the same construct may be reached on two paths)."""
        if problem not in self.problems:
            self.problems.append(problem)

    # -- offsets

    def char_offset(self, byte: int) -> int:
        """Character offset in the top-level text of a byte offset in its UTF-8 form."""
        if self._ascii:
            return byte
        if self._char_of is None:
            table: list[int] = []
            for index, char in enumerate(self._top_text):
                table.extend([index] * len(char.encode("utf-8", "surrogatepass")))
            table.append(len(self._top_text))
            self._char_of = table
        return self._char_of[min(byte, len(self._char_of) - 1)]


def _error_reason(root: Node, data: bytes, ctx: _Context) -> str:
    stack = [root]
    while stack:
        node = stack.pop()
        if node.is_missing or node.type == "ERROR":
            line = data[: node.start_byte].count(b"\n") + 1
            kind = f"missing {node.type!r}" if node.is_missing else "syntax error"
            where = " in a nested script" if ctx.depth else f" at line {line}"
            return f"bash {kind}{where}"
        if node.has_error:
            stack.extend(reversed(node.children))
    return "bash syntax error"


class _Walker:
    """Walks one parsed script and reports its commands to the analysis."""

    def __init__(self, analysis: _Analysis, text: str, data: bytes) -> None:
        self.analysis = analysis
        self.data = data
        #: tree depth of the command being reported, where a wrapper's script is nested
        self.depth = 0
        #: for ASCII text byte offsets are character offsets: slice the str, skip decoding
        self.ascii = text if len(text) == len(data) else None
        #: ids of the pipeline elements that read a pipe (``b`` of ``a | b``)
        self.piped_ids: set[int] = set()
        #: whether the command being reported reads a pipe
        self.piped = False

    def text(self, node: Node) -> str:
        if self.ascii is not None:
            return self.ascii[node.start_byte : node.end_byte]
        return _decode(self.data[node.start_byte : node.end_byte])

    def may_nest(self, node: Node) -> bool:
        """Whether a command's text can hold another command (a substitution or a heredoc)."""
        chunk = self.data[node.start_byte : node.end_byte]
        return (
            b"$(" in chunk
            or b"`" in chunk
            or b"(" in chunk
            or b"<<" in chunk
            or b"${" in chunk  # ``${s:x}``, ``${a[x]}``: arithmetic, checked on the walk
            or b"[" in chunk  # ``$[x]``, ``a[x]=1``
        )

    def span(self, start: int, end: int, ctx: _Context) -> tuple[int, int]:
        if ctx.span is not None:
            return ctx.span
        return (self.analysis.char_offset(start), self.analysis.char_offset(end))

    # -- tree walk

    def walk(self, node: Node, ctx: _Context, depth: int) -> None:
        if depth > _MAX_TREE_DEPTH:
            if not any("nested deeper" in p for p in self.analysis.problems):
                self.analysis.problems.append(f"syntax nested deeper than {_MAX_TREE_DEPTH} levels")
            return
        kind = node.type
        if kind == "command":
            self.command(node, ctx, depth)
        elif kind == "redirected_statement":
            self.redirected(node, ctx, depth)
        elif kind in ("declaration_command", "unset_command"):
            self.declaration(node, ctx, depth)
        else:
            if kind in _ARITHMETIC_NODES:
                self.arithmetic(node)
            if kind in _RUNTIME_NODES:
                self.runtime_code(node, ctx)
            elif kind == "pipeline":
                self.note_pipeline(node)
            if kind in _SUBSTITUTIONS:
                if ctx.inherited:
                    ctx = _Context(ctx.wrappers, (), ctx.span, ctx.depth)
                if kind == "command_substitution":
                    self.nested_backticks(node, ctx, depth)
                if node.named_child_count == 1 and node.named_children[0].type == "file_redirect":
                    # ``$(<file)`` reads the file like ``$(cat file)``
                    bare = self.redirections(node.named_children[0], [])
                    self.emit_bare(bare, node, ctx)
            for child in node.children:
                if child.child_count:
                    self.walk(child, ctx, depth + 1)
                elif kind == "expansion" and child.type == "word":
                    self.hidden_substitution(child, ctx, depth)
            if kind == "heredoc_redirect":
                self.heredoc_backticks(node, ctx, depth)

    def arithmetic(self, node: Node) -> None:
        """bash evaluates a variable's *value* as arithmetic, and a subscript inside that
        value runs ``$(…)``: after ``x='a[$(rm y)]'``, ``echo $((x))`` runs ``rm y``.
        Arithmetic that names a variable is known only at run time: the line is reported
        unparsable. Pure literals (``$((1+2))``, ``${s:1:2}``, ``${a[0]}``) stay readable."""
        kind = node.type
        text = self.text(node)
        expressions: list[str] = []
        if kind == "arithmetic_expansion":  # ``$((…))``, ``$[…]``
            expressions.append(text[1:])
        elif kind == "compound_statement" and text.startswith("(("):  # not ``{ …; }``
            expressions.append(text)
        elif kind == "c_style_for_statement":  # ``for ((…; …; …))``
            marks = [c for c in node.children if c.type in ("((", "))")]
            if len(marks) == 2:
                text = _decode(self.data[marks[0].start_byte : marks[1].end_byte])
            expressions.append(text)
        elif kind == "subscript":  # ``${a[i]}``, ``a[i]=v``: indexed-array subscripts
            index = text[text.find("[") + 1 : text.rfind("]")]
            if index not in ("@", "*"):
                expressions.append(index)
        elif kind == "expansion":  # ``${s:off}``, ``${s:off:len}``
            expressions.append(_substring_range(text))
        elif kind == "binary_expression" and _compares_numbers(node, self):
            operands = [c for c in node.children if c.type != "test_operator"]
            expressions.extend(self.text(c) for c in operands)
        if any(_reads_variable(expression) for expression in expressions):
            self.analysis.arithmetic_problem(text)

    def runtime_code(self, node: Node, ctx: _Context) -> None:
        """Syntax that runs code held in a variable, or sets a variable bash runs as code:
        ``${x@P}``, ``${!x}``, ``for PS4 in …``, ``[[ -v 'a[$(…)]' ]]``, a bare
        ``BASH_ENV=…``; and a function definition's redirection, a write of that file."""
        kind = node.type
        if kind == "expansion":
            text = self.text(node)
            problem = _expansion_problem(text)
            if problem is not None:
                self.analysis.problem(f"{problem}: {_snippet(text)}")
        elif kind == "variable_assignment":
            parent = node.parent
            if parent is not None and parent.type in ("command", "declaration_command"):
                return  # seen with its command
            name_node = node.child_by_field_name("name")
            if name_node is None or not _may_run_code(self.text(name_node)):
                return
            name, value = self.assignment(node)
            self.assigned(name, value.value, value.expands, node.start_byte, node.end_byte, ctx)
        elif kind in ("for_statement", "select_statement"):
            variable = node.child_by_field_name("variable")
            if variable is not None:
                word = _Word(self.text(variable), False, False, 0, 0)
                self.check_names([word], kind[:-10], "always")
        elif kind == "unary_expression":
            operator, *operands = node.children
            if self.text(operator) in ("-v", "-R") and operands:
                self.check_names([self.word(operands[0])], "[[ -v ]]", "never")
        elif kind == "function_definition":
            redirs: list[Redirection] = []
            for child in node.children:
                if child.type in _REDIRECT_TYPES:
                    redirs.extend(self.redirections(child, []))
            if redirs:  # ``f() { …; } > .env`` writes ``.env`` each time ``f`` runs
                self.emit_bare(redirs, node, ctx)

    def note_pipeline(self, node: Node) -> None:
        self.piped_ids.update(child.id for child in node.named_children[1:])

    def reads_pipe(self, node: Node) -> bool:
        parent = node.parent
        return node.id in self.piped_ids or (
            parent is not None
            and parent.type == "redirected_statement"
            and parent.id in self.piped_ids
        )

    def check_names(
        self,
        words: Sequence[_Word],
        where: str,
        assigns: Literal["always", "with a value", "never"],
    ) -> None:
        for problem in _name_problems(words, where, assigns):
            self.analysis.problem(problem)

    def assigned(
        self,
        name: str,
        value: str,
        dynamic: bool,
        start: int,
        end: int,
        ctx: _Context,
        wrappers: tuple[_Wrap, ...] | None = None,
    ) -> None:
        """``NAME=value`` for a variable a shell or a program runs as code: a command
        (``GIT_PAGER``, ``EDITOR``…) is parsed as a script; any other (``BASH_ENV``,
        ``PS4``, ``BASH_FUNC_f%%``…) makes the line unparsable."""
        base = name.partition("[")[0].rstrip("+")
        if base in _COMMAND_VARIABLES and not dynamic:
            label = (f"{base}=", (f"{base}={value}",))
            outer = ctx.wrappers if wrappers is None else wrappers
            inner = _Context((*outer, label), (), self.span(start, end, ctx), ctx.depth + 1)
            self.analysis.script(value, inner, self.depth + 1)
            return
        problem = _variable_problem(base) or _search_path_problem(base, value)
        if problem is not None:
            self.analysis.problem(problem)

    def assigned_all(
        self,
        assignments: dict[str, str],
        start: int,
        end: int,
        ctx: _Context,
        wrappers: tuple[_Wrap, ...],
    ) -> None:
        for name, value in assignments.items():
            self.assigned(name, value, "$" in value or "`" in value, start, end, ctx, wrappers)

    def nested_backticks(self, node: Node, ctx: _Context, depth: int) -> None:
        """tree-sitter keeps ``\\``` inside backticks as written; bash unescapes it first,
        so ``echo `echo \\`rm x\\``` runs ``rm x``. Such text is unparsable, and its
        unescaped body is parsed so that deny rules still see what it runs."""
        raw = self.text(node)
        if not raw.startswith("`") or "\\`" not in raw:
            return
        self.analysis.problems.append(f"nested backticks the parser cannot read: {_snippet(raw)}")
        body = re.sub(r"\\([\\`$])", r"\1", raw[1:-1] if raw.endswith("`") else raw[1:])
        span = self.span(node.start_byte, node.end_byte, ctx)
        self.analysis.script(body, _Context(ctx.wrappers, (), span, ctx.depth + 1), depth + 1)

    def heredoc_backticks(self, node: Node, ctx: _Context, depth: int) -> None:
        """tree-sitter misses backticks in a heredoc body, and ``$(…)`` after a tab in a
        ``<<-`` body; bash runs both (unless the delimiter is quoted)."""
        start = body = None
        for child in node.children:
            if child.type == "heredoc_start":
                start = child
            elif child.type == "heredoc_body":
                body = child
        if start is None or body is None:
            return
        delimiter = self.text(start)
        if any(c in delimiter for c in "'\"\\"):
            return
        parts = [c for c in body.children if c.type == "heredoc_content"] or [body]
        for part in parts:
            raw = self.text(part)
            if _has_live_substitution(raw):
                self.hidden_substitution(part, ctx, depth, raw)
                return

    def hidden_substitution(
        self, node: Node, ctx: _Context, depth: int, raw: str | None = None
    ) -> None:
        """tree-sitter reads ``${x:=`rm y`}`` as a plain word: the shell runs ``rm y``.

        Such a word is reported unparsable, and its text is parsed as a double-quoted
        string so that deny rules still see what it runs."""
        if raw is None:
            raw = self.text(node)
            if not _has_live_substitution(raw):
                return
        self.analysis.problems.append(
            f"command substitution the parser cannot read: {_snippet(raw)}"
        )
        span = self.span(node.start_byte, node.end_byte, ctx)
        # read as the double-quoted text it behaves like; ``:`` is the no-op builtin
        quoted = ': "' + raw.replace("\\", "\\\\").replace('"', '\\"') + '"'
        self.analysis.script(quoted, _Context(ctx.wrappers, (), span, ctx.depth + 1), depth + 1)

    def walk_children(self, node: Node, ctx: _Context, depth: int) -> None:
        for child in node.children:
            if child.child_count:
                self.walk(child, ctx, depth + 1)

    def redirected(self, node: Node, ctx: _Context, depth: int) -> None:
        body = node.child_by_field_name("body")
        redirs: list[Redirection] = []
        # tree-sitter reads ``cmd > f x y`` as a redirect to ``f x y``; bash, as the
        # redirect ``> f`` and the arguments ``x y`` of ``cmd``
        extra: list[_Word] = []
        for child in node.children:
            if child.type in _REDIRECT_TYPES:
                redirs.extend(self.redirections(child, extra))
        if body is None:
            if extra:  # ``> f cmd args``
                self.depth = depth
                self.run(
                    extra,
                    {},
                    [*ctx.inherited, *redirs],
                    node.start_byte,
                    node.end_byte,
                    ctx,
                    ctx.wrappers,
                    False,
                    0,
                )
            else:
                self.emit_bare(redirs, node, ctx)
        else:
            # tree-sitter hangs ``a && b > f`` and ``a | b > f`` on the whole list;
            # the shell gives the redirection to the last command only.
            target = body
            while target.type in ("list", "pipeline") and target.named_child_count:
                if target.type == "pipeline":
                    self.note_pipeline(target)
                last = target.named_children[-1]
                for child in target.children:
                    if child.child_count and child.id != last.id:
                        self.walk(child, ctx, depth + 1)
                target = last
            if target.type == "command":
                span_node = node if target.id == body.id else None
                self.command(target, ctx, depth + 1, redirs, span_node, extra)
            else:
                if extra:
                    shown = self.text_between(extra[0].start, extra[-1].end)
                    self.analysis.problems.append(
                        f"words after the redirection of a compound command: {shown}"
                    )
                mark = len(self.analysis.commands)
                inner = _Context(ctx.wrappers, ctx.inherited + tuple(redirs), ctx.span, ctx.depth)
                self.walk(target, inner, depth + 1)
                if redirs and not any(
                    any(r is redirs[0] for r in cmd.redirections)
                    for cmd in self.analysis.commands[mark:]
                ):
                    self.emit_bare(redirs, node, ctx)
        for child in node.children:
            if child.type in _REDIRECT_TYPES:
                self.walk(child, ctx, depth + 1)

    def emit_bare(self, redirs: list[Redirection], node: Node, ctx: _Context) -> None:
        """``> f`` or a compound with nothing inside to carry its redirections."""
        self.analysis.commands.append(
            SimpleCommand(
                program="",
                argv=[],
                assignments={},
                redirections=list(ctx.inherited) + redirs,
                span=self.span(node.start_byte, node.end_byte, ctx),
                wrappers=[label for label, _ in ctx.wrappers],
                wrapper_argvs=[list(argv) for _, argv in ctx.wrappers],
            )
        )

    def declaration(self, node: Node, ctx: _Context, depth: int) -> None:
        """``export``/``declare``/``local``/``readonly``/``typeset``/``unset`` as commands."""
        words: list[_Word] = []
        for child in node.children:
            if not child.is_named:
                words.append(_Word(child.type, False, False, child.start_byte, child.end_byte))
            elif child.type == "variable_assignment":
                name, value = self.assignment(child)
                words.append(
                    _Word(
                        f"{name}={value.value}",
                        value.expands,
                        False,
                        child.start_byte,
                        child.end_byte,
                    )
                )
            elif child.type not in _REDIRECT_TYPES:
                words.append(self.word(child))
        self.depth = depth
        self.piped = False
        self.run(
            words,
            {},
            list(ctx.inherited),
            node.start_byte,
            node.end_byte,
            ctx,
            ctx.wrappers,
            False,
            0,
        )
        self.walk_children(node, ctx, depth)

    def command(
        self,
        node: Node,
        ctx: _Context,
        depth: int,
        outer: Sequence[Redirection] = (),
        span_node: Node | None = None,
        extra: Sequence[_Word] = (),
    ) -> None:
        assignments: dict[str, str] = {}
        redirs: list[Redirection] = list(ctx.inherited)
        word_nodes: list[Node] = []
        own_extra: list[_Word] = []
        for child in node.children:
            kind = child.type
            if kind == "variable_assignment" and not word_nodes:
                name, value = self.assignment(child)
                assignments[name] = value.value
            elif kind in _REDIRECT_TYPES:
                redirs.extend(self.redirections(child, own_extra))
            elif kind == "command_name":
                word_nodes.extend(child.children)
            elif kind != "comment":
                word_nodes.append(child)
        redirs.extend(outer)
        words = self.words(word_nodes)
        if extra or own_extra:
            words = sorted([*words, *own_extra, *extra], key=lambda word: word.start)
        where = span_node if span_node is not None else node
        self.depth = depth
        self.piped = bool(self.piped_ids) and self.reads_pipe(node)
        self.run(
            words,
            assignments,
            redirs,
            where.start_byte,
            where.end_byte,
            ctx,
            ctx.wrappers,
            False,
            0,
        )
        if self.may_nest(node):
            self.walk_children(node, ctx, depth)

    # -- words

    def assignment(self, node: Node) -> tuple[str, _Word]:
        name_node = node.child_by_field_name("name")
        value_node = node.child_by_field_name("value")
        name = self.text(name_node) if name_node is not None else ""
        if value_node is None:
            return name, _Word("", False, False, node.end_byte, node.end_byte)
        return name, self.word(value_node)

    def words(self, nodes: list[Node]) -> list[_Word]:
        """Shell words from argument nodes, joining what tree-sitter split but the shell does not
        (``r\\<newline>m`` is one word ``rm``; ``$"x"`` is ``x``), dropping ``0<&3``-style fds."""
        out: list[_Word] = []
        data = self.data
        previous_end = -1
        for index, node in enumerate(nodes):
            if node.type == "$" and index + 1 < len(nodes) and nodes[index + 1].type == "string":
                continue
            word = self.word(node)
            if out and not data[previous_end : word.start].replace(b"\\\n", b""):
                last = out[-1]
                last.value += word.value
                last.expands = last.expands or word.expands
                last.glob = last.glob or word.glob
                last.end = word.end
            elif word.value.isdigit() and data[word.end : word.end + 1] in (b"<", b">"):
                pass  # ``cat 0<&3``: tree-sitter reads the ``0`` as an argument, bash as an fd
            else:
                out.append(word)
            previous_end = word.end
        return out

    def word(self, node: Node) -> _Word:
        if node.type == "word":
            start, end = node.start_byte, node.end_byte
            raw = self.ascii[start:end] if self.ascii is not None else self.text(node)
            if _SPECIAL.search(raw) is None:
                return _Word(raw, False, False, start, end)
        parts: list[str] = []
        flags = [False]  # expands
        skeleton: list[str] = []
        self.unquote(node, parts, flags, skeleton)
        value = "".join(parts)
        expands = flags[0]
        bare = "".join(skeleton)
        if not expands and "{" in bare:
            opening, closing = bare.find("{"), bare.rfind("}")
            if 0 <= opening < closing and (
                "," in bare[opening:closing] or ".." in bare[opening:closing]
            ):
                expands = True  # brace expansion: ``{rm,x}`` is two words
        return _Word(value, expands, _has_glob(bare), node.start_byte, node.end_byte)

    def unquote(self, node: Node, parts: list[str], flags: list[bool], skeleton: list[str]) -> None:
        kind = node.type
        if kind == "word":
            raw = self.text(node)
            if _has_live_substitution(raw):
                self.analysis.problems.append(
                    f"command substitution the parser cannot read: {_snippet(raw)}"
                )
            value, bare = _unescape_word(raw)
            parts.append(value)
            skeleton.append(bare)
        elif kind == "raw_string":
            parts.append(self.text(node)[1:-1])
            skeleton.append("\0")
        elif kind == "string":
            skeleton.append("\0")
            for child in node.children:
                ctype = child.type
                if ctype == "string_content":
                    parts.append(_unescape_double(self.text(child)))
                elif ctype == '"':
                    continue
                else:
                    parts.append(self.text(child))
                    if ctype in _EXPANSION_TYPES or child.child_count:
                        flags[0] = True
        elif kind == "translated_string":  # $"…": a double-quoted string, translated
            for child in node.children:
                if child.type == "string":
                    self.unquote(child, parts, flags, skeleton)
        elif kind == "ansi_c_string":
            parts.append(_decode_ansi_c(self.text(node)[2:-1]))
            skeleton.append("\0")
        elif kind == "concatenation":
            for child in node.children:
                self.unquote(child, parts, flags, skeleton)
        elif kind in _EXPANSION_TYPES:
            parts.append(self.text(node))
            skeleton.append("\0")
            flags[0] = True
        else:
            text = self.text(node)
            parts.append(text)
            skeleton.append(text if kind in ("number", "extglob_pattern") else "\0")
            if node.child_count and kind not in ("number",):
                flags[0] = True

    # -- redirections

    def redirections(self, node: Node, extra: list[_Word]) -> list[Redirection]:
        """The redirections of one redirect node; words tree-sitter hung on it after the
        target (``> f x``) are command words, added to ``extra``."""
        fd: int | None = None
        op = ""
        target_nodes: list[Node] = []
        nested: list[Redirection] = []
        for child in node.children:
            kind = child.type
            if kind == "file_descriptor":
                text = self.text(child)
                fd = int(text) if text.isdigit() and len(text) < 6 else None
            elif not child.is_named and not op and kind not in ('"',):
                op = kind
            elif node.type == "file_redirect" and child.is_named and op:
                target_nodes.append(child)
            elif kind in _REDIRECT_TYPES:
                nested.extend(self.redirections(child, extra))
        if node.type == "heredoc_redirect":
            redirection = Redirection(op, None, fd)
            self.keep_stdin(redirection, self.heredoc_script(node))
            return [redirection, *nested]
        if node.type == "herestring_redirect":
            redirection = Redirection(op, None, fd)
            content = [c for c in node.children if c.is_named]
            if content:
                word = self.words(content)[0] if self.words(content) else None
                if word is not None:
                    self.keep_stdin(redirection, _Script(word.value + "\n", [word]))
            return [redirection, *nested]
        if node.type != "file_redirect" or not target_nodes:
            return [Redirection(op, None, fd), *nested]
        words = self.words(target_nodes)
        target = words[0] if words else None
        extra.extend(words[1:])
        if target is None:
            return [Redirection(op, None, fd), *nested]
        # bash expands a glob in a redirect target (``> out.tx?`` writes ``out.txt``)
        return [Redirection(op, target.value, fd, target.expands or target.glob), *nested]

    def keep_stdin(self, redirection: Redirection, script: _Script | None) -> None:
        if script is not None:
            self.analysis.stdin[id(redirection)] = (redirection, script)

    def heredoc_script(self, node: Node) -> _Script | None:
        """A heredoc body as the text stdin receives (``bash <<EOF`` runs it)."""
        start = body = None
        dash = False
        for child in node.children:
            kind = child.type
            if kind == "heredoc_start":
                start = child
            elif kind == "heredoc_body":
                body = child
            elif kind == "<<-":
                dash = True
        if start is None or body is None:
            return None
        raw = self.text(body)
        quoted = any(c in self.text(start) for c in "'\"\\")
        expands = not quoted and any(c.type in _EXPANSION_TYPES for c in body.children)
        text = raw if quoted else _unescape_heredoc(raw)
        if dash:
            text = "\n".join(line.lstrip("\t") for line in text.split("\n"))
        return _Script(text, [_Word(text, expands, False, body.start_byte, body.end_byte)])

    def stdin_script(self, redirs: list[Redirection]) -> _Script | None:
        """The heredoc or herestring that is a command's stdin, if the last input redirect."""
        found: _Script | None = None
        for redirection in redirs:
            if redirection.fd not in (None, 0) or not redirection.op.startswith("<"):
                continue
            entry = self.analysis.stdin.get(id(redirection))
            found = entry[1] if entry is not None and entry[0] is redirection else None
        return found

    # -- wrappers

    def run(
        self,
        words: list[_Word],
        assignments: dict[str, str],
        redirs: list[Redirection],
        start: int,
        end: int,
        ctx: _Context,
        wrappers: tuple[_Wrap, ...],
        runtime_args: bool,
        level: int,
    ) -> None:
        """Report ``words`` as a command, or look through it if it is a wrapper."""
        if not words:
            if redirs:
                span = self.span(start, end, ctx)
                labels = [label for label, _ in wrappers]
                self.analysis.commands.append(
                    SimpleCommand("", [], assignments, redirs, span, labels)
                )
            return
        if level == 0 and assignments:
            self.assigned_all(assignments, start, end, ctx, wrappers)
        head = words[0]
        handler = None if head.dynamic_at(0) else _WRAPPERS.get(head.value.rpartition("/")[2])
        unwrapped = handler(words) if handler is not None and level < _MAX_WRAPPERS else None
        if unwrapped is not None:
            unwrapped.commands = [inner for inner in unwrapped.commands if inner]
            for problem in unwrapped.problems:
                self.analysis.problem(problem)
            if unwrapped.stdin:
                script = self.stdin_script(redirs)
                if script is not None:
                    unwrapped.scripts.append(script)
                else:
                    # ``curl … | sh``, ``bash < file``: the script is another command's
                    # output or a file's content
                    self.analysis.problem(
                        f"{unwrapped.label} script is known only when it runs "
                        "(read from a pipe, a file or the terminal)"
                    )
        if unwrapped is None and handler in (_source, _shell) and (self.piped or _stdin(redirs)):
            # ``ln -s /dev/stdin s; echo 'rm x' | bash s``: a script file may be stdin
            self.analysis.problem(
                f"{head.value} runs a script file while its stdin is a pipe or a redirection, "
                "which the file may be"
            )
        if unwrapped is None or not (unwrapped.commands or unwrapped.scripts):
            self.emit(words, assignments, redirs, start, end, ctx, wrappers, runtime_args)
            return
        if unwrapped.keep_self:
            self.emit(words, assignments, redirs, start, end, ctx, wrappers, runtime_args)
        inner_wrappers = (*wrappers, (unwrapped.label, tuple([w.value for w in words])))
        if unwrapped.assignments:
            self.assigned_all(unwrapped.assignments, start, end, ctx, inner_wrappers)
        inner_assignments = {**assignments, **unwrapped.assignments}
        for inner in unwrapped.commands:
            self.run(
                inner,
                inner_assignments,
                redirs,
                inner[0].start,
                end,
                ctx,
                inner_wrappers,
                runtime_args or unwrapped.runtime_args,
                level + 1,
            )
        for script in unwrapped.scripts:
            script_start = script.words[0].start
            script_end = script.words[-1].end
            if any(w.expands for w in script.words):
                shown = self.text_between(script_start, script_end)
                self.analysis.problems.append(f"{unwrapped.label} script is not static: {shown}")
                if not unwrapped.keep_self:
                    self.emit(words, assignments, redirs, start, end, ctx, wrappers, runtime_args)
                continue
            mark = len(self.analysis.commands)
            inner_ctx = _Context(
                inner_wrappers,
                tuple(redirs),
                self.span(script_start, script_end, ctx),
                ctx.depth + 1,
            )
            self.analysis.script(script.text, inner_ctx, self.depth + 1)
            if not unwrapped.keep_self and len(self.analysis.commands) == mark:
                self.emit(words, assignments, redirs, start, end, ctx, wrappers, runtime_args)

    def text_between(self, start: int, end: int) -> str:
        return _snippet(_decode(self.data[start:end]))

    def emit(
        self,
        words: list[_Word],
        assignments: dict[str, str],
        redirs: list[Redirection],
        start: int,
        end: int,
        ctx: _Context,
        wrappers: tuple[_Wrap, ...],
        runtime_args: bool,
    ) -> None:
        flags = [w.expands for w in words]
        if words[0].glob:
            flags[0] = True
        if not flags[0] and _arithmetic_on_a_variable(words):
            self.analysis.arithmetic_problem(" ".join(w.value for w in words))
        if words[0].value in ("{", "}") and not flags[0]:
            # bash never runs a command named ``{`` or ``}``: the grammar misread a group
            self.analysis.problems.append(f"a group the parser cannot read: {words[0].value}")
        check = None if flags[0] else _RUNS_CODE.get(words[0].value)
        if check is not None:
            for problem in (*check(words), *_hidden_options(words)):
                self.analysis.problem(problem)
        self.analysis.commands.append(
            SimpleCommand(
                program=words[0].value,
                argv=[w.value for w in words],
                assignments=dict(assignments),
                redirections=list(redirs),
                span=self.span(start, end, ctx),
                wrappers=[label for label, _ in wrappers],
                dynamic=runtime_args or any(flags),
                dynamic_words=flags,
                wrapper_argvs=[list(argv) for _, argv in wrappers],
            )
        )


# --- arithmetic ---------------------------------------------------------------------------------

#: Nodes whose text bash evaluates as arithmetic (see :meth:`_Walker.arithmetic`).
_ARITHMETIC_NODES = frozenset(
    {
        "arithmetic_expansion",
        "compound_statement",
        "c_style_for_statement",
        "subscript",
        "expansion",
        "binary_expression",
    }
)
#: ``[[ a OP b ]]`` operators that evaluate both sides as arithmetic.
_ARITHMETIC_TESTS = frozenset({"-eq", "-ne", "-lt", "-le", "-gt", "-ge"})
#: Builtins whose ``-i`` gives a variable the integer attribute.
_DECLARES = frozenset({"declare", "typeset", "local"})
#: Numbers (``12``, ``0x1f``, ``16#ff``) and parameters that are always numbers (``$#``,
#: ``$?``, ``$$``, ``$!``, ``${#name}``): what may stay in arithmetic that reads no variable.
_ARITHMETIC_LITERAL = re.compile(
    r"\d[0-9A-Za-z_#@]*|\$[#?$!]|\$\{[#?$!]\}|\$\{#[A-Za-z_][A-Za-z0-9_]*\}"
)
#: What is left of a name, a ``$`` expansion, a backtick or an escape after the literals.
_ARITHMETIC_NAME = re.compile(r"[A-Za-z_$`\\]")


def _reads_variable(expression: str) -> bool:
    """Whether arithmetic ``expression`` holds more than numbers and operators."""
    return _ARITHMETIC_NAME.search(_ARITHMETIC_LITERAL.sub("0", expression)) is not None


def _arithmetic_on_a_variable(words: list[_Word]) -> bool:
    """``let`` evaluates each argument as arithmetic; after ``declare -i n`` (also
    ``typeset``/``local``) every later ``n=…`` does, so ``n=x`` evaluates ``x``."""
    if words[0].value == "let":
        return any(_reads_variable(w.value) or w.expands for w in words[1:])
    if words[0].value in _DECLARES:
        return any(w.value[:1] in "-+" and "i" in w.value for w in words[1:])
    return False


def _compares_numbers(node: Node, walker: _Walker) -> bool:
    """Whether a test is ``[[ a -eq b ]]`` (or ``-ne``…), which evaluates ``a`` and ``b``
    as arithmetic; ``[``/``test`` read plain numbers only."""
    if not any(walker.text(c) in _ARITHMETIC_TESTS for c in node.children):
        return False
    parent = node.parent
    while parent is not None and parent.type != "test_command":
        parent = parent.parent
    return parent is not None and walker.text(parent).startswith("[[")


def _substring_range(text: str) -> str:
    """The offset and length of ``${name:off:len}`` (``"off:len"``), else ``""``; the name
    may be ``#``/``!``-prefixed or subscripted. ``${x:-y}`` ``:=`` ``:?`` ``:+`` are not ranges."""
    body = text[2:-1] if text.startswith("${") and text.endswith("}") else text[2:]
    match = re.match(r"[#!]?(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])", body)
    if match is None:
        return ""
    i = match.end()
    if body[i : i + 1] == "[":  # skip the subscript: it has its own node
        depth = 0
        while i < len(body):
            depth += {"[": 1, "]": -1}.get(body[i], 0)
            i += 1
            if depth == 0:
                break
    rest = body[i:]
    if rest.startswith(":") and rest[1:2] not in ("-", "=", "?", "+"):
        return rest[1:]
    return ""


# --- code known only at run time ----------------------------------------------------------------

#: Nodes :meth:`_Walker.runtime_code` looks at.
_RUNTIME_NODES = frozenset(
    {
        "expansion",
        "variable_assignment",
        "for_statement",
        "select_statement",
        "unary_expression",
        "function_definition",
    }
)
#: ``${!name[@]}``, ``${!name[*]}``, ``${!prefix@}``, ``${!prefix*}`` list names (and
#: ``${!#}`` is the last argument); any other ``${!…}`` reads the variable a value names.
_NAME_LISTING = re.compile(r"\$\{!(?:[A-Za-z_][A-Za-z0-9_]*(?:\[[@*]\]|[@*])|#)\}")
#: ``${NAME=…}``, ``${NAME:=…}``: an expansion that assigns.
_ASSIGNING_EXPANSION = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?:\[[^]]*\])?:?=")
#: A variable name with a subscript: ``a[…]``.
_SUBSCRIPTED = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\[(.*)\]", re.DOTALL)

#: Variables a shell runs as code or loads code from (``BASH_ENV`` when bash starts,
#: ``PS4`` under xtrace, ``PROMPT_COMMAND`` before a prompt, ``SHELLOPTS`` turning xtrace
#: on in every child bash…); ``LD_PRELOAD`` for every program.
_CODE_VARIABLES = frozenset(
    {
        "BASH_ENV",
        "ENV",
        "PS0",
        "PS1",
        "PS2",
        "PS3",
        "PS4",
        "PROMPT_COMMAND",
        "SHELLOPTS",
        "BASHOPTS",
        "PERL5OPT",
        "PERL5DB",
        "PERL5LIB",
        "PYTHONSTARTUP",
        "PYTHONPATH",
        "NODE_OPTIONS",
        "RUBYOPT",
        "LESSOPEN",
        "LESSCLOSE",
        "GIT_DIR",
        "GIT_EXEC_PATH",
        "GIT_TEMPLATE_DIR",
        "GIT_ALLOW_PROTOCOL",
        "BASH_LOADABLES_PATH",
    }
)
#: Variables that change where ``~`` and ``cd x`` lead: a path the rules were shown is
#: then another place.
_PLACE_VARIABLES = frozenset({"HOME", "CDPATH"})
#: Prefixes of such variables: exported functions, git configuration from the environment.
_CODE_VARIABLE_PREFIXES = ("BASH_FUNC_", "GIT_CONFIG", "LD_")
#: Variables whose value programs run with ``sh -c`` (git's pager and editor…): the value
#: is parsed as a script, so ``GIT_PAGER=cat`` stays readable.
_COMMAND_VARIABLES = frozenset(
    {
        "GIT_PAGER",
        "GIT_EDITOR",
        "GIT_SEQUENCE_EDITOR",
        "GIT_SSH_COMMAND",
        "GIT_EXTERNAL_DIFF",
        "GIT_ASKPASS",
        "GIT_PROXY_COMMAND",
        "SSH_ASKPASS",
        "SHELL",
        "PAGER",
        "MANPAGER",
        "SYSTEMD_PAGER",
        "EDITOR",
        "VISUAL",
        "BROWSER",
    }
)


def _may_run_code(name: str) -> bool:
    """A quick test before a closer look: whether assigning ``name`` may run code."""
    base = name.partition("[")[0].rstrip("+")
    return (
        base in _CODE_VARIABLES
        or base in _PLACE_VARIABLES
        or base in _COMMAND_VARIABLES
        or base == "PATH"
        or base.startswith(_CODE_VARIABLE_PREFIXES)
    )


def _variable_problem(name: str) -> str | None:
    if name in _PLACE_VARIABLES:
        return f"sets {name}, which changes where ~ or cd lead"
    if (
        name in _CODE_VARIABLES
        or name in _COMMAND_VARIABLES
        or name.startswith(_CODE_VARIABLE_PREFIXES)
    ):
        return f"sets {name}, whose value runs as code known only at run time"
    return None


def _search_path_problem(name: str, value: str) -> str | None:
    """``PATH=.:$PATH``: a folder given relatively (``.``, an empty entry) makes every
    command name a file the line itself may have written."""
    if name.rstrip("+") != "PATH":
        return None
    for entry in value.split(":"):
        if not entry.startswith(("/", "$", "~")):
            return f"sets PATH with a relative folder ({entry or 'an empty entry'!s})"
    return None


def _expansion_problem(text: str) -> str | None:
    """Why ``${…}`` runs code held in a variable: ``${x@P}`` expands the value as a
    prompt (``$(…)`` included), ``${!x}`` reads the variable the value names, so a value
    ``a[$(cmd)]`` runs ``cmd``; ``${PS4:=…}`` assigns a variable bash runs."""
    if text.startswith("${!") and _NAME_LISTING.fullmatch(text) is None:
        return "indirect expansion, which evaluates a variable's value"
    if text.endswith("@P}"):
        return "prompt expansion, which runs the commands in a variable's value"
    match = _ASSIGNING_EXPANSION.match(text)
    if match is not None:
        return _variable_problem(match.group(1))
    return None


def _name_problems(
    words: Sequence[_Word], where: str, assigns: Literal["always", "with a value", "never"]
) -> list[str]:
    """Builtins that take a variable name evaluate a subscript in it: ``read 'a[$(cmd)]'``
    runs ``cmd``. A name decided at run time, a subscript that is not a number, or — when
    the builtin ``assigns`` it — a variable bash runs as code, is known only at run time."""
    problems: list[str] = []
    for word in words:
        shown = _snippet(word.value)
        match = _SUBSCRIPTED.match(word.value)
        name = word.value.partition("=")[0] if match is None else match.group(0)
        if word.expands and ("$" in name or "`" in name):
            problems.append(f"{where} names a variable known only at run time: {shown}")
            continue
        if match is not None:
            subscript = match.group(2)
            if "]=" in subscript:  # ``a[i]=v[w]``: the subscript ends at ``]=``
                subscript = subscript[: subscript.find("]=")]
            if _reads_variable(subscript):
                problems.append(f"{where} evaluates a subscript that may run commands: {shown}")
                continue
            name = match.group(1)
        if assigns == "never" or (assigns == "with a value" and "=" not in word.value):
            continue
        value = word.value.partition("=")[2]
        problem = _variable_problem(name.rstrip("+")) or _search_path_problem(name, value)
        if problem is not None:
            problems.append(problem)
    return problems


def _operands(
    words: list[_Word], short_value: str, long_value: frozenset[str] = frozenset()
) -> tuple[list[_Word], list[_Option]]:
    i, found = _options(words, 1, short_value, long_value)
    return words[i:], found


def _option_words(found: list[_Option], *names: str) -> list[_Word]:
    """The values of options ``names`` as words (``-va`` gives ``a``)."""
    return [
        _Word(o.value or "", o.word.expands, False, o.word.start, o.word.end)
        for o in found
        if o.name in names and o.word is not None
    ]


def _read_names(words: list[_Word]) -> list[str]:
    operands, found = _operands(words, "adinNptu")
    return _name_problems([*operands, *_option_words(found, "-a")], words[0].value, "always")


def _printf_names(words: list[_Word]) -> list[str]:
    _, found = _operands(words, "v")
    return _name_problems(_option_words(found, "-v"), "printf -v", "always")


def _wait_names(words: list[_Word]) -> list[str]:
    _, found = _operands(words, "p")
    return _name_problems(_option_words(found, "-p"), "wait -p", "always")


def _getopts_names(words: list[_Word]) -> list[str]:
    return _name_problems(words[2:3], "getopts", "always")


def _mapfile(words: list[_Word]) -> list[str]:
    operands, found = _operands(words, "dnOsuCc")
    problems = _name_problems(operands[:1], words[0].value, "always")
    if _names(found) & {"-C"}:
        problems.append(f"{words[0].value} -C runs a callback string at run time")
    return problems


def _unset_names(words: list[_Word]) -> list[str]:
    operands, found = _operands(words, "")
    if _names(found) & {"-f"}:
        return []
    return _name_problems(operands, "unset", "never")


def _declare_names(words: list[_Word]) -> list[str]:
    """``declare``/``typeset``/``local``/``export``/``readonly``: each operand is a name or
    ``name=value``; ``-n`` makes a nameref, through which any later name is another."""
    operands: list[_Word] = []
    letters = ""
    for word in words[1:]:
        value = word.value
        if not operands and len(value) > 1 and value[0] in "-+" and not word.expands:
            letters += value[1:] if value[0] == "-" else ""
            continue
        operands.append(word)
    if "f" in letters or "F" in letters:
        return []
    problems = _name_problems(operands, words[0].value, "with a value")
    if "n" in letters and words[0].value in _DECLARES:
        problems.append(f"{words[0].value} -n makes a name whose target is known only at run time")
    return problems


def _test_names(words: list[_Word]) -> list[str]:
    found = [words[i + 1] for i in range(1, len(words) - 1) if words[i].value in ("-v", "-R")]
    return _name_problems(found, f"{words[0].value} -v", "never")


def _completion(words: list[_Word]) -> list[str]:
    """``compgen``/``complete`` ``-C cmd`` and ``-F func`` run code; ``-W`` expands words."""
    _, found = _operands(words, "AGWXPSCFo")
    name = words[0].value
    problems = [f"{name} {o.name} runs code at run time" for o in found if o.name in ("-C", "-F")]
    problems.extend(
        f"{name} -W expands its words at run time: {_snippet(o.value or '')}"
        for o in found
        if o.name == "-W" and o.value is not None and ("$" in o.value or "`" in o.value)
    )
    return problems


def _enable(words: list[_Word]) -> list[str]:
    _, found = _operands(words, "f")
    return ["enable -f loads a builtin from a shared object"] if _names(found) & {"-f"} else []


def _fc(words: list[_Word]) -> list[str]:
    _, found = _operands(words, "e")
    if _names(found) & {"-l"}:
        return []
    return ["fc runs commands from the history, known only at run time"]


#: Builtins whose options make them run a string.
_RUNS_STRINGS = frozenset({"mapfile", "readarray", "compgen", "complete", "enable", "fc"})


def _hidden_options(words: list[_Word]) -> list[str]:
    """An argument known only at run time may be an option (``x=-v; printf $x 'a[…]'``):
    then every argument may be a name, and a builtin that runs strings may run one."""
    first = next((i for i, w in enumerate(words) if i and w.expands), 0)
    if not first:
        return []
    name = words[0].value
    if name in _RUNS_STRINGS:
        return [f"{name} is given arguments known only at run time"]
    static = [w for w in words[first + 1 :] if not w.expands]  # names follow the option
    return [p for p in _name_problems(static, name, "never") if "subscript" in p]


#: Builtins that run code held in a string or evaluate the variable names they are given.
_RUNS_CODE: dict[str, Callable[[list[_Word]], list[str]]] = {
    "read": _read_names,
    "printf": _printf_names,
    "wait": _wait_names,
    "getopts": _getopts_names,
    "mapfile": _mapfile,
    "readarray": _mapfile,
    "unset": _unset_names,
    "test": _test_names,
    "[": _test_names,
    "compgen": _completion,
    "complete": _completion,
    "enable": _enable,
    "fc": _fc,
    **{name: _declare_names for name in ("declare", "typeset", "local", "export", "readonly")},
}


# --- word unquoting ---------------------------------------------------------------------------


def _unescape_word(raw: str) -> tuple[str, str]:
    """An unquoted word's value, and its text with escaped characters blanked (for globs)."""
    if "\\" not in raw:
        return raw, raw
    out: list[str] = []
    bare: list[str] = []
    i = 0
    n = len(raw)
    while i < n:
        char = raw[i]
        if char == "\\" and i + 1 < n:
            nxt = raw[i + 1]
            if nxt != "\n":
                out.append(nxt)
                bare.append("\0")
            i += 2
            continue
        out.append(char)
        bare.append(char)
        i += 1
    return "".join(out), "".join(bare)


def _has_glob(bare: str) -> bool:
    """Whether unquoted, unescaped text is a pathname pattern (``*``, ``?``, ``[…]``)."""
    if "*" in bare or "?" in bare:
        return True
    opening = bare.find("[")
    return opening >= 0 and "]" in bare[opening + 1 :]


def _has_live_substitution(raw: str) -> bool:
    """True when an unquoted word's text holds a backtick or ``$(`` that no backslash escapes."""
    if "`" not in raw and "$(" not in raw:
        return False
    i = 0
    n = len(raw)
    while i < n:
        char = raw[i]
        if char == "\\":
            i += 2
            continue
        if char == "`" or (char == "$" and raw[i + 1 : i + 2] == "("):
            return True
        i += 1
    return False


def _unescape_heredoc(raw: str) -> str:
    """In an unquoted heredoc a backslash escapes only ``$ ` \\`` and a newline."""
    return _unescape(raw, "$`\\\n")


def _unescape_double(raw: str) -> str:
    """Inside double quotes a backslash escapes only ``$ ` " \\`` and a newline."""
    return _unescape(raw, '$`"\\\n')


def _unescape(raw: str, escapable: str) -> str:
    """Drop the backslash before each character of ``escapable`` (a line continuation
    — backslash-newline — disappears altogether); other backslashes stay."""
    if "\\" not in raw:
        return raw
    out: list[str] = []
    i = 0
    n = len(raw)
    while i < n:
        char = raw[i]
        if char == "\\" and i + 1 < n and raw[i + 1] in escapable:
            if raw[i + 1] != "\n":
                out.append(raw[i + 1])
            i += 2
            continue
        out.append(char)
        i += 1
    return "".join(out)


_ANSI_SIMPLE = {
    "a": "\a",
    "b": "\b",
    "e": "\x1b",
    "E": "\x1b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "v": "\v",
    "\\": "\\",
    "'": "'",
    '"': '"',
    "?": "?",
}
_HEX = frozenset("0123456789abcdefABCDEF")


def _decode_ansi_c(body: str) -> str:
    """The value of ``$'…'`` as bash decodes it (``\\x72`` is ``r``, ``\\0`` ends the string)."""
    out: list[str] = []
    i = 0
    n = len(body)
    while i < n:
        char = body[i]
        if char != "\\" or i + 1 >= n:
            out.append(char)
            i += 1
            continue
        code = body[i + 1]
        i += 2
        if code in _ANSI_SIMPLE:
            out.append(_ANSI_SIMPLE[code])
        elif code in "01234567":
            digits = code
            while i < n and len(digits) < 3 and body[i] in "01234567":
                digits += body[i]
                i += 1
            out.append(chr(int(digits, 8) & 0xFF))
        elif code in "xuU":
            limit = {"x": 2, "u": 4, "U": 8}[code]
            digits = ""
            while i < n and len(digits) < limit and body[i] in _HEX:
                digits += body[i]
                i += 1
            if not digits:
                out.append("\\" + code)
            else:
                value = int(digits, 16)
                out.append(chr(value) if value < 0x110000 else "\ufffd")
        elif code == "c" and i < n:
            out.append(chr(ord(body[i]) & 0x1F))
            i += 1
        else:
            out.append("\\" + code)
    decoded = "".join(out)
    cut = decoded.find("\0")
    return decoded if cut < 0 else decoded[:cut]


# --- wrappers ---------------------------------------------------------------------------------


@dataclass(slots=True)
class _Option:
    """One option a wrapper was given; ``word`` is the word its value came from."""

    name: str
    value: str | None = None
    word: _Word | None = None

    def script(self) -> _Script | None:
        if self.value is None or self.word is None:
            return None
        return _Script(self.value, [self.word])


def _options(
    words: list[_Word],
    start: int,
    short_value: str = "",
    long_value: frozenset[str] = frozenset(),
) -> tuple[int, list[_Option]]:
    """getopt-style scan from ``start``: the index of the first operand and the options seen."""
    found: list[_Option] = []
    i = start
    n = len(words)
    while i < n:
        word = words[i].value
        if word == "--":
            return i + 1, found
        if word.startswith("--") and len(word) > 2:
            name, eq, value = word.partition("=")
            if eq:
                found.append(_Option(name, value, words[i]))
            elif name in long_value and i + 1 < n:
                found.append(_Option(name, words[i + 1].value, words[i + 1]))
                i += 1
            else:
                found.append(_Option(name))
            i += 1
            continue
        if word.startswith("-") and len(word) > 1:
            for j in range(1, len(word)):
                letter = word[j]
                if letter in short_value:
                    if j + 1 < len(word):
                        found.append(_Option("-" + letter, word[j + 1 :], words[i]))
                    elif i + 1 < n:
                        i += 1
                        found.append(_Option("-" + letter, words[i].value, words[i]))
                    else:
                        found.append(_Option("-" + letter))
                    break
                found.append(_Option("-" + letter))
            i += 1
            continue
        return i, found
    return i, found


def _names(found: list[_Option]) -> set[str]:
    return {option.name for option in found}


def _is_assignment(word: _Word) -> bool:
    return _ASSIGNMENT.match(word.value) is not None


def _take_assignments(words: list[_Word], i: int, into: dict[str, str]) -> int:
    while i < len(words) and _is_assignment(words[i]):
        name, _, value = words[i].value.partition("=")
        into[name] = value
        i += 1
    return i


def _joined(words: list[_Word]) -> _Script:
    """``eval a b`` and ``watch a b`` run their arguments joined by spaces."""
    return _Script(" ".join(w.value for w in words), words)


def _simple(
    label: str,
    short_value: str = "",
    long_value: frozenset[str] = frozenset(),
    stops: str = "",
    *,
    shell: bool = False,
    skip: int = 0,
) -> Callable[[list[_Word]], _Unwrapped | None]:
    """A wrapper ``NAME [options] [skip operands] COMMAND…``; options in ``stops`` mean it
    runs nothing; ``shell``: with no command it starts a shell that reads stdin."""

    def unwrap(words: list[_Word]) -> _Unwrapped | None:
        i, found = _options(words, 1, short_value, long_value)
        if any(len(o.name) == 2 and o.name[1] in stops for o in found):
            return None
        i += skip
        if i >= len(words) and shell:
            return _Unwrapped(f"{label} stdin", stdin=True)
        return _Unwrapped(label, commands=[words[i:]])

    return unwrap


def _opaque(
    label: str, short_value: str = "", long_value: frozenset[str] = frozenset()
) -> Callable[[list[_Word]], _Unwrapped | None]:
    """A wrapper whose command cannot be found reliably: the line is unparsable, and the
    words after its options are still reported as a command, for deny rules."""

    def unwrap(words: list[_Word]) -> _Unwrapped | None:
        i, _ = _options(words, 1, short_value, long_value)
        problem = f"{label} runs a command the parser cannot find for certain"
        return _Unwrapped(label, commands=[words[i:]], problems=[problem])

    return unwrap


def _sudo(words: list[_Word]) -> _Unwrapped | None:
    i, found = _options(
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
    names = _names(found)
    if names & {"-e", "--edit", "-l", "--list", "-v", "--validate", "-K", "-V", "--version"}:
        return None
    result = _Unwrapped("sudo")
    i = _take_assignments(words, i, result.assignments)
    if i >= len(words) and names & {"-s", "--shell", "-i", "--login"}:
        return _Unwrapped("sudo -s", stdin=True)  # a shell that reads its script from stdin
    result.commands.append(words[i:])
    return result


def _env(words: list[_Word]) -> _Unwrapped | None:
    result = _Unwrapped("env")
    i = 1
    split: _Option | None = None
    while i < len(words):
        i, found = _options(words, i, "uCSP", frozenset({"--unset", "--chdir", "--split-string"}))
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
        return _Unwrapped("env -S", scripts=[_Script(text, [split.word, *rest])])
    result.commands.append(words[i:])
    return result


def _command_builtin(words: list[_Word]) -> _Unwrapped | None:
    i, found = _options(words, 1)
    if _names(found) & {"-v", "-V"}:
        return None
    return _Unwrapped("command", commands=[words[i:]])


def _timeout(words: list[_Word]) -> _Unwrapped | None:
    i, _ = _options(words, 1, "sk", frozenset({"--signal", "--kill-after"}))
    return _Unwrapped("timeout", commands=[words[i + 1 :]])


def _chrt(words: list[_Word]) -> _Unwrapped | None:
    i, found = _options(
        words, 1, "TPD", frozenset({"--sched-runtime", "--sched-period", "--sched-deadline"})
    )
    if _names(found) & {"-p", "--pid", "-m", "--max", "-h", "--help", "-V", "--version"}:
        return None
    return _Unwrapped("chrt", commands=[words[i + 1 :]])


def _ionice(words: list[_Word]) -> _Unwrapped | None:
    i, found = _options(
        words, 1, "cnpPu", frozenset({"--class", "--classdata", "--pid", "--pgid", "--uid"})
    )
    if _names(found) & {"-p", "-P", "-u", "--pid", "--pgid", "--uid"}:
        return None
    return _Unwrapped("ionice", commands=[words[i:]])


def _flock(words: list[_Word]) -> _Unwrapped | None:
    values = "wEc"
    long_values = frozenset({"--timeout", "--wait", "--conflict-exit-code", "--command"})
    i, found = _options(words, 1, values, long_values)
    i += 1  # the lock file (or fd)
    j, more = _options(words, i, values, long_values)
    for option in [*found, *more]:
        script = option.script() if option.name in ("-c", "--command") else None
        if script is not None:
            return _Unwrapped("flock -c", scripts=[script])
    return _Unwrapped("flock", commands=[words[j:]])


def _watch(words: list[_Word]) -> _Unwrapped | None:
    i, found = _options(words, 1, "nq", frozenset({"--interval", "--equexit"}))
    if _names(found) & {"-x", "--exec"}:
        return _Unwrapped("watch", commands=[words[i:]])
    if i >= len(words):
        return None
    return _Unwrapped("watch", scripts=[_joined(words[i:])])


def _xargs(words: list[_Word]) -> _Unwrapped | None:
    i, found = _options(
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
    return _Unwrapped("xargs", commands=[inner], runtime_args=True)


def _replaced(word: _Word, marks: set[str] | None) -> _Word:
    """``word`` marked as decided at run time if a wrapper replaces part of it (``{}``);
    ``marks=None``: whatever the text."""
    if marks is None or any(mark in word.value for mark in marks):
        return _Word(word.value, True, word.glob, word.start, word.end)
    return word


def _find(words: list[_Word]) -> _Unwrapped | None:
    result = _Unwrapped("find", keep_self=True, runtime_args=True)
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


def _coproc(words: list[_Word]) -> _Unwrapped | None:
    """``coproc cmd``, ``coproc { list; }``, ``coproc NAME { list; }``: the grammar splits
    the group, so the ``}`` left over makes the line unparsable; the list's first
    command is reported from here."""
    start = 1
    if len(words) > 2 and words[2].value in ("{", "(") and words[1].value not in ("{", "("):
        start = 2
    if start < len(words) and words[start].value in ("{", "("):
        start += 1
    return _Unwrapped("coproc", commands=[words[start:]])


def _busybox(words: list[_Word]) -> _Unwrapped | None:
    if len(words) < 2 or words[1].value.startswith("-"):
        return None
    return _Unwrapped("busybox", commands=[words[1:]])


def _su(words: list[_Word]) -> _Unwrapped | None:
    """``su [options] [-] [user] -c CMD``: su permutes, so ``-c`` may follow the user."""
    for index, word in enumerate(words[1:], start=1):
        value = word.value
        if value in ("-c", "--command", "--session-command") and index + 1 < len(words):
            return _Unwrapped(
                "su -c", scripts=[_Script(words[index + 1].value, [words[index + 1]])]
            )
        if value.startswith(("--command=", "--session-command=")):
            return _Unwrapped("su -c", scripts=[_Script(value.partition("=")[2], [word])])
        if value.startswith("-") and not value.startswith("--") and "c" in value:
            letters = value[1:]
            attached = letters[letters.index("c") + 1 :]
            if attached:
                return _Unwrapped("su -c", scripts=[_Script(attached, [word])])
            if index + 1 < len(words):
                script = _Script(words[index + 1].value, [words[index + 1]])
                return _Unwrapped("su -c", scripts=[script])
    return _Unwrapped("su", stdin=True)  # with no -c, the shell reads its script from stdin


def _chroot(words: list[_Word]) -> _Unwrapped | None:
    i, _ = _options(words, 1, "", frozenset({"--userspec", "--groups"}))
    if i + 1 >= len(words):
        return _Unwrapped("chroot stdin", stdin=True)  # ``chroot /`` starts a shell
    return _Unwrapped("chroot", commands=[words[i + 1 :]])


def _runuser(words: list[_Word]) -> _Unwrapped | None:
    """``runuser -u USER [--] CMD…`` runs a command; without ``-u`` it is ``su``."""
    i, found = _options(
        words,
        1,
        "ugGsw",
        frozenset({"--user", "--group", "--supp-group", "--shell", "--whitelist-environment"}),
    )
    if not _names(found) & {"-u", "--user"} or _names(found) & {"-c", "--command"}:
        unwrapped = _su(words)
        if unwrapped is not None:
            unwrapped.label = unwrapped.label.replace("su", "runuser", 1)
        return unwrapped
    return _Unwrapped("runuser", commands=[words[i:]])


def _sg(words: list[_Word]) -> _Unwrapped | None:
    """``sg GROUP [-c] COMMAND``: the command is one string, run by ``/bin/sh -c``."""
    i = 2 if len(words) > 1 and words[1].value != "-" else 3
    if i < len(words) and words[i].value == "-c":
        i += 1
    if i >= len(words):
        return _Unwrapped("sg stdin", stdin=True)
    return _Unwrapped("sg", scripts=[_joined(words[i:])])


#: ssh ``-o`` options and config keys that run a local command.
_SSH_RUNS = re.compile(
    r"(?i)\s*(proxycommand|localcommand|knownhostscommand|permitlocalcommand|match)"
)


def _ssh_problems(label: str, found: list[_Option]) -> list[str]:
    """``-o ProxyCommand=…``, ``-F config``, ``scp -S program``: a local command."""
    return [
        f"{label} {o.name} {_snippet(o.value or '')} runs a local command"
        for o in found
        if (o.name == "-o" and _SSH_RUNS.match(o.value or "")) or o.name in ("-F", "-S")
    ]


def _scp(words: list[_Word]) -> _Unwrapped | None:
    _, found = _options(words, 1, "cDFiJloPSRX")
    problems = _ssh_problems(words[0].value, found)
    return _Unwrapped(words[0].value, problems=problems) if problems else None


def _ssh(words: list[_Word]) -> _Unwrapped | None:
    """``ssh [options] HOST [COMMAND…]``: the command words are joined into one script
    (run by the remote shell, which may be this machine's); ``-o ProxyCommand=…`` and
    ``-F config`` run a local command known only at run time."""
    i, found = _options(words, 1, "BbcDEeFIiJLlmOoPpQRSWw")
    problems = _ssh_problems("ssh", found)
    if i >= len(words):
        return _Unwrapped("ssh", problems=problems) if problems else None
    rest = words[i + 1 :]
    if not rest:
        return _Unwrapped("ssh stdin", stdin=True, problems=problems)
    return _Unwrapped("ssh", scripts=[_joined(rest)], problems=problems)


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


def _bwrap(words: list[_Word]) -> _Unwrapped | None:
    i = 1
    while i < len(words) and words[i].value.startswith("--"):
        option = words[i].value
        if option == "--":
            i += 1
            break
        if option == "--args":
            return _Unwrapped("bwrap", problems=["bwrap --args reads its arguments at run time"])
        if option in _BWRAP_NONE or option.startswith("--unshare"):
            i += 1
        else:
            i += 3 if option in _BWRAP_TWO else 2
    return _Unwrapped("bwrap", commands=[words[i:]])


#: ``script`` options that take a value.
_SCRIPT_VALUES = "cEIOBTmo"


def _script(words: list[_Word]) -> _Unwrapped | None:
    """util-linux ``script [options] [file] [-- command…]``: ``-c``/``--command`` is a
    string run by ``$SHELL -c`` (options may follow the file); with no command it starts
    a shell that reads stdin."""
    i = 1
    while i < len(words):
        value = words[i].value
        if value == "--":
            return _Unwrapped("script", commands=[words[i + 1 :]])
        if value.startswith("--command"):
            _, eq, attached = value.partition("=")
            target = words[i] if eq else words[i + 1] if i + 1 < len(words) else None
            if target is not None:
                text = attached if eq else target.value
                return _Unwrapped("script -c", scripts=[_Script(text, [target])])
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
                    return _Unwrapped("script -c", scripts=[_Script(text, [target])])
                if not attached:
                    i += 1
                break
        i += 1
    return _Unwrapped("script stdin", stdin=True)


def _runs_option(
    label: str, shorts: str = "", longs: tuple[str, ...] = (), plus: bool = False
) -> Callable[[list[_Word]], _Unwrapped | None]:
    """A program that runs a command named in one of its options (``tar --to-command``,
    ``rsync -e``, ``zip -TT``, ``man -P``, ``vim -c``/``+cmd``): the line is unparsable."""

    def unwrap(words: list[_Word]) -> _Unwrapped | None:
        for word in words[1:]:
            value = word.value
            hit = bool(longs) and value.startswith(longs)
            if not hit and shorts and value[:1] == "-" and value[1:2] != "-":
                hit = any(letter in shorts for letter in value[1:])
            if not hit and plus and value[:1] == "+":
                hit = True
            if hit:
                problem = f"{label} {_snippet(value)} runs a command given at run time"
                return _Unwrapped(label, problems=[problem])
        return None

    return unwrap


def _make(words: list[_Word]) -> _Unwrapped | None:
    """``make --eval``/``-E`` runs text given at run time; ``make -f -`` (or a descriptor)
    reads a makefile from stdin. A makefile on disk is a script file, not read here."""
    _, found = _options(
        words, 1, "CEfIjloW", frozenset({"--file", "--makefile", "--eval", "--directory"})
    )
    for option in found:
        name = option.name
        if name in ("-E", "--eval"):
            return _Unwrapped("make", problems=["make --eval runs text given at run time"])
        if name in ("-f", "--file", "--makefile") and option.value is not None:
            if option.value == "-" or option.word is None:
                return _Unwrapped("make", problems=["make reads its makefile from stdin"])
            fed = _code_file("make", _Word(option.value, option.word.expands, False, 0, 0))
            if fed is not None:
                return fed
    return None


#: ``setarch`` under its architecture names (``linux64 rm x``).
_ARCH_ALIASES = ("linux32", "linux64", "i386", "x86_64", "uname26")


def _setarch(words: list[_Word]) -> _Unwrapped | None:
    """``setarch [ARCH] [options] [COMMAND…]``: with no command it starts a shell."""
    i = 2 if len(words) > 1 and not words[1].value.startswith("-") else 1
    i, found = _options(words, i, "B")
    if _names(found) & {"--list", "-h", "--help", "-V", "--version"}:
        return None
    if i >= len(words):
        return _Unwrapped("setarch stdin", stdin=True)
    return _Unwrapped("setarch", commands=[words[i:]])


def _loader(words: list[_Word]) -> _Unwrapped | None:
    """The dynamic loader runs the program it is given: ``ld-linux-x86-64.so.2 /bin/rm x``."""
    i = 1
    while i < len(words) and words[i].value.startswith("--"):
        i += 1 if words[i].value in ("--list", "--verify", "--help", "--version") else 2
    return _Unwrapped("ld.so", commands=[words[i:]])


def _later(label: str) -> Callable[[list[_Word]], _Unwrapped | None]:
    """``at``/``batch`` read the commands they schedule from stdin (or ``-f FILE``)."""

    def unwrap(words: list[_Word]) -> _Unwrapped | None:
        _, found = _options(words, 1, "qft")
        if _names(found) & {"-l", "-r", "-d", "-c"}:
            return None
        if _names(found) & {"-f"}:
            return _Unwrapped(label, problems=[f"{label} -f schedules a script file's commands"])
        return _Unwrapped(f"{label} stdin", stdin=True)

    return unwrap


def _crontab(words: list[_Word]) -> _Unwrapped | None:
    _, found = _options(words, 1, "u")
    if _names(found) & {"-l", "-r", "-e", "-V"}:
        return None
    return _Unwrapped("crontab", problems=["crontab installs commands that run later"])


def _gdb(words: list[_Word]) -> _Unwrapped | None:
    """``gdb --args PROG…`` runs PROG; ``-ex``/``-x``/``-batch`` commands can run anything."""
    values = {"-ex", "-iex", "-x", "-ix", "--eval-command", "--command", "-p", "--pid"}
    for index, word in enumerate(words[1:], start=1):
        if word.value == "--args":
            return _Unwrapped("gdb --args", commands=[words[index + 1 :]])
        name = word.value.partition("=")[0]
        if name in values or name in ("-batch", "--batch"):
            return _Unwrapped("gdb", problems=["gdb runs debugger commands known only at run time"])
    return None


def _interpreter(
    label: str, code: str, long_code: frozenset[str] = frozenset(), short_value: str = ""
) -> Callable[[list[_Word]], _Unwrapped | None]:
    """An interpreter given code inline (``python -c``, ``perl -e``) or on stdin runs what
    no rule can read: the line is unparsable. A script file stays a plain command."""

    def unwrap(words: list[_Word]) -> _Unwrapped | None:
        i = 1
        while i < len(words):
            value = words[i].value
            if value == "--" or not value.startswith("-") or value == "-":
                break
            if value.startswith("-m") and "m" not in short_value and label.startswith("py"):
                module = value[2:] or (words[i + 1].value if i + 1 < len(words) else "")
                if module.partition(".")[0] in _CODE_MODULES:
                    problem = f"{label} -m {module} runs code given at run time"
                    return _Unwrapped(label, problems=[problem])
                return None  # a module is a program file
            if value.partition("=")[0] in long_code or (
                not value.startswith("--") and any(c in code for c in value[1:])
            ):
                return _Unwrapped(label, problems=[f"{label} runs inline code: {_snippet(value)}"])
            if not value.startswith("--") and value[-1] in short_value:
                i += 1
            i += 1
        if i < len(words) and words[i].value != "-":
            return _code_file(label, words[i])
        return _Unwrapped(f"{label} stdin", problems=[f"{label} reads its code from stdin"])

    return unwrap


#: Python modules that run code given as an argument or on stdin.
_CODE_MODULES = frozenset(
    {"code", "pdb", "timeit", "cProfile", "profile", "trace", "runpy", "IPython", "idlelib"}
)


def _code_file(label: str, word: _Word) -> _Unwrapped | None:
    """A program file that is a descriptor, stdin or a process substitution holds code
    known only at run time; any other file is a plain command (its text is not read)."""
    if word.expands or _descriptor(word.value) or _clean_path(word.value).startswith("/proc/"):
        problem = f"{label} reads its code from {_snippet(word.value)}, known only at run time"
        return _Unwrapped(label, problems=[problem])
    return None


#: awk programs that run commands: ``system()``, ``| getline``, ``print | "cmd"``.
_AWK_RUNS = re.compile(r"system|\|")


def _awk(words: list[_Word]) -> _Unwrapped | None:
    i, found = _options(words, 1, "Ffve", frozenset({"--file", "--assign", "--source"}))
    for option in found:
        if option.name in ("-f", "--file") and option.word is not None:
            fed = _code_file("awk", _Word(option.value or "", option.word.expands, False, 0, 0))
            if fed is not None:
                return fed
    programs = [o.value or "" for o in found if o.name in ("--source", "-e")]
    if not _names(found) & {"-f", "--file"} and i < len(words):
        programs.append(words[i].value)
    if any(_AWK_RUNS.search(p) for p in programs):
        return _Unwrapped("awk", problems=["awk program runs commands known only at run time"])
    return None


#: a sed script with the GNU ``e`` command or ``s///e`` flag (run a command)
_SED_RUNS = re.compile(
    r"(?:^|[;\n{}])\s*(?:[0-9$,]+\s*|/(?:\\.|[^/])*/\s*)?!?\s*e(?:\s|;|$)"
    r"|s([^\w\s\\])(?:\\.|(?!\1).)*\1(?:\\.|(?!\1).)*\1[gpiImM0-9]*e"
)


def _sed(words: list[_Word]) -> _Unwrapped | None:
    i, found = _options(words, 1, "efl", frozenset({"--expression", "--file"}))
    for option in found:
        if option.name in ("-f", "--file") and option.word is not None:
            fed = _code_file("sed", _Word(option.value or "", option.word.expands, False, 0, 0))
            if fed is not None:
                return fed
    scripts = [o.value or "" for o in found if o.name in ("-e", "--expression")]
    if not scripts and not _names(found) & {"-f", "--file"} and i < len(words):
        scripts.append(words[i].value)
    if any(_SED_RUNS.search(script) for script in scripts):
        return _Unwrapped("sed", problems=["sed script runs a command (the e command or flag)"])
    return None


#: git configuration keys whose value is a command git runs.
_GIT_RUNS = re.compile(
    r"(?i)\s*(alias\.|core\.(pager|editor|sshcommand|hookspath|fsmonitor|askpass|gitproxy)"
    r"|pager\.|sequence\.editor|credential\.|gpg\.|diff\..*\.(command|textconv)|diff\.external"
    r"|filter\.|merge\..*\.driver|uploadpack\.|receive\.|sendemail\.|difftool\.|mergetool\."
    r"|interactive\.difffilter|ssh\.|include\.|includeif\.|protocol\..*\.allow|remote\..*\.(uploadpack|receivepack|proxy)"
    r"|init\.templatedir)"
)


def _git(words: list[_Word]) -> _Unwrapped | None:
    """``git -c alias.x='!cmd' x``, ``git -c core.pager=cmd``, ``git config alias.x '!cmd'``:
    configuration that makes git run a command known only at run time."""
    if len(words) < 2:
        return None
    if words[1].value[:1] != "-":  # ``git commit -m x``: no global options, the common case
        return _git_subcommand(words, 1)
    i, found = _options(
        words,
        1,
        "cC",
        frozenset({"--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env"}),
    )
    risky = [o.value or "" for o in found if o.name in ("-c", "--config-env")]
    if any(o.name == "--exec-path" and o.value for o in found):
        risky.append("--exec-path")
    if any(_GIT_RUNS.match(key) or key == "--exec-path" for key in risky):
        return _Unwrapped("git", problems=["git configuration that runs a command at run time"])
    return _git_subcommand(words, i)


def _git_subcommand(words: list[_Word], i: int) -> _Unwrapped | None:
    if i >= len(words) or words[i].value not in _GIT_SPECIAL:
        return None
    subcommand = words[i].value
    args = [w.value for w in words[i + 1 :]]
    if subcommand == "config":
        if any(_GIT_RUNS.match(key) for key in args if not key.startswith("-")):
            return _Unwrapped("git", problems=["git configuration that runs a command at run time"])
    elif _git_runs_command(subcommand, args):
        shown = _snippet(" ".join(w.value for w in words[i:]))
        return _Unwrapped("git", problems=[f"git {shown} runs a command given at run time"])
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


def _taskset(words: list[_Word]) -> _Unwrapped | None:
    i, found = _options(words, 1)
    if _names(found) & {"-p", "--pid"}:
        return None
    return _Unwrapped("taskset", commands=[words[i + 1 :]])


def _shell(words: list[_Word]) -> _Unwrapped | None:
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
        problems.append(f"{name} reads its script from a descriptor: {_snippet(words[i].value)}")
    if problems:
        return _Unwrapped(name, problems=problems)
    if reads_c and i >= n:  # the script comes at run time (``xargs sh -c``)
        unknown = _Word("", True, False, words[-1].end, words[-1].end)
        return _Unwrapped(f"{name} -c", scripts=[_Script("", [unknown])])
    if not reads_c and i < n and _substituted(words[i]):
        return _Unwrapped(f"{name} <(…)", scripts=[_Script(words[i].value, [words[i]])])
    if reads_c and i < n:
        script = _Script(words[i].value, [words[i]])
        return _Unwrapped(f"{name} -c", scripts=[script])
    if not reads_c and (reads_stdin or i >= n or _stdin_file(words[i].value)):
        return _Unwrapped(f"{name} stdin", stdin=True)
    return None


#: Script files that are the shell's own stdin.
_STDIN_FILES = frozenset({"/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"})
#: Files that are a process's open descriptors (``/dev/fd/3``, ``/proc/123/fd/0``).
_DESCRIPTOR = re.compile(r"/(?:dev/(?:fd/|std)|proc/[^/]+/fd/)")


def _clean_path(path: str) -> str:
    """``//dev/./stdin`` as ``/dev/stdin``: the kernel's reading of a path's dots and slashes."""
    cleaned = posixpath.normpath(path)
    return "/" + cleaned.lstrip("/") if cleaned.startswith("/") else cleaned


def _stdin(redirs: list[Redirection]) -> bool:
    """Whether a redirection feeds a command's stdin (``< f``, ``<<<``, ``<<``, ``<&3``)."""
    return any(r.fd in (None, 0) and r.op.startswith("<") and r.op != "<>" for r in redirs)


def _stdin_file(path: str) -> bool:
    return _clean_path(path) in _STDIN_FILES


def _descriptor(path: str) -> bool:
    """A file that is an open descriptor or a terminal: what it holds is known only at run time."""
    cleaned = _clean_path(path)
    return _DESCRIPTOR.match(cleaned) is not None or cleaned.startswith(("/dev/tty", "/dev/pts"))


def _substituted(word: _Word) -> bool:
    """A script file that is a process substitution: its text is known only when it runs."""
    return word.expands and word.value.startswith(("<(", ">("))


def _source(words: list[_Word]) -> _Unwrapped | None:
    """``source <(…)`` and ``. <(…)`` run a script computed at run time; ``source
    /dev/stdin`` reads it from stdin (a heredoc is parsed); ``source /dev/fd/3``, a file
    under ``/proc`` or one named at run time cannot be read before it runs."""
    i = 2 if len(words) > 2 and words[1].value == "--" else 1
    if i >= len(words):
        return None
    path = words[i]
    if _substituted(path):
        return _Unwrapped("source <(…)", scripts=[_Script(path.value, [path])])
    if _stdin_file(path.value):
        return _Unwrapped("source stdin", stdin=True)
    if path.expands or _descriptor(path.value) or _clean_path(path.value).startswith("/proc/"):
        shown = _snippet(path.value)
        return _Unwrapped("source", problems=[f"source reads code known only at run time: {shown}"])
    return None


def _eval(words: list[_Word]) -> _Unwrapped | None:
    i = 2 if len(words) > 1 and words[1].value == "--" else 1
    if i >= len(words):
        return None
    return _Unwrapped("eval", scripts=[_joined(words[i:])])


def _trap(words: list[_Word]) -> _Unwrapped | None:
    i, found = _options(words, 1)
    if _names(found) & {"-l", "-p"} or len(words) - i < 2:
        return None
    action = words[i]
    if action.value in ("", "-") or action.value.isdigit():
        return None
    return _Unwrapped("trap", scripts=[_Script(action.value, [action])], keep_self=True)


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

_WRAPPERS: dict[str, Callable[[list[_Word]], _Unwrapped | None]] = {
    "sudo": _sudo,
    "doas": _simple("doas", "uC", stops="Cs"),
    "env": _env,
    "command": _command_builtin,
    "builtin": _simple("builtin"),
    "exec": _simple("exec", "a"),
    "nice": _simple("nice", "n", frozenset({"--adjustment"})),
    "nohup": _simple("nohup"),
    "time": _simple("time", "fo", frozenset({"--format", "--output"})),
    "timeout": _timeout,
    "stdbuf": _simple("stdbuf", "ioe", frozenset({"--input", "--output", "--error"})),
    "xargs": _xargs,
    "find": _find,
    "ionice": _ionice,
    "chrt": _chrt,
    "setsid": _simple("setsid"),
    "flock": _flock,
    "watch": _watch,
    "coproc": _coproc,
    "busybox": _busybox,
    "toybox": _busybox,
    "chroot": _chroot,
    "taskset": _taskset,
    "unbuffer": _simple("unbuffer"),
    "fakeroot": _simple("fakeroot", "lsi", shell=True),
    "strace": _simple("strace", "abeEIoOpPsSuX", stops="p"),
    "ltrace": _simple("ltrace", "aADeFlnopsuwxX", stops="p"),
    "valgrind": _simple("valgrind"),
    "su": _su,
    "runuser": _runuser,
    "sg": _sg,
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
    "bwrap": _bwrap,
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
    "setarch": _setarch,
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
    "script": _script,
    "ssh": _ssh,
    "gdb": _gdb,
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
    "awk": _awk,
    "gawk": _awk,
    "mawk": _awk,
    "nawk": _awk,
    "sed": _sed,
    "git": _git,
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
    "scp": _scp,
    "sftp": _scp,
    "man": _runs_option("man", "PH", ("--pager", "--html")),
    "make": _make,
    **{
        editor: _runs_option(editor, "cS", ("--cmd", "--eval", "--load", "--funcall"), plus=True)
        for editor in ("vi", "vim", "nvim", "ex", "view", "vimdiff", "emacs")
    },
    **{name: _loader for name in _LOADERS},
    "at": _later("at"),
    "batch": _later("batch"),
    "crontab": _crontab,
    "eval": _eval,
    "source": _source,
    ".": _source,
    "trap": _trap,
    **{
        shell: _shell
        for shell in ("sh", "bash", "rbash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "yash")
    },
    **{shell: _shell for shell in ("posh", "csh", "tcsh", "oksh", "loksh", "pdksh")},
}
