"""pi's custom-header example (``examples/pi/custom_header.py``): a component draws the
mascot at the top of the terminal app until ``/builtin-header``."""

from __future__ import annotations

from pathlib import Path

from hookline import __version__
from tests.examples.harness import example_path
from tests.modes.tui.helpers import app

BAR = "█" * 14


def test_the_mascot_heads_the_app_until_the_builtin_header_is_back(tmp_path: Path) -> None:
    with app(tmp_path, [], None, "--hook", str(example_path("custom_header"))) as pane:

        def header_above_editor(screen: str) -> bool:
            lines = screen.splitlines()
            bar = [i for i, line in enumerate(lines) if BAR in line]
            subtitle = [i for i, line in enumerate(lines) if "hookline coding agent" in line]
            editor = [i for i, line in enumerate(lines) if line.startswith("›")]
            return bool(bar and subtitle and editor) and bar[0] < subtitle[0] < editor[-1]

        screen = pane.wait_for(header_above_editor)
        assert f"v{__version__}" in screen
        assert sum("██    ██" in line for line in screen.splitlines()) == 4  # the legs
        styled = pane.styled_screen()
        bar_line = next(line for line in styled.splitlines() if BAR in line)
        assert "\x1b[38;" in bar_line  # the theme's accent
        pane.type("/builtin-header")
        pane.keys("Enter")
        pane.wait_for(lambda s: "Built-in header restored" in s and BAR not in s)
