"""pi's options objects (``registerCommand(name, {description, handler})``) as keyword arguments.

A hook ported from pi passes one mapping where hookline takes keywords. The mapping's
keys are read as the keywords they name, in snake_case or pi's camelCase
(``getArgumentCompletions``); an unknown key fails while the hook loads, with the
Python form spelled out, rather than when the command is first typed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping
from typing import Any

_CAMEL = re.compile(r"(?<=[a-z0-9])([A-Z])")


def snake_key(name: str) -> str:
    """pi's camelCase name in snake_case (``getArgumentCompletions`` →
    ``get_argument_completions``); a snake_case name is returned as it is."""
    return _CAMEL.sub(r"_\1", name).lower()


class OptionsError(TypeError):
    """A pi-style options mapping hookline cannot read; the message shows the Python form."""


def option_keywords(
    options: Mapping[str, Any], known: Collection[str], *, call: str, python_form: str
) -> dict[str, Any]:
    """``options`` as keyword arguments, each one of ``known`` (snake_case names).

    ``call`` names the call as written (``register_command('deploy', {...})``) and
    ``python_form`` is the same call with keywords: both appear in the error for an
    unknown or repeated key.
    """
    from hookline._typos import closest_hint

    keywords: dict[str, Any] = {}
    for key, value in options.items():
        name = snake_key(key) if isinstance(key, str) else key
        if name not in known:
            hint = closest_hint(str(name), known) if isinstance(name, str) else ""
            raise OptionsError(
                f"{call}: unknown key {key!r}{hint}; keys: {', '.join(sorted(known))} "
                f"(the Python form: {python_form})"
            )
        if name in keywords:
            raise OptionsError(f"{call}: {key!r} is given twice (as {name!r} too)")
        keywords[name] = value
    return keywords


def check_callable(value: object, what: str, *, call: str, python_form: str) -> Callable[..., Any]:
    """``value`` (the ``what`` of ``call``); raises when it cannot be called."""
    if not callable(value):
        raise OptionsError(
            f"{call}: {what} is not callable: {value!r} (the Python form: {python_form})"
        )
    return value
