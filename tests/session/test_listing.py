"""Listing session files cheaply: damaged lines and files never stop the listing."""

from __future__ import annotations

import json
from pathlib import Path

from hookline.session.listing import list_session_infos


def _line(value: object) -> str:
    return json.dumps(value, separators=(",", ":"))


def test_damaged_lines_and_files_are_skipped_never_raised(tmp_path: Path) -> None:
    header = {"type": "session", "id": "abc", "cwd": "/p", "timestamp": "t"}
    user = {"role": "user", "content": [{"type": "text", "text": "fix  the\ntests"}]}
    lines = [
        _line(header),
        '{"type":"message","message":5}',
        '{"type":"message","message":{"role":"user","content":7}}',
        '{"type":"message","message":{"role":"user","content":[3,{"type":"text","text":1}]}}',
        '{"type":"message"',  # torn
        '{"type":"session_info","name":[1]}',
        _line({"type": "message", "message": user}),
        _line({"type": "session_info", "name": "tests"}),
    ]
    (tmp_path / "a.jsonl").write_text("\n".join(lines) + "\n")
    (tmp_path / "b.jsonl").write_text("[1, 2]\n")
    (tmp_path / "c.jsonl").write_bytes(b"\xff\xfe\x00")
    (tmp_path / "d.jsonl").write_text("")
    (info,) = list_session_infos(tmp_path)
    assert (info.id, info.name, info.message_count) == ("abc", "tests", 5)
    assert info.first_message == "fix the tests"
    assert info.matches("FIX") and info.matches("tests") and info.matches("ab")
    assert not info.matches("nothing")
