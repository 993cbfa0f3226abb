"""A command's words reported as the simple commands they run, seen through wrappers.

``sudo bash -c 'rm x'`` is reported as ``rm x`` inside ``sudo`` and ``bash -c``:
each wrapper (:mod:`hookline.shell.wrappers`) says what it runs, and the scripts
it runs are walked in turn.
"""

from __future__ import annotations

from collections.abc import Callable

from hookline.shell.analysis import Analysis, Context, Wrap
from hookline.shell.arithmetic import arithmetic_on_a_variable
from hookline.shell.bash_builtins import CHECKED_BUILTINS, builtin_problems
from hookline.shell.model import Redirection, SimpleCommand
from hookline.shell.redirections import feeds_stdin, stdin_script
from hookline.shell.variables import COMMAND_VARIABLES, search_path_problem, variable_problem
from hookline.shell.words import Word, WordReader, snippet
from hookline.shell.wrappers import PROGRAMS, SCRIPT_FILE_RUNNERS

#: How many wrappers one command may sit in (``sudo nice timeout 5 …``).
_MAX_WRAPPERS = 32

#: Parses and walks a script for an analysis: its text, where it sits, the tree depth
#: of the text holding it.
ScriptWalk = Callable[[Analysis, str, Context, int], None]


class CommandReporter:
    """Reports the commands of one parsed script to the analysis."""

    __slots__ = ("analysis", "reader", "walk_script")

    def __init__(
        self,
        analysis: Analysis,
        reader: WordReader,
        walk_script: ScriptWalk,
    ) -> None:
        self.analysis = analysis
        self.reader = reader
        self.walk_script = walk_script

    def bare(self, redirs: list[Redirection], start: int, end: int, ctx: Context) -> None:
        """``> f`` or a compound with nothing inside to carry its redirections."""
        self.analysis.commands.append(
            SimpleCommand(
                program="",
                argv=[],
                assignments={},
                redirections=list(ctx.inherited) + redirs,
                span=self.analysis.span(start, end, ctx),
                wrappers=[label for label, _ in ctx.wrappers],
                wrapper_argvs=[list(argv) for _, argv in ctx.wrappers],
            )
        )

    def assigned(
        self,
        name: str,
        value: str,
        dynamic: bool,
        start: int,
        end: int,
        ctx: Context,
        depth: int,
        wrappers: tuple[Wrap, ...] | None = None,
    ) -> None:
        """``NAME=value``, found at tree ``depth``, for a variable a shell or a program
        runs as code: a command (``GIT_PAGER``, ``EDITOR``…) is parsed as a script; any
        other (``BASH_ENV``, ``PS4``, ``BASH_FUNC_f%%``…) makes the line unparsable."""
        base = name.partition("[")[0].rstrip("+")
        if base in COMMAND_VARIABLES and not dynamic:
            label = (f"{base}=", (f"{base}={value}",))
            outer = ctx.wrappers if wrappers is None else wrappers
            inner = Context((*outer, label), (), self.analysis.span(start, end, ctx), ctx.depth + 1)
            self.walk_script(self.analysis, value, inner, depth + 1)
            return
        problem = variable_problem(base) or search_path_problem(base, value)
        if problem is not None:
            self.analysis.problem(problem)

    def _assigned_all(
        self,
        assignments: dict[str, str],
        start: int,
        end: int,
        ctx: Context,
        depth: int,
        wrappers: tuple[Wrap, ...],
    ) -> None:
        for name, value in assignments.items():
            dynamic = "$" in value or "`" in value
            self.assigned(name, value, dynamic, start, end, ctx, depth, wrappers)

    def report(
        self,
        words: list[Word],
        assignments: dict[str, str],
        redirs: list[Redirection],
        start: int,
        end: int,
        ctx: Context,
        depth: int,
        piped: bool,
        wrappers: tuple[Wrap, ...] | None = None,
        runtime_args: bool = False,
        level: int = 0,
    ) -> None:
        """Report ``words``, found at tree ``depth`` (``piped``: reading a pipe), as a
        command, or look through it if it is a wrapper. An inner command is reported
        with its ``wrappers``, whether they add ``runtime_args``, and how many (``level``)."""
        if wrappers is None:
            wrappers = ctx.wrappers
        if not words:
            if redirs:
                span = self.analysis.span(start, end, ctx)
                labels = [label for label, _ in wrappers]
                self.analysis.commands.append(
                    SimpleCommand("", [], assignments, redirs, span, labels)
                )
            return
        if level == 0 and assignments:
            self._assigned_all(assignments, start, end, ctx, depth, wrappers)
        head = words[0]
        handler = None if head.dynamic_at(0) else PROGRAMS.get(head.value.rpartition("/")[2])
        unwrapped = handler(words) if handler is not None and level < _MAX_WRAPPERS else None
        if unwrapped is not None:
            unwrapped.commands = [inner for inner in unwrapped.commands if inner]
            for problem in unwrapped.problems:
                self.analysis.problem(problem)
            if unwrapped.stdin:
                script = stdin_script(redirs, self.analysis.stdin)
                if script is not None:
                    unwrapped.scripts.append(script)
                else:
                    # ``curl … | sh``, ``bash < file``: the script is another command's
                    # output or a file's content
                    self.analysis.problem(
                        f"{unwrapped.label} script is known only when it runs "
                        "(read from a pipe, a file or the terminal)"
                    )
        if unwrapped is None and handler in SCRIPT_FILE_RUNNERS and (piped or feeds_stdin(redirs)):
            # ``ln -s /dev/stdin s; echo 'rm x' | bash s``: a script file may be stdin
            self.analysis.problem(
                f"{head.value} runs a script file while its stdin is a pipe or a redirection, "
                "which the file may be"
            )
        if unwrapped is None or not (unwrapped.commands or unwrapped.scripts):
            self._emit(words, assignments, redirs, start, end, ctx, wrappers, runtime_args)
            return
        if unwrapped.keep_self:
            self._emit(words, assignments, redirs, start, end, ctx, wrappers, runtime_args)
        inner_wrappers = (*wrappers, (unwrapped.label, tuple([w.value for w in words])))
        if unwrapped.assignments:
            self._assigned_all(unwrapped.assignments, start, end, ctx, depth, inner_wrappers)
        inner_assignments = {**assignments, **unwrapped.assignments}
        for inner in unwrapped.commands:
            self.report(
                inner,
                inner_assignments,
                redirs,
                inner[0].start,
                end,
                ctx,
                depth,
                piped,
                inner_wrappers,
                runtime_args or unwrapped.runtime_args,
                level + 1,
            )
        for script in unwrapped.scripts:
            script_start = script.words[0].start
            script_end = script.words[-1].end
            if any(w.expands for w in script.words):
                shown = self._shown(script_start, script_end)
                self.analysis.problems.append(f"{unwrapped.label} script is not static: {shown}")
                if not unwrapped.keep_self:
                    self._emit(words, assignments, redirs, start, end, ctx, wrappers, runtime_args)
                continue
            mark = len(self.analysis.commands)
            inner_ctx = Context(
                inner_wrappers,
                tuple(redirs),
                self.analysis.span(script_start, script_end, ctx),
                ctx.depth + 1,
            )
            self.walk_script(self.analysis, script.text, inner_ctx, depth + 1)
            if not unwrapped.keep_self and len(self.analysis.commands) == mark:
                self._emit(words, assignments, redirs, start, end, ctx, wrappers, runtime_args)

    def _shown(self, start: int, end: int) -> str:
        return snippet(self.reader.between(start, end))

    def _emit(
        self,
        words: list[Word],
        assignments: dict[str, str],
        redirs: list[Redirection],
        start: int,
        end: int,
        ctx: Context,
        wrappers: tuple[Wrap, ...],
        runtime_args: bool,
    ) -> None:
        flags = [w.expands for w in words]
        if words[0].glob:
            flags[0] = True
        if not flags[0] and arithmetic_on_a_variable(words):
            self.analysis.arithmetic_problem(" ".join(w.value for w in words))
        if words[0].value in ("{", "}") and not flags[0]:
            # bash never runs a command named ``{`` or ``}``: the grammar misread a group
            self.analysis.problems.append(f"a group the parser cannot read: {words[0].value}")
        if not flags[0] and words[0].value in CHECKED_BUILTINS:
            for problem in builtin_problems(words):
                self.analysis.problem(problem)
        self.analysis.commands.append(
            SimpleCommand(
                program=words[0].value,
                argv=[w.value for w in words],
                assignments=dict(assignments),
                redirections=list(redirs),
                span=self.analysis.span(start, end, ctx),
                wrappers=[label for label, _ in wrappers],
                dynamic=runtime_args or any(flags),
                dynamic_words=flags,
                wrapper_argvs=[list(argv) for _, argv in wrappers],
            )
        )
