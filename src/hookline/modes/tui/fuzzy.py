"""Fuzzy matching as pi's selectors do it: the query's characters in order, anywhere.

One rule for every list the user types into (the model picker, ``@`` file
completion): a candidate matches when each character of the query appears in
it in order, case-insensitively; tighter and earlier matches rank first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

T = TypeVar("T")


def score(query: str, text: str) -> float | None:
    """How well ``text`` matches ``query`` (lower is better), or None when it does not.

    Every query character found costs the gap since the previous one; a match
    at a word start (after ``/``, ``-``, ``_``, ``.``, space) or a prefix costs less.
    """
    if not query:
        return 0.0
    haystack, needle = text.lower(), query.lower()
    if needle in haystack:  # a plain substring beats any scattered match
        at = haystack.find(needle)
        return at / 100 - (1 if at == 0 or haystack[at - 1] in _BOUNDARIES else 0)
    total, last = 0.0, -1
    for char in needle:
        found = haystack.find(char, last + 1)
        if found < 0:
            return None
        gap = found - last - 1
        total += gap * (0.5 if found == 0 or haystack[found - 1] in _BOUNDARIES else 1)
        last = found
    return 1 + total


_BOUNDARIES = "/-_. :"


def rank(query: str, items: Iterable[T], key: Callable[[T], str]) -> list[T]:
    """The items that match ``query``, best first (ties keep their order)."""
    scored = [
        (s, i, item) for i, item in enumerate(items) if (s := score(query, key(item))) is not None
    ]
    scored.sort(key=lambda row: (row[0], row[1]))
    return [item for _, _, item in scored]
