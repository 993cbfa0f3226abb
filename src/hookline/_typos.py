"""Did you mean: the names a mistyped word was likely meant to be (flags, subcommands).

Apart from the layers and light (``difflib`` is imported when a guess is asked for):
the command line asks before anything else is loaded.
"""

from __future__ import annotations

from collections.abc import Collection

#: A guess is at least this alike (``difflib``'s ratio), and within ``_NEAR`` of the best.
_CUTOFF = 0.75
_NEAR = 0.1


def did_you_mean(word: str, choices: Collection[str]) -> str:
    """``"; did you mean --mode or --model?"`` when ``word`` looks like a mistyped choice,
    else ``""``: the closest, and any nearly as close (a typo may fit two)."""
    import difflib

    scored = sorted(
        ((difflib.SequenceMatcher(None, word, c).ratio(), c) for c in choices), reverse=True
    )
    if not scored:
        return ""
    close = [c for score, c in scored if score >= max(_CUTOFF, scored[0][0] - _NEAR)][:3]
    return f"; did you mean {' or '.join(close)}?" if close else ""
