"""The theme in the terminal app: a hook's themed text in colour, and ``set_theme``
restyling the app itself (read with the colours tmux holds for each cell)."""

from __future__ import annotations

import re
from pathlib import Path

from hookline.core.theme import theme_by_name
from hookline.modes.tui import render
from hookline.modes.tui.style import rich_styles, style_rules

from .helpers import app

THEMED = """
from hookline import HookAPI


def register(pi: HookAPI) -> None:
    def show(ctx, note):
        ctx.ui.set_widget("themed", [ctx.ui.theme.fg("error", "err") + " " + note])

    @pi.on("session_start")
    def start(event, ctx):
        show(ctx, ctx.ui.theme.name)

    @pi.register_command("light")
    def light(args, ctx):
        result = ctx.ui.set_theme("light")
        show(ctx, f"{ctx.ui.theme.name} {result.success}")

    @pi.register_command("nope")
    def nope(args, ctx):
        ctx.ui.notify(ctx.ui.set_theme("nope").error or "")
"""


def _colour_before(screen: str, text: str) -> str:
    """The last foreground colour set on ``text``'s line before ``text`` starts."""
    line = next(line for line in screen.splitlines() if text in line)
    found = re.findall(r"\x1b\[(?:[0-9;]*;)?(38;[25];[0-9;]+?)m", line[: line.index(text)])
    assert found, repr(line)
    return str(found[-1])


def test_set_theme_restyles_the_app_and_hook_text(tmp_path: Path) -> None:
    with app(tmp_path, [], THEMED) as pane:
        pane.ready()
        # one read holds all three (a line printed above the app redraws it)
        dark = pane.wait_for(lambda s: all(t in s for t in ("err", "›", "msgs · ctx")), styled=True)
        hook_dark = _colour_before(dark, "err")  # the theme's "error", drawn in colour
        prompt_dark, footer_dark = _colour_before(dark, "›"), _colour_before(dark, "msgs · ctx")

        pane.type("/light")
        pane.keys("Enter")
        light = pane.wait_for(
            lambda s: all(t in s for t in ("light True", "›", "msgs · ctx")), styled=True
        )
        assert _colour_before(light, "err") != hook_dark
        assert _colour_before(light, "›") != prompt_dark  # the prompt is the accent
        assert _colour_before(light, "msgs · ctx") != footer_dark  # the footer is dim

        pane.type("/nope")
        pane.keys("Enter")
        # a failed switch keeps the theme; the transcript's notice is in its accent too
        screen = pane.wait_for(lambda s: "theme not found" in s and "light True" in s, styled=True)
        accent = theme_by_name("light").color_index("accent")
        assert _colour_before(screen, "theme not found") == f"38;5;{accent}"


def test_the_app_styles_are_the_theme_colours() -> None:
    light = style_rules(theme_by_name("light"))
    assert light["prompt"] == "#5a8080 bold"  # light's accent
    assert light["footer"] == "#767676"  # light's dim
    assert light["overlay"] == "bg:#ede7f6"
    assert style_rules(theme_by_name("dark"))["prompt"] == "#8abeb7 bold"


def test_every_style_the_transcript_names_is_defined() -> None:
    source = (Path(render.__file__)).read_text(encoding="utf-8")
    named = set(re.findall(r'"(theme\.[a-z.]+)"', source))
    assert named, "render.py names no theme styles"
    styles = rich_styles(theme_by_name("dark")).styles
    assert named <= set(styles), named - set(styles)
    assert str(styles["theme.error"]) == f"color({theme_by_name('dark').color_index('error')})"


DISCOVERED = """
from hookline import HookAPI


def register(pi: HookAPI) -> None:
    @pi.on("resources_discover")
    def themes(event, ctx):
        return {{"theme_paths": [{path!r}]}}

    @pi.register_command("mine")
    def mine(args, ctx):
        names = [t.name for t in ctx.ui.get_all_themes()]
        ctx.ui.set_widget("mine", [f"{{ctx.ui.set_theme('mine').success}} {{'mine' in names}}"])
"""


def test_a_theme_from_resources_discover_can_be_chosen(tmp_path: Path) -> None:
    theme = tmp_path / "mine.json"  # pi's format: the dynamic-resources example's theme
    shipped = Path(__file__).parents[3] / "examples" / "pi" / "dynamic_resources" / "dynamic.json"
    theme.write_text(shipped.read_text())
    with app(tmp_path, [], DISCOVERED.format(path=str(theme))) as pane:
        pane.ready()
        pane.type("/mine")
        pane.keys("Enter")
        pane.wait_for("True True")
