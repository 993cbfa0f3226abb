"""Key specs for hook shortcuts (``"ctrl+k"``, ``"alt+x"``, ``"f5"``), checked at registration.

A spec is modifiers and one key joined by ``+``. The terminal app turns it
into its key names; keys the app needs itself are reserved and refused with
an error that says which ones are free, so a hook can never take over Ctrl+C.
"""

from __future__ import annotations

import string

_MODIFIERS = ("ctrl", "alt", "shift")
_NAMED = (
    "enter",
    "escape",
    "tab",
    "space",
    "backspace",
    "delete",
    "insert",
    "up",
    "down",
    "left",
    "right",
    "home",
    "end",
    "pageup",
    "pagedown",
    *(f"f{n}" for n in range(1, 13)),
)
_ALIASES = {
    "esc": "escape",
    "return": "enter",
    "del": "delete",
    "pgup": "pageup",
    "pgdn": "pagedown",
}

#: Keys the terminal app owns: stop/exit, submit and newline, dialogs, completion,
#: history and editing. Terminals send ctrl+i/ctrl+m/ctrl+[ as tab/enter/escape.
RESERVED_KEYS = frozenset(
    {
        "ctrl+c",
        "ctrl+d",
        "ctrl+j",
        "ctrl+m",
        "ctrl+i",
        "ctrl+[",
        "ctrl+h",
        "ctrl+o",
        "ctrl+z",
        "enter",
        "alt+enter",
        "escape",
        "tab",
        "shift+tab",
        "up",
        "down",
        "left",
        "right",
        "backspace",
        "delete",
        "home",
        "end",
        "space",
    }
)


class KeySpecError(ValueError):
    """A shortcut key that is malformed or reserved; the message says which and why."""


def _split(spec: str) -> list[str]:
    """Parts of a spec; a trailing ``+`` is the key ``+`` (``"ctrl++"``)."""
    text = spec.strip().lower()
    if text.endswith("+") and text != "+":
        return [*[p.strip() for p in text[:-1].split("+") if p.strip()], "+"]
    return [p.strip() for p in text.split("+")]


def normalize_key(spec: str) -> str:
    """The canonical spec (``"Ctrl+K"`` → ``"ctrl+k"``), or ``KeySpecError``."""
    if not isinstance(spec, str) or not spec.strip():
        raise KeySpecError(f"shortcut key must be a non-empty string like 'ctrl+k', got {spec!r}")
    *mods, key = _split(spec)
    key = _ALIASES.get(key, key)
    if any(m not in _MODIFIERS for m in mods) or len(set(mods)) != len(mods):
        raise KeySpecError(
            f"shortcut {spec!r}: modifiers must be distinct and among {', '.join(_MODIFIERS)}"
        )
    char = len(key) == 1 and key in string.printable and not key.isspace()
    if not char and key not in _NAMED:
        raise KeySpecError(
            f"shortcut {spec!r}: unknown key {key!r} (use one character or one of "
            f"{', '.join(_NAMED[:15])}, f1..f12)"
        )
    if char and not mods:
        raise KeySpecError(
            f"shortcut {spec!r}: a plain character would stop the user typing it; add ctrl+ or alt+"
        )
    if "ctrl" in mods and "alt" in mods:
        raise KeySpecError(f"shortcut {spec!r}: use ctrl+ or alt+, not both")
    if "shift" in mods and (len(mods) > 1 or key not in _SHIFTABLE):
        raise KeySpecError(
            f"shortcut {spec!r}: terminals tell shift apart only alone with {', '.join(_SHIFTABLE)}"
        )
    if "ctrl" in mods and char and key not in string.ascii_lowercase:
        raise KeySpecError(f"shortcut {spec!r}: terminals send ctrl only with letters a-z")
    ordered = [m for m in _MODIFIERS if m in mods]
    return "+".join([*ordered, key])


def check_shortcut_key(spec: str) -> str:
    """``normalize_key``, refusing the keys the app reserves for itself."""
    key = normalize_key(spec)
    if key in RESERVED_KEYS:
        raise KeySpecError(
            f"shortcut {spec!r} is reserved by hookline (reserved: "
            f"{', '.join(sorted(RESERVED_KEYS))}); pick another, e.g. 'ctrl+k' or 'alt+k'"
        )
    return key


_SHIFTABLE = ("tab", "up", "down", "left", "right", "home", "end")
_PT_NAMES = {"space": " ", "pageup": "pageup", "pagedown": "pagedown"}


def prompt_toolkit_keys(spec: str) -> tuple[str, ...]:
    """The key sequence prompt_toolkit binds for a normalized spec (alt is an escape prefix)."""
    *mods, key = _split(spec)
    base = _PT_NAMES.get(key, key)
    if "ctrl" in mods:
        base = f"c-{key}"
    elif "shift" in mods:
        base = f"s-{key}"
    return ("escape", base) if "alt" in mods else (base,)
