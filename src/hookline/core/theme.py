"""The theme a hook styles its text with (``ctx.ui.theme``): pi's colour names and methods.

A theme is pi's theme file (``name``, ``vars``, ``colors``; a colour is ``"#rrggbb"``,
a 256-colour index, ``""`` for the terminal's default, or the name of a var), so a pi
theme works unchanged. ``dark`` and ``light`` are built in; ``name.json`` in
``~/.hookline/themes`` adds one. Colour names are snake_case (``tool_title``); pi's
camelCase (``toolTitle``) is accepted too. Where text cannot be coloured (print, JSON
and RPC modes, no UI) the theme is *plain*: every method returns the text unchanged.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from hookline._typos import did_you_mean

#: How a theme writes its colours: 24-bit, the 256-colour palette, or not at all.
ColorMode = Literal["truecolor", "256color", "plain"]
ThinkingLevel = Literal["off", "minimal", "low", "medium", "high", "xhigh"]

#: The foreground colours, in pi's order (its ``ThemeColor``).
COLORS: tuple[str, ...] = (
    "accent",
    "border",
    "border_accent",
    "border_muted",
    "success",
    "error",
    "warning",
    "muted",
    "dim",
    "text",
    "thinking_text",
    "user_message_text",
    "custom_message_text",
    "custom_message_label",
    "tool_title",
    "tool_output",
    "md_heading",
    "md_link",
    "md_link_url",
    "md_code",
    "md_code_block",
    "md_code_block_border",
    "md_quote",
    "md_quote_border",
    "md_hr",
    "md_list_bullet",
    "tool_diff_added",
    "tool_diff_removed",
    "tool_diff_context",
    "syntax_comment",
    "syntax_keyword",
    "syntax_function",
    "syntax_variable",
    "syntax_string",
    "syntax_number",
    "syntax_type",
    "syntax_operator",
    "syntax_punctuation",
    "thinking_off",
    "thinking_minimal",
    "thinking_low",
    "thinking_medium",
    "thinking_high",
    "thinking_xhigh",
    "bash_mode",
)
#: The background colours (pi's ``ThemeBg``).
BACKGROUNDS: tuple[str, ...] = (
    "selected_bg",
    "user_message_bg",
    "custom_message_bg",
    "tool_pending_bg",
    "tool_success_bg",
    "tool_error_bg",
)
BUILTIN_THEMES = ("dark", "light")

_HEX = re.compile(r"#[0-9a-fA-F]{6}")
#: The 256-colour cube's channel values, and its grey ramp (232-255).
_CUBE = (0, 95, 135, 175, 215, 255)
_GREYS = tuple(8 + 10 * i for i in range(24))
#: The 16 system colours (xterm's), for a theme that names them by index.
_SYSTEM = (
    "#000000",
    "#800000",
    "#008000",
    "#808000",
    "#000080",
    "#800080",
    "#008080",
    "#c0c0c0",
    "#808080",
    "#ff0000",
    "#00ff00",
    "#ffff00",
    "#0000ff",
    "#ff00ff",
    "#00ffff",
    "#ffffff",
)

Color = str | int


class ThemeError(ValueError):
    """A theme that cannot be found or read, or a colour name it does not have."""


@dataclass(frozen=True, slots=True)
class ThemeInfo:
    """A theme ``set_theme`` can switch to: its name, and its file (``None`` when built in)."""

    name: str
    path: Path | None


@dataclass(frozen=True, slots=True)
class ThemeResult:
    """What ``ctx.ui.set_theme`` answers, as pi's ``{success, error}``."""

    success: bool
    error: str | None = None


def color_key(name: str) -> str:
    """A colour's snake_case name, from either spelling (``toolTitle`` → ``tool_title``)."""
    from hookline.core.options import snake_key  # pi's camelCase, read as everywhere

    return snake_key(name)


class Theme:
    """Colours by name, written as ANSI escapes (or not at all, when plain)."""

    def __init__(
        self,
        name: str,
        colors: Mapping[str, Color],
        *,
        mode: ColorMode = "truecolor",
        source_path: Path | None = None,
    ) -> None:
        missing = [c for c in (*COLORS, *BACKGROUNDS) if c not in colors]
        if missing:
            raise ThemeError(f"theme {name!r} has no colour for {', '.join(missing)}")
        self.name = name
        self.source_path = source_path
        self._colors = {key: colors[key] for key in (*COLORS, *BACKGROUNDS)}
        self._mode = mode

    def __repr__(self) -> str:
        return f"Theme({self.name!r}, mode={self._mode!r})"

    def with_mode(self, mode: ColorMode) -> Theme:
        """The same colours, written another way (``"plain"`` writes none)."""
        return Theme(self.name, self._colors, mode=mode, source_path=self.source_path)

    def get_color_mode(self) -> ColorMode:
        return self._mode

    def fg(self, color: str, text: str) -> str:
        """``text`` in a foreground colour (``"accent"``, ``"error"``, ``"muted"`` …)."""
        ansi = self.get_fg_ansi(color)
        return f"{ansi}{text}\x1b[39m" if ansi else text

    def bg(self, color: str, text: str) -> str:
        """``text`` on a background colour (``"selected_bg"``, ``"tool_error_bg"`` …)."""
        ansi = self.get_bg_ansi(color)
        return f"{ansi}{text}\x1b[49m" if ansi else text

    def bold(self, text: str) -> str:
        return self._sgr(1, 22, text)

    def italic(self, text: str) -> str:
        return self._sgr(3, 23, text)

    def underline(self, text: str) -> str:
        return self._sgr(4, 24, text)

    def inverse(self, text: str) -> str:
        return self._sgr(7, 27, text)

    def strikethrough(self, text: str) -> str:
        return self._sgr(9, 29, text)

    def get_fg_ansi(self, color: str) -> str:
        """The escape that starts ``color`` (``""`` when plain)."""
        value = self._lookup(color, COLORS, "colour")
        return "" if self._mode == "plain" else _ansi(value, self._mode, 38)

    def get_bg_ansi(self, color: str) -> str:
        value = self._lookup(color, BACKGROUNDS, "background colour")
        return "" if self._mode == "plain" else _ansi(value, self._mode, 48)

    def hex(self, color: str) -> str:
        """A colour (either kind) as ``#rrggbb``, or ``""`` for the terminal's default:
        what the terminal app's own styles are drawn with."""
        value = self._lookup(color, (*COLORS, *BACKGROUNDS), "colour")
        return _index_hex(value) if isinstance(value, int) else value

    def color_index(self, color: str) -> int | None:
        """A colour (either kind) in the 256-colour palette; ``None`` for the default."""
        value = self._lookup(color, (*COLORS, *BACKGROUNDS), "colour")
        if isinstance(value, int):
            return value
        return None if value == "" else _to_256(*_rgb(value))

    def get_thinking_border_color(self, level: ThinkingLevel) -> Callable[[str], str]:
        """A function that colours text as the border of a thinking level."""
        key = f"thinking_{level}" if f"thinking_{level}" in COLORS else "thinking_off"
        return lambda text: self.fg(key, text)

    def get_bash_mode_border_color(self) -> Callable[[str], str]:
        return lambda text: self.fg("bash_mode", text)

    def _sgr(self, on: int, off: int, text: str) -> str:
        return text if self._mode == "plain" else f"\x1b[{on}m{text}\x1b[{off}m"

    def _lookup(self, color: str, names: tuple[str, ...], kind: str) -> Color:
        key = color_key(color)
        if key not in names:
            raise ThemeError(f"unknown theme {kind} {color!r}{did_you_mean(key, names)}")
        return self._colors[key]


def _ansi(value: Color, mode: ColorMode, base: int) -> str:
    if value == "":
        return f"\x1b[{base + 1}m"
    if isinstance(value, int):
        return f"\x1b[{base};5;{value}m"
    r, g, b = _rgb(value)
    if mode == "truecolor":
        return f"\x1b[{base};2;{r};{g};{b}m"
    return f"\x1b[{base};5;{_to_256(r, g, b)}m"


def _rgb(value: str) -> tuple[int, int, int]:
    return int(value[1:3], 16), int(value[3:5], 16), int(value[5:7], 16)


def _to_256(r: int, g: int, b: int) -> int:
    """The nearest palette entry: the colour cube, or the grey ramp for a near-neutral."""

    def near(values: tuple[int, ...], v: int) -> int:
        return min(range(len(values)), key=lambda i: abs(values[i] - v))

    def dist(r2: int, g2: int, b2: int) -> float:
        return (r - r2) ** 2 * 0.299 + (g - g2) ** 2 * 0.587 + (b - b2) ** 2 * 0.114

    ri, gi, bi = near(_CUBE, r), near(_CUBE, g), near(_CUBE, b)
    cube = 16 + 36 * ri + 6 * gi + bi
    grey_i = near(_GREYS, round(0.299 * r + 0.587 * g + 0.114 * b))
    grey = _GREYS[grey_i]
    if max(r, g, b) - min(r, g, b) < 10 and dist(grey, grey, grey) < dist(
        _CUBE[ri], _CUBE[gi], _CUBE[bi]
    ):
        return 232 + grey_i
    return cube


def _index_hex(index: int) -> str:
    """A 256-colour index as ``#rrggbb`` (xterm's palette)."""
    if index < 16:
        return _SYSTEM[index]
    if index >= 232:
        grey = _GREYS[index - 232]
        return f"#{grey:02x}{grey:02x}{grey:02x}"
    index -= 16
    r, g, b = _CUBE[index // 36], _CUBE[index // 6 % 6], _CUBE[index % 6]
    return f"#{r:02x}{g:02x}{b:02x}"


def detect_color_mode(environ: Mapping[str, str] | None = None) -> ColorMode:
    """24-bit unless the terminal is known not to have it (as pi decides)."""
    env = os.environ if environ is None else environ
    if env.get("COLORTERM") in ("truecolor", "24bit") or env.get("WT_SESSION"):
        return "truecolor"
    term = env.get("TERM", "")
    if term in ("", "dumb", "linux") or env.get("TERM_PROGRAM") == "Apple_Terminal":
        return "256color"
    if term == "screen" or term.startswith(("screen-", "screen.")):
        return "256color"
    return "truecolor"


def default_theme_name(environ: Mapping[str, str] | None = None) -> str:
    """``light`` on a terminal that says its background is light (``COLORFGBG``), else ``dark``."""
    env = os.environ if environ is None else environ
    parts = env.get("COLORFGBG", "").split(";")
    if len(parts) >= 2 and parts[1].strip().isdigit():
        return "dark" if int(parts[1]) < 8 else "light"
    return "dark"


def themes_dir() -> Path:
    """Where custom themes live: ``~/.hookline/themes/<name>.json``."""
    from hookline.core.paths import hookline_home

    return hookline_home() / "themes"


def theme_from_json(data: Any, *, label: str, source_path: Path | None = None) -> Theme:
    """A theme from pi's theme document (``name``, ``vars``, ``colors``)."""
    if not isinstance(data, dict) or not isinstance(data.get("colors"), dict):
        raise ThemeError(f"theme {label}: expected an object with 'name' and 'colors'")
    variables = data.get("vars") or {}
    colors = {color_key(k): _resolve(v, variables, label) for k, v in data["colors"].items()}
    return Theme(str(data.get("name") or label), colors, source_path=source_path)


def _resolve(value: Any, variables: Mapping[str, Any], label: str) -> Color:
    seen: set[str] = set()
    while isinstance(value, str) and value and not value.startswith("#"):
        if value in seen or value not in variables:
            why = "circular" if value in seen else "unknown"
            raise ThemeError(f"theme {label}: {why} variable {value!r}")
        seen.add(value)
        value = variables[value]
    if isinstance(value, bool) or not (
        (isinstance(value, int) and 0 <= value <= 255)
        or (isinstance(value, str) and (value == "" or _HEX.fullmatch(value)))
    ):
        raise ThemeError(f"theme {label}: bad colour {value!r}")
    return value


def load_theme(path: str | os.PathLike[str]) -> Theme:
    """A theme from a file (pi's theme JSON)."""
    file = Path(path)
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ThemeError(f"cannot read theme {file}: {exc}") from exc
    return theme_from_json(data, label=str(file), source_path=file)


@cache
def _builtin(name: str) -> Theme:
    text = resources.files("hookline.core").joinpath("themes", f"{name}.json").read_text("utf-8")
    return theme_from_json(json.loads(text), label=name)


def available_themes(extra: Sequence[Path] = ()) -> list[ThemeInfo]:
    """The built-in themes, the custom ones in :func:`themes_dir`, then the ``extra`` files
    (the agent's resources: a hook's ``resources_discover`` themes), by name."""
    found = {name: ThemeInfo(name, None) for name in BUILTIN_THEMES}
    folder = themes_dir()
    if folder.is_dir():
        for file in sorted(folder.glob("*.json")):
            found.setdefault(file.stem, ThemeInfo(file.stem, file))
    for file in extra:
        found.setdefault(file.stem, ThemeInfo(file.stem, file))
    return sorted(found.values(), key=lambda info: info.name)


def theme_by_name(name: str, mode: ColorMode = "truecolor", extra: Sequence[Path] = ()) -> Theme:
    """A built-in, custom or ``extra`` theme by its name (a file's stem), in ``mode``."""
    if name in BUILTIN_THEMES:
        return _builtin(name).with_mode(mode)
    file = themes_dir() / f"{name}.json"
    if not file.is_file():
        file = next((f for f in extra if f.stem == name), file)
    if not file.is_file():
        names = [info.name for info in available_themes(extra)]
        raise ThemeError(f"theme not found: {name!r}{did_you_mean(name, names)}")
    return load_theme(file).with_mode(mode)


@cache
def plain_theme() -> Theme:
    """The theme of a mode with no colour: pi's names, the text unchanged."""
    return _builtin("dark").with_mode("plain")
