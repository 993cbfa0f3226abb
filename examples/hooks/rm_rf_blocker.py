"""rm -rf blocker: refuse a recursive ``rm`` of ``/``, ``~`` or ``..`` in ``bash`` calls.

The Python version of the omp seed's "rm-rf blocker", with a real shell
parser instead of a regex. The command is parsed with tree-sitter-bash and
every ``command`` node is inspected wherever it sits: in ``&&``/``||``/``;``
lists, pipelines, ``$(...)`` and backticks, subshells, ``if``/``for`` bodies,
``${x:-$(...)}`` defaults and heredocs. For each one:

- leading ``VAR=value`` assignments are skipped by the grammar; the wrappers
  ``sudo``, ``doas``, ``env``, ``command``, ``builtin``, ``exec``, ``nice``,
  ``nohup``, ``time`` and ``timeout`` (with their options) are skipped here,
  so ``FOO=1 sudo -u root rm -rf /`` is seen as ``rm -rf /``;
- ``sh -c '...'``, ``bash -c``, ``zsh -c`` and ``eval`` have their script
  parsed in turn;
- a program named ``rm`` (also ``/bin/rm``, ``\\rm``, ``"rm"``) with a
  recursive flag (``-r``, ``-R``, ``-rf``, ``-fr``, ``--recursive``; ``-f`` is
  not required, ``rm -r /`` is as bad) and a target that is the root
  (``/``, ``/*``, ``//``), the home folder (``~``, ``~/``, ``$HOME``,
  ``${HOME}``) or a parent (``..``, ``../..``, ``../*``) is dangerous.

If the text does not parse, the hook blocks conservatively only when it
contains ``rm -rf``. With a UI, the user may confirm and let the command run;
without one (print mode) it is blocked.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from collections.abc import Iterator
from typing import Any

import tree_sitter_bash
from tree_sitter import Language, Node, Parser

from hookline import HookAPI, HookContext, ToolCallEvent

_PARSER = Parser(Language(tree_sitter_bash.language()))

#: Wrappers that run their argument as a command, and their options that take a value.
WRAPPERS: dict[str, frozenset[str]] = {
    "sudo": frozenset({"-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U", "-T"}),
    "doas": frozenset({"-u", "-C"}),
    "env": frozenset({"-u", "-C", "-S", "--unset", "--chdir"}),
    "command": frozenset(),
    "builtin": frozenset(),
    "exec": frozenset({"-a"}),
    "nice": frozenset({"-n", "--adjustment"}),
    "nohup": frozenset(),
    "time": frozenset({"-f", "-o"}),
    "timeout": frozenset({"-s", "-k", "--signal", "--kill-after"}),
}
SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh"})
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_HOME_FORMS = frozenset({"~", "$HOME", "${HOME}"})
_MAX_DEPTH = 4
_NOT_WORDS = frozenset(
    {"variable_assignment", "file_redirect", "herestring_redirect", "heredoc_redirect"}
)

REASON = "rm -rf of /, ~ or .. blocked by safety policy"


def _unquote(text: str) -> str:
    """One shell word as the program would receive it (quotes and escapes removed)."""
    try:
        words = shlex.split(text, posix=True)
    except ValueError:
        return text
    return words[0] if len(words) == 1 else text


def _is_recursive_flag(arg: str) -> bool:
    if arg in ("--recursive", "-recursive"):
        return True
    return arg.startswith("-") and not arg.startswith("--") and bool(set(arg[1:]) & {"r", "R"})


def is_dangerous_target(arg: str) -> bool:
    """True for the root, the home folder or a parent folder (with an optional ``/*`` glob)."""
    target = arg.strip()
    for suffix in ("/*", "/.*"):
        if target.endswith(suffix):
            target = target[: -len(suffix)] or "/"
            break
    if not target:
        return False
    head, sep, rest = target.partition("/")
    if head in _HOME_FORMS:
        return posixpath.normpath("/" + rest) == "/" if sep else True
    if target.startswith("/"):
        return posixpath.normpath("/" + target.lstrip("/")) == "/"
    parts = [p for p in posixpath.normpath(target).split("/") if p]
    return bool(parts) and all(p == ".." for p in parts)


def _words(node: Node) -> list[str]:
    """The command's program and arguments, unquoted, assignments and redirects left out."""
    out: list[str] = []
    for child in node.children:
        if child.type in _NOT_WORDS:
            continue
        name_node = child.children[0] if child.type == "command_name" and child.children else child
        raw = (name_node.text or b"").decode("utf-8", "replace")
        out.append(_unquote(raw))
    return out


def _strip_wrappers(words: list[str]) -> list[str]:
    """Skip ``sudo``/``env``/``command``/... and their options down to the real program."""
    for _ in range(8):
        if not words:
            return words
        program = posixpath.basename(words[0].lstrip("\\"))
        takes_value = WRAPPERS.get(program)
        if takes_value is None:
            return words
        i = 1
        while i < len(words):
            word = words[i]
            if word == "--":
                i += 1
                break
            if program == "env" and _ASSIGNMENT.match(word):
                i += 1
            elif word.startswith("-") and len(word) > 1:
                i += 2 if word in takes_value else 1
            else:
                break
        if program == "timeout" and i < len(words):
            i += 1  # the duration
        words = words[i:]
    return words


def _command_nodes(node: Node) -> Iterator[Node]:
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "command":
            yield current
        stack.extend(reversed(current.children))


def _rm_is_dangerous(args: list[str]) -> bool:
    recursive = False
    targets: list[str] = []
    options_done = False
    for arg in args:
        if not options_done and arg == "--":
            options_done = True
        elif not options_done and arg.startswith("-") and len(arg) > 1:
            recursive = recursive or _is_recursive_flag(arg)
        else:
            targets.append(arg)
    return recursive and any(is_dangerous_target(t) for t in targets)


def find_dangerous_rm(script: str, depth: int = 0) -> str | None:
    """The first dangerous ``rm`` command text in ``script``, or ``None``.

    Raises ``SyntaxError`` when the script does not parse.
    """
    tree = _PARSER.parse(script.encode("utf-8"))
    if tree.root_node.has_error:
        raise SyntaxError("bash parse error")
    for node in _command_nodes(tree.root_node):
        words = _strip_wrappers(_words(node))
        if not words:
            continue
        program = posixpath.basename(words[0].lstrip("\\"))
        text = (node.text or b"").decode("utf-8", "replace")
        if program == "rm" and _rm_is_dangerous(words[1:]):
            return text
        if depth < _MAX_DEPTH:
            inner = _inner_script(program, words[1:])
            if inner is not None:
                try:
                    found = find_dangerous_rm(inner, depth + 1)
                except SyntaxError:
                    found = text if "rm -rf" in inner else None
                if found is not None:
                    return found
    return None


def _inner_script(program: str, args: list[str]) -> str | None:
    if program == "eval":
        return " ".join(args) or None
    if program in SHELLS:
        for i, arg in enumerate(args):
            if arg.startswith("-") and not arg.startswith("--") and "c" in arg[1:]:
                return args[i + 1] if i + 1 < len(args) else None
    return None


def check_command(command: str) -> str | None:
    """Why ``command`` is refused, or ``None``; unparsable text is judged by ``"rm -rf"``."""
    try:
        found = find_dangerous_rm(command)
    except SyntaxError:
        return f"{REASON} (unparsable command containing rm -rf)" if "rm -rf" in command else None
    return f"{REASON}: {found}" if found is not None else None


def register(pi: HookAPI) -> None:
    @pi.on("tool_call")
    async def block_rm_rf(event: ToolCallEvent, ctx: HookContext) -> dict[str, Any] | None:
        if event.tool_name != "bash":
            return None
        command = str(event.input.get("command", ""))
        reason = check_command(command)
        if reason is None:
            return None
        if ctx.has_ui and await ctx.ui.confirm(
            "Dangerous command",
            f"This command deletes a root, home or parent folder:\n{command}\n\nProceed?",
        ):
            return None
        return {"block": True, "reason": reason}
