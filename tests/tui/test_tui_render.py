"""The first frame draws without rich: the header's own wrapping matches rich's, byte for byte."""

from __future__ import annotations

import subprocess
import sys

import pytest

from hookline.modes.tui import render

HEADERS = [
    "hookline · /tmp/x · /help for commands, ctrl+d to exit",
    "hookline · /tmp/pytest-of-root/pytest-1/test_a_long_name0/project · /help for commands",
    # not plain: rich wraps these itself
    "hookline · " + "/a/very-long-name-without-spaces" * 4 + " · /help",
    "hookline · /home/u/my project/x  y · /help",
    "hookline · /x/\t/y · /help",
    "hookline · /tmp/日本語/x · /help for commands",
    "hookline · /tmp/é · /help",
    "hookline · /t/\x1b[31mred · /help",
    "hookline · " + "a b c d e f g h i j k l m n o p q r s t u v w x y z " * 3,
    "trailing space ",
    " leading space",
    "",
]


@pytest.mark.parametrize("text", HEADERS)
def test_dim_ansi_is_what_rich_prints(text: str) -> None:
    for width in range(0, 130):
        assert render.dim_ansi(text, width) == render.to_ansi(render.dim(text), width), width


def test_the_first_frame_does_not_load_rich() -> None:
    code = """
import sys
from hookline.modes.tui import app, trust
from hookline.modes.tui import render
render.dim_ansi("hookline · /tmp/project · /help for commands, ctrl+d to exit", 100)
print(sorted(m for m in sys.modules if m == "rich" or m.startswith("rich.")))
"""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.strip() == "[]", done.stdout
