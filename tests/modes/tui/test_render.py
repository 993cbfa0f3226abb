"""The first frame draws without rich: the header's own wrapping matches rich's, byte for byte."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from hookline.core.theme import theme_by_name
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


@pytest.mark.parametrize("name", ["dark", "light"])
@pytest.mark.parametrize("text", HEADERS)
def test_dim_ansi_is_what_rich_prints(text: str, name: str) -> None:
    theme = theme_by_name(name)
    for width in range(0, 130):
        dim = render.to_ansi(render.dim(text), width, theme)
        assert render.dim_ansi(text, width, theme) == dim, width


def test_the_first_frame_does_not_load_rich() -> None:
    code = """
import sys
from hookline.modes.tui import app, trust
from hookline.core.theme import theme_by_name
from hookline.modes.tui import render
from hookline.core.theme import theme_by_name
render.dim_ansi("hookline · /tmp/project", 100, theme_by_name("dark"))
print(sorted(m for m in sys.modules if m == "rich" or m.startswith("rich.")))
"""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.strip() == "[]", done.stdout


def test_the_first_frame_imports_neither_the_agent_nor_pydantic() -> None:
    """What the app needs to draw its first frame (the command line, the launch, the app
    and the trust check) leaves the agent, hooks, settings models and rich for later."""
    code = """
import sys
import hookline.cli
from hookline.modes import interactive
from hookline.modes.tui import app, launch
from hookline.settings.trust import TrustStore, project_has_hooks
TrustStore().is_trusted("/tmp")
project_has_hooks("/tmp")
heavy = ("pydantic", "rich", "httpx", "tree_sitter", "hookline.agent", "hookline.discovery",
         "hookline.claude", "hookline.core.runner", "hookline.core.calling")
print(sorted(m for m in sys.modules if m.startswith(heavy)))
"""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.strip() == "[]", done.stdout


def test_live_source_is_a_bounded_tail_of_the_answer() -> None:
    for total in (10, 1_000, 20_000):
        answer = "\n".join(f"paragraph {i} with **bold** words" for i in range(total))
        source = render.live_source(answer)
        assert source.endswith(f"paragraph {total - 1} with **bold** words")
        assert source.count("\n") < render.LIVE_SOURCE_LINES  # the same work at any length


def test_live_source_reopens_a_code_block_cut_in_the_middle() -> None:
    code = "\n".join(f"x{i} = {i}" for i in range(100))
    for fence in ("```", "~~~~"):
        answer = f"Here:\n\n{fence}python\n{code}"
        source = render.live_source(answer, 3)
        assert source == f"{fence}python\nx97 = 97\nx98 = 98\nx99 = 99"
        shown = re.sub(
            r"\x1b\[[0-9;]*m",
            "",
            render.to_ansi(render.markdown(source), 80, theme_by_name("dark")),
        )
        assert fence not in shown and "x99 = 99" in shown  # rendered as code
        closed = f"{answer}\n{fence}\n" + "\n".join(f"after {i}" for i in range(5))
        assert render.live_source(closed, 3) == "after 2\nafter 3\nafter 4"
    # a fence of the other kind, or a shorter one, does not close the block
    inner = "```python\n~~~\n" + "\n".join(f"y{i}" for i in range(10))
    assert render.live_source(inner, 2) == "```python\ny8\ny9"


def test_keep_tail_keeps_whole_lines_and_the_line_being_written() -> None:
    assert render.keep_tail("1\n2\n3\n4\n", 2) == "3\n4\n"
    assert render.keep_tail("1\n2\n3\n4", 2) == "3\n4"
    assert render.keep_tail("1\n2", 5) == "1\n2"
    assert render.keep_tail("", 3) == ""


def _plain(renderable: object, width: int = 80) -> str:
    ansi = render.to_ansi(renderable, width, theme_by_name("dark"))  # type: ignore[arg-type]
    return re.sub(r"\x1b\[[0-9;]*m", "", ansi)


def test_a_long_result_shows_its_head_and_tail_with_the_exact_count_between() -> None:
    result = "\n".join(str(n) for n in range(1, 4001))
    block, collapsed = render.tool_block(
        "bash", {"command": "seq 4000"}, result, is_error=False, blocked=False, width=80
    )
    lines = [line.strip() for line in _plain(block).splitlines()[1:]]
    head = [str(n) for n in range(1, render.COLLAPSED_HEAD_LINES + 1)]
    tail = [str(n) for n in range(4001 - render.COLLAPSED_TAIL_LINES, 4001)]
    hidden = 4000 - len(head) - len(tail)
    marker = f"… {hidden} more lines … (ctrl+o to expand)"
    assert collapsed and lines == ["⎿ " + head[0], *head[1:], marker, *tail]


def test_a_long_result_with_wrapping_lines_keeps_the_same_summary() -> None:
    result = "\n".join(f"line-{n}-" + "x" * 100 for n in range(1, 21))
    block, collapsed = render.tool_block(
        "bash", {"command": "x"}, result, is_error=False, blocked=False, width=60
    )
    text = _plain(block, 60)
    assert collapsed and "… 12 more lines … (ctrl+o to expand)" in text
    assert "line-5-" in text and "line-18-" in text and "line-6-" not in text


def test_one_line_over_is_shown_not_collapsed_and_expanded_shows_all() -> None:
    fits = render.COLLAPSED_HEAD_LINES + render.COLLAPSED_TAIL_LINES + 1
    result = "\n".join(str(n) for n in range(1, fits + 1))
    block, collapsed = render.tool_block(
        "bash", {"command": "x"}, result, is_error=False, blocked=False, width=80
    )
    assert not collapsed and "more lines" not in _plain(block)
    many = "\n".join(str(n) for n in range(1, 100))
    block, collapsed = render.tool_block(
        "bash", {"command": "x"}, many, is_error=False, blocked=False, width=80, expanded=True
    )
    assert not collapsed and "    99" in _plain(block)
