"""The loader: block by block, one ``json.loads`` per block, GC paused then frozen.

Whatever the block size, the result must be the one of a whole-file parse:
same entries, same warnings with the same line numbers, same good size.
"""

from __future__ import annotations

import gc
import json
from pathlib import Path

import pytest

from hookline.core.messages import user_message
from hookline.session import SessionFormatError, SessionManager
from hookline.session.storage import ParsedFile, parse_session_blocks, parse_session_bytes


def _line(obj: object) -> bytes:
    return json.dumps(obj).encode() + b"\n"


def _entry(entry_id: str, parent: str | None, text: str = "hi") -> dict[str, object]:
    return {
        "type": "message",
        "id": entry_id,
        "parent_id": parent,
        "timestamp": "2025-01-01T00:00:00.000Z",
        "message": {"role": "user", "content": text},
    }


_HEADER = {"type": "session", "version": 1, "id": "s", "cwd": "/x", "timestamp": "t"}


def _messy_file() -> bytes:
    """Good entries around every kind of damage the loader repairs or skips."""
    return b"".join(
        [
            _line(_HEADER),
            _line(_entry("a", None, "multi\nline ✓")),
            b"\n",  # a blank line
            _line(_entry("b", "a")),
            b'{"type":"message","id":"torn-in-the-mid\n',  # corrupt middle line
            _line(_entry("c", "zz")),  # its parent is missing
            _line(_entry("b", "a")),  # a duplicate id
            b"[1,\n",
            b"2]\n",  # two lines that only parse together: both corrupt
            _line({"no": "id"}),
            _line(_entry("d", "c")),
            b'{"type":"message","id":"e","parent_id":"d","mess',  # torn tail
        ]
    )


def _summary(parsed: ParsedFile) -> tuple[object, ...]:
    return (
        parsed.header,
        parsed.entries,
        list(parsed.index),
        parsed.warnings,
        parsed.good_size,
        parsed.missing_newline,
    )


@pytest.mark.parametrize("block", [1, 2, 7, 64, 1 << 20])
def test_any_block_size_parses_like_the_whole_file(block: int) -> None:
    data = _messy_file()
    whole = parse_session_bytes(data, "f.jsonl")
    blocks = [data[i : i + block] for i in range(0, len(data), block)]
    assert _summary(parse_session_blocks(blocks, "f.jsonl")) == _summary(whole)


def test_the_whole_file_parse_skips_and_repairs_with_line_numbers() -> None:
    data = _messy_file()
    parsed = parse_session_bytes(data, "f.jsonl")
    assert [e["id"] for e in parsed.entries] == ["a", "b", "c", "d"]
    assert parsed.entries[2]["parent_id"] == "b"  # hung on the entry before it
    assert parsed.entries[0]["message"]["content"] == "multi\nline ✓"
    warnings = "\n".join(parsed.warnings)
    for expected in (
        "line 5: corrupt line skipped",
        "line 6: parent 'zz' of entry 'c' is missing",
        "line 7: duplicate entry id 'b'",
        "line 8: corrupt line skipped",
        "line 9: corrupt line skipped",
        "line 10: not an entry",
        "line 12: torn last line ignored",
    ):
        assert expected in warnings, warnings
    assert len(parsed.warnings) == 7
    assert parsed.good_size == data.rindex(b"\n") + 1 and not parsed.missing_newline


def test_a_last_line_without_newline_is_kept() -> None:
    data = _line(_HEADER) + _line(_entry("a", None)) + json.dumps(_entry("b", "a")).encode()
    parsed = parse_session_blocks([data[:50], data[50:]], "f.jsonl")
    assert [e["id"] for e in parsed.entries] == ["a", "b"]
    assert parsed.missing_newline and parsed.good_size == len(data)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "empty session file"),
        (b"\n\n", "empty session file"),
        (b"garbage\n" + _line(_entry("a", None)), "line 1: unreadable session header"),
        (_line(_entry("a", None)), "line 1 is not a header"),
        (b"\n" + _line({"type": "other"}), "line 2 is not a header"),
    ],
)
def test_not_a_session_file(data: bytes, message: str) -> None:
    with pytest.raises(SessionFormatError, match=message):
        parse_session_blocks([data], "f.jsonl")
    assert gc.isenabled()  # the paused GC is back on after a failed load too


def test_loaded_entries_share_their_keys_and_parent_ids(project: Path) -> None:
    with SessionManager.create(project) as writer:
        for i in range(20):
            writer.append_message(user_message(f"m{i}"))
        path = writer.get_session_file()
    assert path is not None
    with SessionManager.open(path, read_only=True) as session:
        first, second = session.get_entries()[:2]
        assert second["parent_id"] is first["id"]  # one string per id
        assert all(a is b for a, b in zip(first, second, strict=True))  # one string per key
        one, two = first["message"], second["message"]
        assert one["role"] is two["role"]  # one string per repeated word
        assert one["content"][0]["type"] is two["content"][0]["type"]  # type: ignore[index]


def test_a_load_is_frozen_out_of_the_collected_generations(project: Path) -> None:
    with SessionManager.create(project) as writer:
        writer.append_message(user_message("frozen"))
        path = writer.get_session_file()
    assert path is not None
    assert gc.isenabled()
    with SessionManager.open(path, read_only=True) as session:
        (entry,) = session.get_entries()
        assert gc.isenabled()
        assert gc.is_tracked(entry)
        tracked = gc.get_objects()  # generations 0-2, not the frozen ones
        assert not any(obj is entry for obj in tracked)
        del tracked


def test_a_file_without_branches_is_known_as_one_path() -> None:
    chain = _line(_HEADER) + _line(_entry("a", None)) + _line(_entry("b", "a"))
    assert parse_session_bytes(chain, "f").linear is True
    forked = chain + _line(_entry("c", "a"))  # a second child of "a"
    assert parse_session_bytes(forked, "f").linear is False
    second_root = chain + _line(_entry("c", None))
    assert parse_session_bytes(second_root, "f").linear is False
    assert parse_session_bytes(_messy_file(), "f").linear is False
