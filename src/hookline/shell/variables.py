"""Variables a shell or a program runs as code, and variable names that hide code.

``BASH_ENV``, ``PS4``, ``LD_PRELOAD``… run code known only at run time when they
are set; ``GIT_PAGER``, ``EDITOR``… hold a command, parsed as a script; a name
such as ``a[$(cmd)]`` handed to a builtin runs ``cmd``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal

from hookline.shell.arithmetic import reads_variable
from hookline.shell.words import Word, snippet

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
COMMAND_VARIABLES = frozenset(
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


def may_run_code(name: str) -> bool:
    """A quick test before a closer look: whether assigning ``name`` may run code."""
    base = name.partition("[")[0].rstrip("+")
    return (
        base in _CODE_VARIABLES
        or base in _PLACE_VARIABLES
        or base in COMMAND_VARIABLES
        or base == "PATH"
        or base.startswith(_CODE_VARIABLE_PREFIXES)
    )


def variable_problem(name: str) -> str | None:
    if name in _PLACE_VARIABLES:
        return f"sets {name}, which changes where ~ or cd lead"
    if (
        name in _CODE_VARIABLES
        or name in COMMAND_VARIABLES
        or name.startswith(_CODE_VARIABLE_PREFIXES)
    ):
        return f"sets {name}, whose value runs as code known only at run time"
    return None


def search_path_problem(name: str, value: str) -> str | None:
    """``PATH=.:$PATH``: a folder given relatively (``.``, an empty entry) makes every
    command name a file the line itself may have written."""
    if name.rstrip("+") != "PATH":
        return None
    for entry in value.split(":"):
        if not entry.startswith(("/", "$", "~")):
            return f"sets PATH with a relative folder ({entry or 'an empty entry'!s})"
    return None


def expansion_problem(text: str) -> str | None:
    """Why ``${…}`` runs code held in a variable: ``${x@P}`` expands the value as a
    prompt (``$(…)`` included), ``${!x}`` reads the variable the value names, so a value
    ``a[$(cmd)]`` runs ``cmd``; ``${PS4:=…}`` assigns a variable bash runs."""
    if text.startswith("${!") and _NAME_LISTING.fullmatch(text) is None:
        return "indirect expansion, which evaluates a variable's value"
    if text.endswith("@P}"):
        return "prompt expansion, which runs the commands in a variable's value"
    match = _ASSIGNING_EXPANSION.match(text)
    if match is not None:
        return variable_problem(match.group(1))
    return None


def name_problems(
    words: Sequence[Word], where: str, assigns: Literal["always", "with a value", "never"]
) -> list[str]:
    """Builtins that take a variable name evaluate a subscript in it: ``read 'a[$(cmd)]'``
    runs ``cmd``. A name decided at run time, a subscript that is not a number, or — when
    the builtin ``assigns`` it — a variable bash runs as code, is known only at run time."""
    problems: list[str] = []
    for word in words:
        shown = snippet(word.value)
        match = _SUBSCRIPTED.match(word.value)
        name = word.value.partition("=")[0] if match is None else match.group(0)
        if word.expands and ("$" in name or "`" in name):
            problems.append(f"{where} names a variable known only at run time: {shown}")
            continue
        if match is not None:
            subscript = match.group(2)
            if "]=" in subscript:  # ``a[i]=v[w]``: the subscript ends at ``]=``
                subscript = subscript[: subscript.find("]=")]
            if reads_variable(subscript):
                problems.append(f"{where} evaluates a subscript that may run commands: {shown}")
                continue
            name = match.group(1)
        if assigns == "never" or (assigns == "with a value" and "=" not in word.value):
            continue
        value = word.value.partition("=")[2]
        problem = variable_problem(name.rstrip("+")) or search_path_problem(name, value)
        if problem is not None:
            problems.append(problem)
    return problems
