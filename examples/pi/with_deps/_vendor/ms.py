"""``ms("2 days")``: a human-readable duration in milliseconds (the rules of npm's ``ms``).

A number with an optional unit (``ms``, ``s``, ``m``, ``h``, ``d``, ``w``, ``y`` or their
long forms, any case, a space allowed between); no unit means milliseconds. None when
the text is not a duration.
"""

from __future__ import annotations

import re

_SECOND = 1000
_MINUTE = 60 * _SECOND
_HOUR = 60 * _MINUTE
_DAY = 24 * _HOUR
_UNITS: dict[str, float] = {
    **dict.fromkeys(("years", "year", "yrs", "yr", "y"), _DAY * 365.25),
    **dict.fromkeys(("weeks", "week", "w"), 7 * _DAY),
    **dict.fromkeys(("days", "day", "d"), _DAY),
    **dict.fromkeys(("hours", "hour", "hrs", "hr", "h"), _HOUR),
    **dict.fromkeys(("minutes", "minute", "mins", "min", "m"), _MINUTE),
    **dict.fromkeys(("seconds", "second", "secs", "sec", "s"), _SECOND),
    **dict.fromkeys(("milliseconds", "millisecond", "msecs", "msec", "ms", ""), 1),
}
_DURATION = re.compile(r"(-?(?:\d+)?\.?\d+) *([a-z]*)", re.IGNORECASE)


def ms(text: str) -> int | float | None:
    """Milliseconds in ``text`` (an int when whole), or None."""
    match = _DURATION.fullmatch(text.strip()) if len(text) <= 100 else None
    if match is None or match.group(2).lower() not in _UNITS:
        return None
    value = float(match.group(1)) * _UNITS[match.group(2).lower()]
    return int(value) if value.is_integer() else value
