"""``ctx.ui.theme``: pi's colour names and methods, its theme files, and the plain theme."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hookline.core.theme import (
    BACKGROUNDS,
    COLORS,
    Theme,
    ThemeError,
    available_themes,
    color_key,
    default_theme_name,
    detect_color_mode,
    load_theme,
    plain_theme,
    theme_by_name,
)


def test_pi_names_in_snake_case_and_camel_case() -> None:
    dark = theme_by_name("dark")
    assert len(COLORS) == 45 and len(BACKGROUNDS) == 6
    assert color_key("toolTitle") == "tool_title"
    assert dark.fg("mdCodeBlockBorder", "x") == dark.fg("md_code_block_border", "x")
    assert dark.bg("selectedBg", "x") == dark.bg("selected_bg", "x")


def test_truecolor_escapes_reset_only_what_they_set() -> None:
    dark = theme_by_name("dark")
    assert dark.fg("error", "x") == "\x1b[38;2;204;102;102mx\x1b[39m"
    assert dark.bg("tool_error_bg", "x") == "\x1b[48;2;60;40;40mx\x1b[49m"
    assert dark.fg("text", "x") == "\x1b[39mx\x1b[39m"  # "" is the terminal's default
    assert dark.bold("b") == "\x1b[1mb\x1b[22m"
    assert dark.italic("i") == "\x1b[3mi\x1b[23m"
    assert dark.underline("u") == "\x1b[4mu\x1b[24m"
    assert dark.inverse("v") == "\x1b[7mv\x1b[27m"
    assert dark.strikethrough("s") == "\x1b[9ms\x1b[29m"
    assert dark.get_fg_ansi("accent") == "\x1b[38;2;138;190;183m"
    assert dark.get_thinking_border_color("high")("t") == dark.fg("thinking_high", "t")


def test_256_colours_map_to_the_nearest_palette_entry() -> None:
    dark = theme_by_name("dark", "256color")
    assert dark.get_color_mode() == "256color"
    assert dark.fg("error", "x") == "\x1b[38;5;167mx\x1b[39m"
    assert dark.fg("muted", "x") == "\x1b[38;5;244mx\x1b[39m"  # #808080: the grey ramp


def test_light_differs_from_dark() -> None:
    assert theme_by_name("light").hex("accent") == "#5a8080"
    assert theme_by_name("dark").hex("accent") == "#8abeb7"


def test_plain_theme_returns_the_text() -> None:
    plain = plain_theme()
    assert plain.fg("error", "x") == "x"
    assert plain.bg("selected_bg", "x") == "x"
    assert plain.bold(plain.italic(plain.strikethrough("x"))) == "x"
    assert plain.get_fg_ansi("accent") == ""


def test_unknown_colour_says_did_you_mean() -> None:
    dark = theme_by_name("dark")
    with pytest.raises(ThemeError, match="unknown theme colour 'eror'; did you mean error"):
        dark.fg("eror", "x")
    with pytest.raises(ThemeError, match="did you mean selected_bg"):
        dark.bg("selectedBgg", "x")
    with pytest.raises(ThemeError, match="background colour 'accent'"):
        dark.bg("accent", "x")
    with pytest.raises(ThemeError, match="did you mean error"):
        plain_theme().fg("eror", "x")


def _pi_theme(path: Path, name: str, **override: object) -> Path:
    data = json.loads(
        (Path(__file__).parents[2] / "src/hookline/core/themes/dark.json").read_text()
    )
    data["name"] = name
    data["colors"].update(override)
    path.write_text(json.dumps(data))
    return path


def test_a_pi_theme_file_loads(tmp_path: Path) -> None:
    theme = load_theme(_pi_theme(tmp_path / "mine.json", "mine", accent=196, error="red"))
    assert theme.name == "mine" and theme.source_path == tmp_path / "mine.json"
    assert theme.fg("accent", "x") == "\x1b[38;5;196mx\x1b[39m"
    assert theme.hex("accent") == "#ff0000"
    assert theme.hex("error") == "#cc6666"  # the var "red"


@pytest.mark.parametrize(
    ("override", "error"),
    [
        ({"accent": "nowhere"}, "unknown variable 'nowhere'"),
        ({"accent": "#12345"}, "bad colour"),
        ({"accent": 300}, "bad colour"),
    ],
)
def test_a_bad_theme_file_says_why(tmp_path: Path, override: dict[str, object], error: str) -> None:
    with pytest.raises(ThemeError, match=error):
        load_theme(_pi_theme(tmp_path / "bad.json", "bad", **override))


def test_a_theme_needs_every_colour() -> None:
    with pytest.raises(ThemeError, match="has no colour for"):
        Theme("thin", {"accent": "#000000"})


def test_custom_themes_live_in_the_home_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOOKLINE_HOME", str(tmp_path))
    (tmp_path / "themes").mkdir()
    _pi_theme(tmp_path / "themes" / "ocean.json", "ocean", accent="#0000ff")
    assert [t.name for t in available_themes()] == ["dark", "light", "ocean"]
    assert theme_by_name("ocean").hex("accent") == "#0000ff"
    with pytest.raises(ThemeError, match="did you mean ocean"):
        theme_by_name("ocaen")


def test_colour_mode_and_default_theme_from_the_environment() -> None:
    assert detect_color_mode({"COLORTERM": "truecolor", "TERM": "screen"}) == "truecolor"
    assert detect_color_mode({"TERM": "screen-256color"}) == "256color"
    assert detect_color_mode({"TERM": "xterm-256color"}) == "truecolor"
    assert default_theme_name({"COLORFGBG": "0;15"}) == "light"
    assert default_theme_name({}) == "dark"
