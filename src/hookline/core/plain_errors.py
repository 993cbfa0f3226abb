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

from hookline._typos import closest, closest_hint

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
    hint = closest_hint(key, known)
    if not hint and known:
        listed = known if isinstance(known, Sequence) else sorted(known)  # a set: sorted
        hint = f" ({what}s: {', '.join(listed)})"
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
    errors = without_union_branches(errors)
    missing: dict[tuple[int | str, ...], list[str]] = {}  # a misspelt key explains a missing one
    for e in errors:
        loc = tuple(e.get("loc", ()))
        if e.get("type") == "missing" and loc:
            missing.setdefault(loc[:-1], []).append(str(loc[-1]))
    lines = []
    for e in errors[:limit]:
        loc = tuple(e.get("loc", ()))
        near: Collection[str] = known
        if len(loc) > 1 or not known:  # a nested key: only a missing sibling is a guess
            siblings = missing.get(loc[:-1], [])
            near = siblings if loc and closest(str(loc[-1]), siblings) else ()
        lines.append(f"{key_path(loc)}: {plain_message(e, near)}")
    if len(errors) > limit:
        lines.append(f"... and {len(errors) - limit} more errors")
    return lines


def _tag_at(loc: Sequence[int | str]) -> int | None:
    """Where a union member's class name (``TextContent``) may sit in a location: pydantic
    names the member it tried; the user never wrote it."""
    for i, segment in enumerate(loc[:-1]):
        if isinstance(segment, str) and segment[:1].isupper() and segment.isidentifier():
            return i
    return None


def without_union_branches(errors: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The errors of the union member the value was meant for, member names dropped.

    A value that fits no member of a union gets errors for every member (two names
    or more at one place: a single capitalised key, ``PreToolUse``, is the user's);
    the one whose ``type`` tag the value carries is the one meant. When it carries
    none of them, one error says which tags there are.
    """
    names: dict[tuple[int | str, ...], set[str]] = {}
    for error in errors:
        loc = tuple(error.get("loc", ()))
        at = _tag_at(loc)
        if at is not None:
            names.setdefault(loc[:at], set()).add(str(loc[at]))
    slots: list[Mapping[str, Any] | tuple[int | str, ...]] = []  # an error, or a union's place
    unions: dict[tuple[int | str, ...], dict[str, list[Mapping[str, Any]]]] = {}
    for error in errors:
        loc = tuple(error.get("loc", ()))
        at = _tag_at(loc)
        if at is None or len(names[loc[:at]]) < 2:
            slots.append(error)
            continue
        place = loc[:at]
        if place not in unions:
            unions[place] = {}
            slots.append(place)
        unions[place].setdefault(str(loc[at]), []).append({**error, "loc": place + loc[at + 1 :]})
    out: list[Mapping[str, Any]] = []
    for slot in slots:
        if isinstance(slot, tuple):
            out += _meant(slot, unions[slot])
        else:
            out.append(slot)
    return out


def _meant(
    place: tuple[int | str, ...], members: dict[str, list[Mapping[str, Any]]]
) -> list[Mapping[str, Any]]:
    """The errors of the members whose ``type`` tag matched (all of them when several did)."""
    wrong_tag = {
        name: e
        for name, found in members.items()
        for e in found
        if e.get("type") == "literal_error" and tuple(e["loc"]) == (*place, "type")
    }
    meant = [e for name, found in members.items() if name not in wrong_tag for e in found]
    if meant or not wrong_tag:
        return meant
    tags = " or ".join(str((e.get("ctx") or {}).get("expected")) for e in wrong_tag.values())
    return [{**next(iter(wrong_tag.values())), "ctx": {"expected": tags}}]
