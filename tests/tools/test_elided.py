"""Summaries of long output for people: the first lines, an exact count, the last lines."""

from __future__ import annotations

from hookline.tools.elided import elide_lines

ROWS = [str(n) for n in range(1, 4001)]


def test_a_long_text_keeps_its_head_and_tail_and_counts_the_rest_exactly() -> None:
    summary = elide_lines(ROWS, 2, 3)
    assert summary.lines() == ["1", "2", "… 3995 more lines …", "3998", "3999", "4000"]
    assert summary.hidden == 3995 and summary.marker == "… 3995 more lines …"


def test_one_hidden_line_is_shown_instead_of_counted() -> None:
    """Saying ``… 1 more lines`` takes the line it stands for."""
    assert elide_lines(ROWS[:6], 2, 3).lines() == ROWS[:6]
    assert elide_lines(ROWS[:7], 2, 3).lines() == ["1", "2", "… 2 more lines …", "5", "6", "7"]


def test_short_texts_and_head_only_summaries() -> None:
    assert elide_lines([], 2, 2).lines() == []
    assert elide_lines(["only"], 2, 2).marker == ""
    assert elide_lines(ROWS[:10], 3, 0).lines() == ["1", "2", "3", "… 7 more lines …"]
