"""Validation errors in plain words: what was expected and what was given, never pydantic's.

Every place that shows a failed pydantic validation to a person (settings, hook
results, tool arguments, plugin hook files) words each error here, so a user reads
``expected an integer, got str 'ten'`` rather than ``Input should be a valid
integer, unable to parse string as an integer``. Callers say where (their own key
path) and add what they know (the accepted keys, a did-you-mean).

Nothing from pydantic is imported: the error dicts are plain data.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

#: Characters of a given value quoted back.
_MAX_SHOWN = 60

#: What each pydantic error type means, as "expected ...".
_EXPECTED = {
    "int_type": "an integer",
    "int_parsing": "an integer",
    "int_from_float": "a whole number",
    "float_type": "a number",
    "float_parsing": "a number",
    "finite_number": "a finite number",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "string_type": "a string",
    "bytes_type": "a string",
    "list_type": "a list",
    "tuple_type": "a list",
    "set_type": "a list",
    "dict_type": "an object",
    "model_type": "an object",
    "model_attributes_type": "an object",
    "dataclass_type": "an object",
    "none_required": "null",
    "callable_type": "a function",
}
#: Bounds, by error type: (the context key, the words before it).
_BOUNDS = {
    "greater_than": ("gt", "a number greater than"),
    "greater_than_equal": ("ge", "a number of at least"),
    "less_than": ("lt", "a number less than"),
    "less_than_equal": ("le", "a number of at most"),
    "string_too_short": ("min_length", "at least {} character"),
    "string_too_long": ("max_length", "at most {} character"),
    "too_short": ("min_length", "at least {} item"),
    "too_long": ("max_length", "at most {} item"),
}


class PlainError(ValueError):
    """An error whose message is complete for a user: shown without its class name."""


def shown(value: Any) -> str:
    """A given value as a message quotes it: its type and a short repr."""
    if value is None:
        return "null"
    text = repr(value)
    if len(text) > _MAX_SHOWN:
        text = text[: _MAX_SHOWN - 3] + "..."
    return f"{type(value).__name__} {text}"


def key_path(loc: Sequence[int | str]) -> str:
    """``hooks[0].timeout`` for a location (``"(top level)"`` for none)."""
    parts: list[str] = []
    for segment in loc:
        if isinstance(segment, int):
            parts.append(f"[{segment}]")
        else:
            parts.append(f".{segment}" if parts else str(segment))
    return "".join(parts) or "(top level)"


def plain_message(error: Mapping[str, Any], known: Collection[str] = ()) -> str:
    """One error in words: what was expected, and what was given.

    ``known`` are the keys accepted beside an unknown one (a did-you-mean is drawn
    from them).
    """
    kind = str(error.get("type", ""))
    given = error.get("input")
    ctx = error.get("ctx") or {}
    if kind == "missing":
        return "required, but missing"
    if kind == "extra_forbidden":
        loc = error.get("loc") or ("?",)
        return unknown_key(str(loc[-1]), known)
    if kind in ("literal_error", "enum"):
        return f"expected {ctx.get('expected', 'one of the allowed values')}, got {shown(given)}"
    if kind in ("value_error", "assertion_error") and ctx.get("error") is not None:
        return str(ctx["error"])
    if kind == "string_pattern_mismatch":
        return f"expected text matching {ctx.get('pattern')}, got {shown(given)}"
    if kind in _BOUNDS:
        key, words = _BOUNDS[kind]
        limit = ctx.get(key)
        if isinstance(limit, float) and limit.is_integer():
            limit = int(limit)
        if "{}" in words:
            expected = words.format(limit) + ("" if limit == 1 else "s")
        else:
            expected = f"{words} {limit}"
        return f"expected {expected}, got {shown(given)}"
    if kind in _EXPECTED:
        return f"expected {_EXPECTED[kind]}, got {shown(given)}"
    return _reworded(str(error.get("msg", "invalid value")), given)


def unknown_key(key: str, known: Collection[str], what: str = "key", within: str = "") -> str:
    """``unknown key 'blok' in a command hook (did you mean 'block'?)``: the closest
    of ``known``, else all of them."""
    from hookline._typos import closest_hint

    hint = closest_hint(key, known)
    if not hint and known:
        hint = f" ({what}s: {', '.join(sorted(known))})"
    return f"unknown {what} {key!r}{f' {within}' if within else ''}{hint}"


def _reworded(msg: str, given: Any) -> str:
    """Pydantic's sentence for a rarer error, turned into the same shape."""
    for prefix in ("Input should be a valid ", "Input should be "):
        if msg.startswith(prefix):
            what = msg[len(prefix) :].split(",")[0]
            article = "" if prefix.endswith("be ") else ("an " if what[:1] in "aeiou" else "a ")
            return f"expected {article}{what}, got {shown(given)}"
    if msg.startswith("Value error, "):
        return msg[len("Value error, ") :]
    return msg[:1].lower() + msg[1:]


def plain_errors(
    errors: Sequence[Mapping[str, Any]], known: Collection[str] = (), limit: int = 10
) -> list[str]:
    """``path: message`` for each error (at most ``limit``, then how many more)."""
    lines = [
        f"{key_path(tuple(e.get('loc', ())))}: {plain_message(e, known)}" for e in errors[:limit]
    ]
    if len(errors) > limit:
        lines.append(f"... and {len(errors) - limit} more errors")
    return lines
