"""bash builtins that evaluate the variable names they are given or run a string.

``read 'a[$(cmd)]'`` runs ``cmd``; ``mapfile -C``, ``complete -C`` and ``fc`` run
strings. One check per builtin, in the table ``_CHECKS`` at the end: each
returns the problems that make the line unparsable.
"""

from __future__ import annotations

from collections.abc import Callable

from hookline.shell.arithmetic import DECLARES
from hookline.shell.options import Option, option_names, scan_options
from hookline.shell.variables import name_problems
from hookline.shell.words import Word, snippet


def _operands(
    words: list[Word], short_value: str, long_value: frozenset[str] = frozenset()
) -> tuple[list[Word], list[Option]]:
    i, found = scan_options(words, 1, short_value, long_value)
    return words[i:], found


def _option_words(found: list[Option], *names: str) -> list[Word]:
    """The values of options ``names`` as words (``-va`` gives ``a``)."""
    return [
        Word(o.value or "", o.word.expands, False, o.word.start, o.word.end)
        for o in found
        if o.name in names and o.word is not None
    ]


def _read_names(words: list[Word]) -> list[str]:
    operands, found = _operands(words, "adinNptu")
    return name_problems([*operands, *_option_words(found, "-a")], words[0].value, "always")


def _printf_names(words: list[Word]) -> list[str]:
    _, found = _operands(words, "v")
    return name_problems(_option_words(found, "-v"), "printf -v", "always")


def _wait_names(words: list[Word]) -> list[str]:
    _, found = _operands(words, "p")
    return name_problems(_option_words(found, "-p"), "wait -p", "always")


def _getopts_names(words: list[Word]) -> list[str]:
    return name_problems(words[2:3], "getopts", "always")


def _mapfile(words: list[Word]) -> list[str]:
    operands, found = _operands(words, "dnOsuCc")
    problems = name_problems(operands[:1], words[0].value, "always")
    if option_names(found) & {"-C"}:
        problems.append(f"{words[0].value} -C runs a callback string at run time")
    return problems


def _unset_names(words: list[Word]) -> list[str]:
    operands, found = _operands(words, "")
    if option_names(found) & {"-f"}:
        return []
    return name_problems(operands, "unset", "never")


def _declare_names(words: list[Word]) -> list[str]:
    """``declare``/``typeset``/``local``/``export``/``readonly``: each operand is a name or
    ``name=value``; ``-n`` makes a nameref, through which any later name is another."""
    operands: list[Word] = []
    letters = ""
    for word in words[1:]:
        value = word.value
        if not operands and len(value) > 1 and value[0] in "-+" and not word.expands:
            letters += value[1:] if value[0] == "-" else ""
            continue
        operands.append(word)
    if "f" in letters or "F" in letters:
        return []
    problems = name_problems(operands, words[0].value, "with a value")
    if "n" in letters and words[0].value in DECLARES:
        problems.append(f"{words[0].value} -n makes a name whose target is known only at run time")
    return problems


def _test_names(words: list[Word]) -> list[str]:
    found = [words[i + 1] for i in range(1, len(words) - 1) if words[i].value in ("-v", "-R")]
    return name_problems(found, f"{words[0].value} -v", "never")


def _completion(words: list[Word]) -> list[str]:
    """``compgen``/``complete`` ``-C cmd`` and ``-F func`` run code; ``-W`` expands words."""
    _, found = _operands(words, "AGWXPSCFo")
    name = words[0].value
    problems = [f"{name} {o.name} runs code at run time" for o in found if o.name in ("-C", "-F")]
    problems.extend(
        f"{name} -W expands its words at run time: {snippet(o.value or '')}"
        for o in found
        if o.name == "-W" and o.value is not None and ("$" in o.value or "`" in o.value)
    )
    return problems


def _enable(words: list[Word]) -> list[str]:
    _, found = _operands(words, "f")
    return (
        ["enable -f loads a builtin from a shared object"] if option_names(found) & {"-f"} else []
    )


def _fc(words: list[Word]) -> list[str]:
    _, found = _operands(words, "e")
    if option_names(found) & {"-l"}:
        return []
    return ["fc runs commands from the history, known only at run time"]


#: Builtins whose options make them run a string.
_RUNS_STRINGS = frozenset({"mapfile", "readarray", "compgen", "complete", "enable", "fc"})


def _hidden_options(words: list[Word]) -> list[str]:
    """An argument known only at run time may be an option (``x=-v; printf $x 'a[…]'``):
    then every argument may be a name, and a builtin that runs strings may run one."""
    first = next((i for i, w in enumerate(words) if i and w.expands), 0)
    if not first:
        return []
    name = words[0].value
    if name in _RUNS_STRINGS:
        return [f"{name} is given arguments known only at run time"]
    static = [w for w in words[first + 1 :] if not w.expands]  # names follow the option
    return [p for p in name_problems(static, name, "never") if "subscript" in p]


#: Builtins that run code held in a string or evaluate the variable names they are given.
_CHECKS: dict[str, Callable[[list[Word]], list[str]]] = {
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


#: The builtins :func:`builtin_problems` checks.
CHECKED_BUILTINS = _CHECKS.keys()


def builtin_problems(words: list[Word]) -> list[str]:
    """Why the arguments of a builtin in :data:`CHECKED_BUILTINS` make the line unparsable."""
    return [*_CHECKS[words[0].value](words), *_hidden_options(words)]
