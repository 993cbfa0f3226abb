"""Arithmetic, where bash evaluates a variable's value and a subscript in it runs ``$(…)``.

After ``x='a[$(rm y)]'``, ``echo $((x))`` runs ``rm y``. Arithmetic that names a
variable is known only at run time: the line is reported unparsable. Pure literals
(``$((1+2))``, ``${s:1:2}``, ``${a[0]}``) stay readable.
"""

from __future__ import annotations

import re

from tree_sitter import Node

from hookline.shell.words import Word, WordReader

#: Nodes whose text bash evaluates as arithmetic (see :func:`variable_arithmetic`).
ARITHMETIC_NODES = frozenset(
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
DECLARES = frozenset({"declare", "typeset", "local"})
#: Numbers (``12``, ``0x1f``, ``16#ff``) and parameters that are always numbers (``$#``,
#: ``$?``, ``$$``, ``$!``, ``${#name}``): what may stay in arithmetic that reads no variable.
_ARITHMETIC_LITERAL = re.compile(
    r"\d[0-9A-Za-z_#@]*|\$[#?$!]|\$\{[#?$!]\}|\$\{#[A-Za-z_][A-Za-z0-9_]*\}"
)
#: What is left of a name, a ``$`` expansion, a backtick or an escape after the literals.
_ARITHMETIC_NAME = re.compile(r"[A-Za-z_$`\\]")


def reads_variable(expression: str) -> bool:
    """Whether arithmetic ``expression`` holds more than numbers and operators."""
    return _ARITHMETIC_NAME.search(_ARITHMETIC_LITERAL.sub("0", expression)) is not None


def arithmetic_on_a_variable(words: list[Word]) -> bool:
    """``let`` evaluates each argument as arithmetic; after ``declare -i n`` (also
    ``typeset``/``local``) every later ``n=…`` does, so ``n=x`` evaluates ``x``."""
    if words[0].value == "let":
        return any(reads_variable(w.value) or w.expands for w in words[1:])
    if words[0].value in DECLARES:
        return any(w.value[:1] in "-+" and "i" in w.value for w in words[1:])
    return False


def _compares_numbers(node: Node, reader: WordReader) -> bool:
    """Whether a test is ``[[ a -eq b ]]`` (or ``-ne``…), which evaluates ``a`` and ``b``
    as arithmetic; ``[``/``test`` read plain numbers only."""
    if not any(reader.text(c) in _ARITHMETIC_TESTS for c in node.children):
        return False
    parent = node.parent
    while parent is not None and parent.type != "test_command":
        parent = parent.parent
    return parent is not None and reader.text(parent).startswith("[[")


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


def variable_arithmetic(node: Node, reader: WordReader) -> str | None:
    """The text to quote when ``node`` (one of :data:`ARITHMETIC_NODES`) evaluates
    arithmetic that reads a variable, else ``None``."""
    kind = node.type
    text = reader.text(node)
    expressions: list[str] = []
    if kind == "arithmetic_expansion":  # ``$((…))``, ``$[…]``
        expressions.append(text[1:])
    elif kind == "compound_statement" and text.startswith("(("):  # not ``{ …; }``
        expressions.append(text)
    elif kind == "c_style_for_statement":  # ``for ((…; …; …))``
        marks = [c for c in node.children if c.type in ("((", "))")]
        if len(marks) == 2:
            text = reader.between(marks[0].start_byte, marks[1].end_byte)
        expressions.append(text)
    elif kind == "subscript":  # ``${a[i]}``, ``a[i]=v``: indexed-array subscripts
        index = text[text.find("[") + 1 : text.rfind("]")]
        if index not in ("@", "*"):
            expressions.append(index)
    elif kind == "expansion":  # ``${s:off}``, ``${s:off:len}``
        expressions.append(_substring_range(text))
    elif kind == "binary_expression" and _compares_numbers(node, reader):
        operands = [c for c in node.children if c.type != "test_operator"]
        expressions.extend(reader.text(c) for c in operands)
    if any(reads_variable(expression) for expression in expressions):
        return text
    return None
