"""Did you mean: the names a mistyped word was likely meant to be (events, flags, commands,
result keys, settings keys).

Apart from the layers and light (``difflib`` is imported when a guess is asked for):
the command line asks before anything else is loaded, and the hook API when a hook
names an event that does not exist.
"""

from __future__ import annotations

from collections.abc import Collection

#: A guess for a flag or a command is at least this alike (``difflib``'s ratio), and
#: within ``_NEAR`` of the best; an event name needs ``_EVENT_CUTOFF``.
_CUTOFF = 0.75
_NEAR = 0.1
_EVENT_CUTOFF = 0.6


def _guesses(word: str, choices: Collection[str], cutoff: float) -> list[str]:
    """The closest choices, best first: the best and any nearly as close (at most 3)."""
    import difflib

    scored = sorted(
        ((difflib.SequenceMatcher(None, word, c).ratio(), c) for c in choices), reverse=True
    )
    if not scored:
        return []
    return [c for score, c in scored if score >= max(cutoff, scored[0][0] - _NEAR)][:3]


def did_you_mean(word: str, choices: Collection[str]) -> str:
    """``"; did you mean --mode or --model?"`` when ``word`` looks like a mistyped choice,
    else ``""``: the closest, and any nearly as close (a typo may fit two)."""
    close = _guesses(word, choices, _CUTOFF)
    return f"; did you mean {' or '.join(close)}?" if close else ""


def closest(word: str, choices: Collection[str]) -> str | None:
    """The one choice ``word`` was most likely meant to be (a name, a key), else ``None``."""
    close = _guesses(word, sorted(choices), _EVENT_CUTOFF)
    return close[0] if close else None


def closest_hint(word: str, choices: Collection[str]) -> str:
    """`` (did you mean 'tool_call'?)`` for the one closest choice, else ``""``."""
    guess = closest(word, choices)
    return f" (did you mean {guess!r}?)" if guess else ""
