"""The walk over a parsed script's syntax tree: every place a shell runs a command.

Through lists, pipelines, groups, substitutions, heredocs, compound statements
and function bodies; where tree-sitter-bash misreads bash, the text is read again
and the line reported unparsable. What a command runs is reported by
:class:`~hookline.shell.commands.CommandReporter`.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from typing import Literal

import tree_sitter_bash
from tree_sitter import Language, Node, Parser

from hookline.shell.analysis import Analysis, Context
from hookline.shell.arithmetic import ARITHMETIC_NODES, variable_arithmetic
from hookline.shell.commands import CommandReporter
from hookline.shell.model import MAX_SCRIPT_DEPTH, Redirection
from hookline.shell.redirections import REDIRECT_TYPES, read_redirections
from hookline.shell.variables import expansion_problem, may_run_code, name_problems
from hookline.shell.words import Word, WordReader, has_live_substitution, snippet

#: How deep the syntax tree may nest (``$( $( $( …``) before the text is unparsable.
_MAX_TREE_DEPTH = 120
_SUBSTITUTIONS = frozenset({"command_substitution", "process_substitution"})
#: Nodes :meth:`Walker._runtime_code` looks at.
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

_LOCAL = threading.local()


def _parser() -> Parser:
    """One tree-sitter parser per thread, made on first use (a ``Parser`` is not thread-safe)."""
    parser: Parser | None = getattr(_LOCAL, "parser", None)
    if parser is None:
        parser = Parser(Language(tree_sitter_bash.language()))
        _LOCAL.parser = parser
    return parser


def walk_script(analysis: Analysis, text: str, ctx: Context, tree_depth: int = 0) -> None:
    """Parse and walk one script; ``tree_depth`` is how deep the text that holds it sits,
    so nesting counts across ``bash -c`` levels."""
    if ctx.depth > MAX_SCRIPT_DEPTH:
        analysis.problems.append(f"scripts nested deeper than {MAX_SCRIPT_DEPTH} levels")
        return
    if not text.strip():
        return
    data = text.encode("utf-8", "surrogatepass")
    tree = _parser().parse(data)
    root = tree.root_node
    walker = Walker(analysis, text, data)
    if root.has_error:
        analysis.problems.append(_error_reason(root, data, ctx))
    walker.walk(root, ctx, tree_depth)


def _error_reason(root: Node, data: bytes, ctx: Context) -> str:
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


class Walker:
    """Walks one parsed script and reports its commands to the analysis."""

    __slots__ = ("_depth", "_piped", "analysis", "commands", "data", "piped_ids", "reader")

    def __init__(self, analysis: Analysis, text: str, data: bytes) -> None:
        self.analysis = analysis
        self.data = data
        self.reader = WordReader(text, data, analysis.problems)
        self.commands = CommandReporter(analysis, self.reader, walk_script)
        #: ids of the pipeline elements that read a pipe (``b`` of ``a | b``)
        self.piped_ids: set[int] = set()
        #: the tree depth of the last command reported, and whether it read a pipe
        self._depth = 0
        self._piped = False

    def _redirections(self, node: Node, extra: list[Word]) -> list[Redirection]:
        return read_redirections(node, self.reader, self.analysis.stdin, extra)

    def _may_nest(self, node: Node) -> bool:
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

    # -- tree walk

    def walk(self, node: Node, ctx: Context, depth: int) -> None:
        if depth > _MAX_TREE_DEPTH:
            if not any("nested deeper" in p for p in self.analysis.problems):
                self.analysis.problems.append(f"syntax nested deeper than {_MAX_TREE_DEPTH} levels")
            return
        kind = node.type
        if kind == "command":
            self._command(node, ctx, depth)
        elif kind == "redirected_statement":
            self._redirected(node, ctx, depth)
        elif kind in ("declaration_command", "unset_command"):
            self._declaration(node, ctx, depth)
        else:
            if kind in ARITHMETIC_NODES:
                shown = variable_arithmetic(node, self.reader)
                if shown is not None:
                    self.analysis.arithmetic_problem(shown)
            if kind in _RUNTIME_NODES:
                self._runtime_code(node, ctx)
            elif kind == "pipeline":
                self._note_pipeline(node)
            if kind in _SUBSTITUTIONS:
                if ctx.inherited:
                    ctx = Context(ctx.wrappers, (), ctx.span, ctx.depth)
                if kind == "command_substitution":
                    self._nested_backticks(node, ctx, depth)
                if node.named_child_count == 1 and node.named_children[0].type == "file_redirect":
                    # ``$(<file)`` reads the file like ``$(cat file)``
                    bare = self._redirections(node.named_children[0], [])
                    self.commands.bare(bare, node.start_byte, node.end_byte, ctx)
            for child in node.children:
                if child.child_count:
                    self.walk(child, ctx, depth + 1)
                elif kind == "expansion" and child.type == "word":
                    self._hidden_substitution(child, ctx, depth)
            if kind == "heredoc_redirect":
                self._heredoc_backticks(node, ctx, depth)

    def _runtime_code(self, node: Node, ctx: Context) -> None:
        """Syntax that runs code held in a variable, or sets a variable bash runs as code:
        ``${x@P}``, ``${!x}``, ``for PS4 in …``, ``[[ -v 'a[$(…)]' ]]``, a bare
        ``BASH_ENV=…``; and a function definition's redirection, a write of that file."""
        kind = node.type
        if kind == "expansion":
            text = self.reader.text(node)
            problem = expansion_problem(text)
            if problem is not None:
                self.analysis.problem(f"{problem}: {snippet(text)}")
        elif kind == "variable_assignment":
            parent = node.parent
            if parent is not None and parent.type in ("command", "declaration_command"):
                return  # seen with its command
            name_node = node.child_by_field_name("name")
            if name_node is not None:
                self.analysis.assigned.append(self.reader.text(name_node))
            if name_node is None or not may_run_code(self.reader.text(name_node)):
                return
            name, value = self.reader.assignment(node)
            self.commands.assigned(
                name, value.value, value.expands, node.start_byte, node.end_byte, ctx, self._depth
            )
        elif kind in ("for_statement", "select_statement"):
            variable = node.child_by_field_name("variable")
            if variable is not None:
                self.analysis.assigned.append(self.reader.text(variable))
                word = Word(self.reader.text(variable), False, False, 0, 0)
                self._check_names([word], kind[:-10], "always")
        elif kind == "unary_expression":
            operator, *operands = node.children
            if self.reader.text(operator) in ("-v", "-R") and operands:
                self._check_names([self.reader.word(operands[0])], "[[ -v ]]", "never")
        elif kind == "function_definition":
            redirs: list[Redirection] = []
            for child in node.children:
                if child.type in REDIRECT_TYPES:
                    redirs.extend(self._redirections(child, []))
            if redirs:  # ``f() { …; } > .env`` writes ``.env`` each time ``f`` runs
                self.commands.bare(redirs, node.start_byte, node.end_byte, ctx)

    def _note_pipeline(self, node: Node) -> None:
        self.piped_ids.update(child.id for child in node.named_children[1:])

    def _reads_pipe(self, node: Node) -> bool:
        parent = node.parent
        return node.id in self.piped_ids or (
            parent is not None
            and parent.type == "redirected_statement"
            and parent.id in self.piped_ids
        )

    def _check_names(
        self,
        words: Sequence[Word],
        where: str,
        assigns: Literal["always", "with a value", "never"],
    ) -> None:
        for problem in name_problems(words, where, assigns):
            self.analysis.problem(problem)

    def _nested_backticks(self, node: Node, ctx: Context, depth: int) -> None:
        """tree-sitter keeps ``\\``` inside backticks as written; bash unescapes it first,
        so ``echo `echo \\`rm x\\``` runs ``rm x``. Such text is unparsable, and its
        unescaped body is parsed so that deny rules still see what it runs."""
        raw = self.reader.text(node)
        if not raw.startswith("`") or "\\`" not in raw:
            return
        self.analysis.problems.append(f"nested backticks the parser cannot read: {snippet(raw)}")
        body = re.sub(r"\\([\\`$])", r"\1", raw[1:-1] if raw.endswith("`") else raw[1:])
        span = self.analysis.span(node.start_byte, node.end_byte, ctx)
        walk_script(self.analysis, body, Context(ctx.wrappers, (), span, ctx.depth + 1), depth + 1)

    def _heredoc_backticks(self, node: Node, ctx: Context, depth: int) -> None:
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
        delimiter = self.reader.text(start)
        if any(c in delimiter for c in "'\"\\"):
            return
        parts = [c for c in body.children if c.type == "heredoc_content"] or [body]
        for part in parts:
            raw = self.reader.text(part)
            if has_live_substitution(raw):
                self._hidden_substitution(part, ctx, depth, raw)
                return

    def _hidden_substitution(
        self, node: Node, ctx: Context, depth: int, raw: str | None = None
    ) -> None:
        """tree-sitter reads ``${x:=`rm y`}`` as a plain word: the shell runs ``rm y``.

        Such a word is reported unparsable, and its text is parsed as a double-quoted
        string so that deny rules still see what it runs."""
        if raw is None:
            raw = self.reader.text(node)
            if not has_live_substitution(raw):
                return
        self.analysis.problems.append(
            f"command substitution the parser cannot read: {snippet(raw)}"
        )
        span = self.analysis.span(node.start_byte, node.end_byte, ctx)
        # read as the double-quoted text it behaves like; ``:`` is the no-op builtin
        quoted = ': "' + raw.replace("\\", "\\\\").replace('"', '\\"') + '"'
        walk_script(
            self.analysis, quoted, Context(ctx.wrappers, (), span, ctx.depth + 1), depth + 1
        )

    def _walk_children(self, node: Node, ctx: Context, depth: int) -> None:
        for child in node.children:
            if child.child_count:
                self.walk(child, ctx, depth + 1)

    def _redirected(self, node: Node, ctx: Context, depth: int) -> None:
        body = node.child_by_field_name("body")
        redirs: list[Redirection] = []
        # tree-sitter reads ``cmd > f x y`` as a redirect to ``f x y``; bash, as the
        # redirect ``> f`` and the arguments ``x y`` of ``cmd``
        extra: list[Word] = []
        for child in node.children:
            if child.type in REDIRECT_TYPES:
                redirs.extend(self._redirections(child, extra))
        if body is None:
            if extra:  # ``> f cmd args``
                self._depth = depth  # ``_piped`` stays as the command before it
                self.commands.report(
                    extra,
                    {},
                    [*ctx.inherited, *redirs],
                    node.start_byte,
                    node.end_byte,
                    ctx,
                    depth,
                    self._piped,
                )
            else:
                self.commands.bare(redirs, node.start_byte, node.end_byte, ctx)
        else:
            # tree-sitter hangs ``a && b > f`` and ``a | b > f`` on the whole list;
            # the shell gives the redirection to the last command only.
            target = body
            while target.type in ("list", "pipeline") and target.named_child_count:
                if target.type == "pipeline":
                    self._note_pipeline(target)
                last = target.named_children[-1]
                for child in target.children:
                    if child.child_count and child.id != last.id:
                        self.walk(child, ctx, depth + 1)
                target = last
            if target.type == "command":
                span_node = node if target.id == body.id else None
                self._command(target, ctx, depth + 1, redirs, span_node, extra)
            else:
                if extra:
                    shown = snippet(self.reader.between(extra[0].start, extra[-1].end))
                    self.analysis.problems.append(
                        f"words after the redirection of a compound command: {shown}"
                    )
                mark = len(self.analysis.commands)
                inner = Context(ctx.wrappers, ctx.inherited + tuple(redirs), ctx.span, ctx.depth)
                self.walk(target, inner, depth + 1)
                if redirs and not any(
                    any(r is redirs[0] for r in cmd.redirections)
                    for cmd in self.analysis.commands[mark:]
                ):
                    self.commands.bare(redirs, node.start_byte, node.end_byte, ctx)
        for child in node.children:
            if child.type in REDIRECT_TYPES:
                self.walk(child, ctx, depth + 1)

    def _declaration(self, node: Node, ctx: Context, depth: int) -> None:
        """``export``/``declare``/``local``/``readonly``/``typeset``/``unset`` as commands."""
        words: list[Word] = []
        for child in node.children:
            if not child.is_named:
                words.append(Word(child.type, False, False, child.start_byte, child.end_byte))
            elif child.type == "variable_assignment":
                name, value = self.reader.assignment(child)
                words.append(
                    Word(
                        f"{name}={value.value}",
                        value.expands,
                        False,
                        child.start_byte,
                        child.end_byte,
                    )
                )
            elif child.type not in REDIRECT_TYPES:
                words.append(self.reader.word(child))
        self._depth = depth
        self._piped = False
        self.commands.report(
            words, {}, list(ctx.inherited), node.start_byte, node.end_byte, ctx, depth, False
        )
        self._walk_children(node, ctx, depth)

    def _command(
        self,
        node: Node,
        ctx: Context,
        depth: int,
        outer: Sequence[Redirection] = (),
        span_node: Node | None = None,
        extra: Sequence[Word] = (),
    ) -> None:
        assignments: dict[str, str] = {}
        redirs: list[Redirection] = list(ctx.inherited)
        word_nodes: list[Node] = []
        own_extra: list[Word] = []
        for child in node.children:
            kind = child.type
            if kind == "variable_assignment" and not word_nodes:
                name, value = self.reader.assignment(child)
                assignments[name] = value.value
            elif kind in REDIRECT_TYPES:
                redirs.extend(self._redirections(child, own_extra))
            elif kind == "command_name":
                word_nodes.extend(child.children)
            elif kind != "comment":
                word_nodes.append(child)
        redirs.extend(outer)
        words = self.reader.words(word_nodes)
        if extra or own_extra:
            words = sorted([*words, *own_extra, *extra], key=lambda word: word.start)
        where = span_node if span_node is not None else node
        self._depth = depth
        self._piped = bool(self.piped_ids) and self._reads_pipe(node)
        self.commands.report(
            words,
            assignments,
            redirs,
            where.start_byte,
            where.end_byte,
            ctx,
            depth,
            self._piped,
        )
        if self._may_nest(node):
            self._walk_children(node, ctx, depth)
