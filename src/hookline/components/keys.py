"""Keys as a component sees them: raw terminal sequences, and pi's key ids to match them.

A key id is modifiers and a key joined by ``+`` (``"ctrl+c"``, ``"shift+tab"``,
``"alt+left"``, ``"enter"``, ``"a"``); pi's spellings are accepted too
(``"return"``, ``"esc"``, ``"pageUp"``). :func:`parse_key` names the key a raw
sequence is (legacy xterm sequences and the kitty keyboard protocol's
``CSI code ; modifiers u``), :func:`matches_key` compares it with an id.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

_MODIFIER_ORDER = ("ctrl", "shift", "alt")
_ALIASES = {
    "return": "enter",
    "esc": "escape",
    "del": "delete",
    "pgup": "pageup",
    "pgdn": "pagedown",
}

#: Legacy sequences with no modifier.
_PLAIN: dict[str, str] = {
    "\r": "enter",
    "\n": "ctrl+j",
    "\t": "tab",
    "\x1b": "escape",
    "\x7f": "backspace",
    "\x08": "backspace",
    " ": "space",
    "\x00": "ctrl+space",
    "\x1b[Z": "shift+tab",
    "\x1b\r": "alt+enter",
    "\x1b\x7f": "alt+backspace",
    "\x1b[2~": "insert",
    "\x1b[3~": "delete",
    "\x1b[5~": "pageup",
    "\x1b[6~": "pagedown",
    "\x1b[1~": "home",
    "\x1b[7~": "home",
    "\x1b[4~": "end",
    "\x1b[8~": "end",
    "\x1bOP": "f1",
    "\x1bOQ": "f2",
    "\x1bOR": "f3",
    "\x1bOS": "f4",
    "\x1b[15~": "f5",
    "\x1b[17~": "f6",
    "\x1b[18~": "f7",
    "\x1b[19~": "f8",
    "\x1b[20~": "f9",
    "\x1b[21~": "f10",
    "\x1b[23~": "f11",
    "\x1b[24~": "f12",
}
_LETTER_KEYS = {"A": "up", "B": "down", "C": "right", "D": "left", "H": "home", "F": "end"}
_TILDE_KEYS = {
    "2": "insert",
    "3": "delete",
    "5": "pageup",
    "6": "pagedown",
    "1": "home",
    "4": "end",
}
#: CSI 1;m X and CSI n;m ~ : arrows, home/end and the tilde keys with modifiers.
_MODIFIED = re.compile(r"\x1b\[(?:1;(\d+)([ABCDHF])|(\d+);(\d+)~)")
_ARROW = re.compile(r"\x1b[\[O]([ABCDHF])")
#: The kitty protocol: CSI code [; modifiers [: event]] u
_KITTY = re.compile(r"\x1b\[(\d+)(?::\d*)*(?:;(\d+)(?::(\d+))?)?u")
_KITTY_NAMES = {13: "enter", 9: "tab", 27: "escape", 127: "backspace", 32: "space"}


def _modifiers(code: int) -> list[str]:
    bits = code - 1
    return [name for bit, name in ((4, "ctrl"), (1, "shift"), (2, "alt")) if bits & bit]


def _join(mods: Sequence[str], key: str) -> str:
    ordered = [m for m in _MODIFIER_ORDER if m in mods]
    return "+".join([*ordered, key])


def _parts(key_id: str) -> tuple[list[str], str]:
    """The modifiers and the key of an id; a last ``+`` is the key ``+`` (``"ctrl++"``)."""
    text = key_id.strip()
    if text.endswith("+"):
        mods = text[:-1].rstrip("+").split("+") if len(text) > 1 else []
        return [m for m in mods if m], "+"
    *mods, key = text.split("+")
    return [m for m in mods if m], key


def normalize_key_id(key_id: str) -> str:
    """The canonical spelling of a key id (``"Ctrl+Shift+P"`` → ``"ctrl+shift+p"``)."""
    mods, key = _parts(key_id)
    mods = [m.lower() for m in mods]
    key = key if len(key) == 1 else key.lower()
    key = _ALIASES.get(key, key)
    if len(key) == 1 and key.isalpha() and "ctrl" in mods:
        key = key.lower()
    return _join(mods, key)


def parse_key(data: str) -> str | None:
    """The key id a raw sequence is, or ``None`` for one it does not know."""
    if data in _PLAIN:
        return _PLAIN[data]
    if len(data) == 1:
        code = ord(data)
        if 1 <= code <= 26:
            return f"ctrl+{chr(code + 96)}"
        if code == 0x1F:
            return "ctrl+-"
        if code == 0x1D:
            return "ctrl+]"
        return data if data.isprintable() else None
    if match := _ARROW.fullmatch(data):
        return _LETTER_KEYS[match.group(1)]
    if match := _MODIFIED.fullmatch(data):
        if match.group(2):
            return _join(_modifiers(int(match.group(1))), _LETTER_KEYS[match.group(2)])
        key = _TILDE_KEYS.get(match.group(3))
        return _join(_modifiers(int(match.group(4))), key) if key else None
    if match := _KITTY.fullmatch(data):
        if match.group(3) == "3":  # a key release
            return None
        code = int(match.group(1))
        mods = _modifiers(int(match.group(2) or 1))
        key = _KITTY_NAMES.get(code) or (chr(code) if 32 < code < 0x110000 else None)
        return _join(mods, key) if key else None
    if data.startswith("\x1b") and len(data) == 2:
        inner = parse_key(data[1])
        if inner is None:
            return None
        mods, key = _parts(inner)
        return _join(["alt", *mods], key)
    return None


def released_key(data: str) -> str | None:
    """The key id a key release is for (the kitty protocol's ``CSI code;mods:3 u``), or
    ``None`` when ``data`` is no release; :func:`parse_key` knows no release."""
    match = _KITTY.fullmatch(data)
    if match is None or match.group(3) != "3":
        return None
    return parse_key(data[: match.start(3) - 1] + "u")


def matches_key(data: str, key_id: str) -> bool:
    """Whether the raw sequence ``data`` is the key ``key_id`` (``"ctrl+c"``, ``Key.up``)."""
    key = parse_key(data)
    if key is None:
        return False
    wanted = normalize_key_id(key_id)
    if key == wanted:
        return True
    # a typed capital is the letter with shift
    return len(key) == 1 and key.isupper() and wanted == f"shift+{key.lower()}"


class Key:
    """pi's key ids by name: ``Key.enter``, ``Key.ctrl("c")``, ``Key.shift("tab")``."""

    escape = "escape"
    esc = "escape"
    enter = "enter"
    tab = "tab"
    space = "space"
    backspace = "backspace"
    delete = "delete"
    insert = "insert"
    home = "home"
    end = "end"
    page_up = "pageup"
    page_down = "pagedown"
    up = "up"
    down = "down"
    left = "left"
    right = "right"
    f1, f2, f3, f4, f5, f6 = "f1", "f2", "f3", "f4", "f5", "f6"
    f7, f8, f9, f10, f11, f12 = "f7", "f8", "f9", "f10", "f11", "f12"

    @staticmethod
    def ctrl(key: str) -> str:
        return normalize_key_id(f"ctrl+{key}")

    @staticmethod
    def shift(key: str) -> str:
        return normalize_key_id(f"shift+{key}")

    @staticmethod
    def alt(key: str) -> str:
        return normalize_key_id(f"alt+{key}")

    @staticmethod
    def ctrl_shift(key: str) -> str:
        return normalize_key_id(f"ctrl+shift+{key}")

    @staticmethod
    def ctrl_alt(key: str) -> str:
        return normalize_key_id(f"ctrl+alt+{key}")

    @staticmethod
    def shift_alt(key: str) -> str:
        return normalize_key_id(f"shift+alt+{key}")


#: The actions of the built-in components and the keys bound to them (pi's defaults;
#: ``select_up`` and pi's ``selectUp`` are the same action).
DEFAULT_KEYBINDINGS: Mapping[str, tuple[str, ...]] = {
    "cursor_up": ("up",),
    "cursor_down": ("down",),
    "cursor_left": ("left", "ctrl+b"),
    "cursor_right": ("right", "ctrl+f"),
    "cursor_word_left": ("alt+left", "ctrl+left", "alt+b"),
    "cursor_word_right": ("alt+right", "ctrl+right", "alt+f"),
    "cursor_line_start": ("home", "ctrl+a"),
    "cursor_line_end": ("end", "ctrl+e"),
    "page_up": ("pageup",),
    "page_down": ("pagedown",),
    "delete_char_backward": ("backspace",),
    "delete_char_forward": ("delete", "ctrl+d"),
    "delete_word_backward": ("ctrl+w", "alt+backspace"),
    "delete_to_line_start": ("ctrl+u",),
    "delete_to_line_end": ("ctrl+k",),
    "new_line": ("shift+enter", "alt+enter", "ctrl+j"),
    "submit": ("enter",),
    "tab": ("tab",),
    "select_up": ("up",),
    "select_down": ("down",),
    "select_page_up": ("pageup",),
    "select_page_down": ("pagedown",),
    "select_confirm": ("enter",),
    "select_cancel": ("escape", "ctrl+c"),
    # the terminal app's own actions, which a ``CustomEditor`` hands back to it
    "interrupt": ("escape",),
    "clear": ("ctrl+c",),
    "exit": ("ctrl+d",),
    "expand_tools": ("ctrl+o",),
    "cycle_permission_mode": ("shift+tab",),
}
_CAMEL = re.compile(r"(?<=[a-z])([A-Z])")


class Keybindings:
    """Which keys do which action (pi's ``keybindings``, the factory's third argument)."""

    def __init__(self, bindings: Mapping[str, Sequence[str]] | None = None) -> None:
        merged = {
            **DEFAULT_KEYBINDINGS,
            **{action_name(k): tuple(v) for k, v in (bindings or {}).items()},
        }
        self._bindings = {
            name: tuple(normalize_key_id(k) for k in keys) for name, keys in merged.items()
        }

    def matches(self, data: str, action: str) -> bool:
        """Whether the raw sequence ``data`` is one of the keys of ``action``."""
        return any(matches_key(data, key) for key in self._bindings.get(action_name(action), ()))

    def get_keys(self, action: str) -> tuple[str, ...]:
        return self._bindings.get(action_name(action), ())


def action_name(name: str) -> str:
    """``selectUp`` → ``select_up``; a namespaced ``tui.select.up`` → ``select_up``."""
    name = name.removeprefix("tui.").replace(".", "_")
    return _CAMEL.sub(r"_\1", name).lower()


_DEFAULT = Keybindings()


def default_keybindings() -> Keybindings:
    """The keybindings the built-in components use."""
    return _DEFAULT


_SEQUENCES = {key: data for data, key in reversed(list(_PLAIN.items()))}
_LETTER_OF = {key: letter for letter, key in _LETTER_KEYS.items()}
_TILDE_OF = {"insert": "2", "delete": "3", "pageup": "5", "pagedown": "6"}


def key_sequence(key_id: str) -> str:
    """The raw sequence a terminal sends for ``key_id`` (the inverse of :func:`parse_key`),
    to drive a component in a test: ``key_sequence("ctrl+c") == "\\x03"``."""
    key = normalize_key_id(key_id)
    if key in _SEQUENCES:
        return _SEQUENCES[key]
    mods, name = _parts(key)
    if not mods:
        if name in _LETTER_OF:
            return f"\x1b[{_LETTER_OF[name]}"
        if len(name) == 1:
            return name
    elif mods == ["ctrl"] and len(name) == 1 and name.isalpha():
        return chr(ord(name) - 96)
    elif mods == ["alt"]:
        return "\x1b" + key_sequence(name)
    elif mods == ["shift"] and len(name) == 1:
        return name.upper()
    code = 1 + sum(bit for bit, m in ((4, "ctrl"), (1, "shift"), (2, "alt")) if m in mods)
    if name in _LETTER_OF:
        return f"\x1b[1;{code}{_LETTER_OF[name]}"
    if name in _TILDE_OF:
        return f"\x1b[{_TILDE_OF[name]};{code}~"
    special = {"enter": 13, "tab": 9, "escape": 27, "backspace": 127, "space": 32}
    number = special.get(name, ord(name) if len(name) == 1 else None)
    if number is None:
        raise ValueError(f"no terminal sequence for key {key_id!r}")
    return f"\x1b[{number};{code}u"  # the kitty protocol's form
