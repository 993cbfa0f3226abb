"""Truncation by lines and by bytes, head and tail, with every reported field."""

from __future__ import annotations

from hookline.tools.truncation import (
    DEFAULT_MAX_BYTES,
    DEFAULT_MAX_LINES,
    format_size,
    split_lines,
    truncate_head,
    truncate_line,
    truncate_tail,
)


def numbered(n: int) -> str:
    return "".join(f"{i}\n" for i in range(1, n + 1))


def test_small_text_is_untouched() -> None:
    shown, t = truncate_head("a\nb\n")
    assert shown == "a\nb\n"
    assert t["truncated"] is False and t["truncated_by"] is None
    assert (t["total_lines"], t["output_lines"]) == (2, 2)
    assert t["total_bytes"] == 4


def test_trailing_newline_does_not_count_as_a_line() -> None:
    assert split_lines("a\nb\n") == ["a", "b"]
    assert split_lines("a\nb") == ["a", "b"]
    assert split_lines("") == []
    assert split_lines("\n") == [""]


def test_head_by_lines() -> None:
    content = numbered(3000)
    shown, t = truncate_head(content)
    lines = shown.split("\n")
    assert lines[0] == "1" and lines[-1] == str(DEFAULT_MAX_LINES)
    assert t["truncated"] is True and t["truncated_by"] == "lines"
    assert t["total_lines"] == 3000
    assert t["total_bytes"] == len(content.encode())
    assert t["output_lines"] == DEFAULT_MAX_LINES
    assert t["output_bytes"] == len(shown.encode())
    assert t["last_line_partial"] is False


def test_tail_by_lines() -> None:
    shown, t = truncate_tail(numbered(3000))
    lines = shown.split("\n")
    assert lines[0] == "1001" and lines[-1] == "3000"
    assert t["truncated_by"] == "lines" and t["output_lines"] == 2000


def test_head_by_bytes() -> None:
    content = "\n".join("x" * 999 for _ in range(100))  # 1000 bytes a line with its \n
    shown, t = truncate_head(content)
    assert t["truncated"] is True and t["truncated_by"] == "bytes"
    assert t["total_lines"] == 100
    assert t["output_lines"] == DEFAULT_MAX_BYTES // 1000
    assert t["output_bytes"] == len(shown.encode()) <= DEFAULT_MAX_BYTES
    assert all(len(line) == 999 for line in shown.split("\n"))  # whole lines only


def test_custom_limits() -> None:
    shown, t = truncate_tail("a\nbb\nccc\n", max_lines=10, max_bytes=6)
    assert shown == "bb\nccc"
    assert (t["truncated_by"], t["output_bytes"], t["max_bytes"]) == ("bytes", 6, 6)


def test_one_huge_line_keeps_a_piece_on_a_character_boundary() -> None:
    line = "é" * 40_000  # 80 000 bytes
    head, t = truncate_head(line)
    assert t["truncated_by"] == "bytes" and t["last_line_partial"] is True
    assert head == "é" * (DEFAULT_MAX_BYTES // 2)
    tail, t2 = truncate_tail("start\n" + line)
    assert t2["last_line_partial"] is True and tail == "é" * (DEFAULT_MAX_BYTES // 2)


def test_truncate_line_and_sizes() -> None:
    assert truncate_line("abc", 5) == ("abc", False)
    cut, was = truncate_line("x" * 10, 4)
    assert was is True and cut.startswith("xxxx") and cut.endswith("[truncated]")
    assert (format_size(10), format_size(51200), format_size(3 * 1024 * 1024)) == (
        "10B",
        "50.0KB",
        "3.0MB",
    )
