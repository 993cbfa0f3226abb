"""Each field's meaning where it is declared: a ``#:`` comment above it, or a docstring under it
(the form mkdocstrings reads)."""

from __future__ import annotations

import ast
import inspect
import sys
from functools import cache


@cache
def _module_tree(module: str) -> tuple[ast.Module, list[str]]:
    source = inspect.getsource(sys.modules[module])
    return ast.parse(source), source.splitlines()


def field_comments(cls: type) -> dict[str, str]:
    """``{field: its meaning}`` for the annotated fields of ``cls``'s own body."""
    tree, lines = _module_tree(cls.__module__)
    node = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls.__name__)
    found: dict[str, str] = {}
    for stmt, after in zip(node.body, [*node.body[1:], None], strict=True):
        if not (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)):
            continue
        if (
            isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        ):
            found[stmt.target.id] = " ".join(inspect.cleandoc(after.value.value).split())
            continue
        above: list[str] = []
        i = stmt.lineno - 2
        while i >= 0 and lines[i].strip().startswith("#:"):
            above.insert(0, lines[i].strip()[2:].strip())
            i -= 1
        if above:
            found[stmt.target.id] = " ".join(above)
    return found
