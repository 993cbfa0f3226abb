"""Session files on disk: layout, round trip, torn and corrupt lines, read-only readers."""

from __future__ import annotations

import gc
import json
from pathlib import Path

import pytest

from hookline.core.messages import content_text, user_message
from hookline.core.paths import hookline_home
from hookline.session import (
    SessionClosedError,
    SessionFormatError,
    SessionManager,
    project_slug,
)

from .helpers import assistant


def _lines(path: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in Path(path).read_text().splitlines()]


def test_slug_comes_from_the_resolved_cwd(tmp_path: Path) -> None:
    assert project_slug("/work/main") == "--work-main--"
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    assert project_slug(tmp_path / "link") == project_slug(tmp_path / "real")


def test_create_writes_a_header_under_hookline_home(project: Path) -> None:
    with SessionManager.create(project) as s:
        path = Path(s.get_session_file() or "")
        assert path.parent == hookline_home() / "sessions" / project_slug(project)
        assert path.name.endswith(f"_{s.get_session_id()}.jsonl")
        [header] = _lines(str(path))
        assert header["type"] == "session"
        assert header["version"] == 1
        assert header["id"] == s.get_session_id()
        assert header["cwd"] == str(project.resolve()) == s.get_cwd()
        assert isinstance(header["timestamp"], str)
        assert "parent_session" not in header


def test_create_in_an_explicit_session_dir(project: Path, tmp_path: Path) -> None:
    with SessionManager.create(project, session_dir=tmp_path / "mine", parent_session="p") as s:
        assert Path(s.get_session_file() or "").parent == tmp_path / "mine"
        assert s.get_header()["parent_session"] == "p"


def test_round_trip_every_entry_type(session: SessionManager) -> None:
    m1 = session.append_message(user_message("hello"))
    m2 = session.append_message(assistant("hi"))
    c1 = session.append_custom_entry("todo", {"items": [1, 2]})
    c2 = session.append_custom_message("note", "remember", display=False, details={"k": 1})
    mc = session.append_model_change("scripted:b", "scripted:a")
    cp = session.append_compaction("sum", first_kept_entry_id=m2, tokens_before=42, details=[1])
    bs = session.append_branch_summary("left", from_id=m1)
    path = session.get_session_file()
    assert path is not None
    session.close()

    raw = _lines(path)[1:]
    assert [e["type"] for e in raw] == [
        "message",
        "message",
        "custom",
        "custom_message",
        "model_change",
        "compaction",
        "branch_summary",
    ]
    assert [e["id"] for e in raw] == [m1, m2, c1, c2, mc, cp, bs]
    assert [e["parent_id"] for e in raw] == [None, m1, m2, c1, c2, mc, cp]
    assert all(list(e)[:4] == ["type", "id", "parent_id", "timestamp"] for e in raw)

    with SessionManager.open(path) as again:
        assert again.get_entries() == raw
        assert again.get_leaf_id() == bs
        assert again.load_warnings == []
        assert again.get_entry(c1) == raw[2]
        assert again.get_entry("nope") is None
        assert again.get_session_id() == again.get_header()["id"]
        # appending after reopen continues the chain
        m3 = again.append_message(user_message("more"))
        assert again.get_entry(m3)["parent_id"] == bs  # type: ignore[index]


def test_a_role_custom_message_is_stored_as_custom_message(session: SessionManager) -> None:
    entry_id = session.append_message(
        {"role": "custom", "custom_type": "ci", "content": "green", "display": True}
    )
    entry = session.get_entry(entry_id)
    assert entry is not None and entry["type"] == "custom_message"
    assert session.build_context_messages() == [
        {"role": "custom", "custom_type": "ci", "content": "green", "display": True}
    ]


def test_append_is_visible_to_a_second_reader_immediately(session: SessionManager) -> None:
    path = session.get_session_file()
    assert path is not None
    first = session.append_message(user_message("one"))
    reader = SessionManager.open(path, read_only=True)
    assert [e["id"] for e in reader.get_entries()] == [first]
    second = session.append_custom_entry("x", None)
    reader2 = SessionManager.open(path, read_only=True)
    assert [e["id"] for e in reader2.get_entries()] == [first, second]
    with pytest.raises(SessionClosedError, match="read-only"):
        reader2.append_message(user_message("no"))


def test_every_line_ends_with_a_newline(session: SessionManager) -> None:
    session.append_message(user_message("a\nb"))
    data = Path(session.get_session_file() or "").read_bytes()
    assert data.endswith(b"\n")
    assert data.count(b"\n") == 2  # header + entry: newlines inside text are escaped


def test_torn_last_line_is_ignored_and_truncated(session: SessionManager) -> None:
    path = Path(session.get_session_file() or "")
    kept = [session.append_message(user_message(f"m{i}")) for i in range(3)]
    session.close()
    good = path.read_bytes()
    with open(path, "ab") as f:
        f.write(b'{"type":"message","id":"torn","parent_id":"x","mess')

    with SessionManager.open(path) as again:
        assert [e["id"] for e in again.get_entries()] == kept
        [warning] = again.load_warnings
        assert "line 5" in warning and "torn last line" in warning and str(path) in warning
        assert path.read_bytes() == good  # torn tail cut off: the next append starts clean
        new = again.append_message(user_message("after"))
    with SessionManager.open(path) as third:
        assert [e["id"] for e in third.get_entries()] == [*kept, new]
        assert third.load_warnings == []


def test_torn_tail_is_left_alone_by_a_read_only_reader(session: SessionManager) -> None:
    path = Path(session.get_session_file() or "")
    session.append_message(user_message("m"))
    session.close()
    with open(path, "ab") as f:
        f.write(b'{"type":"mess')
    before = path.read_bytes()
    reader = SessionManager.open(path, read_only=True)
    assert len(reader.get_entries()) == 1 and len(reader.load_warnings) == 1
    assert path.read_bytes() == before


def test_complete_last_line_without_newline_is_kept_and_repaired(
    session: SessionManager,
) -> None:
    path = Path(session.get_session_file() or "")
    a = session.append_message(user_message("a"))
    session.close()
    entry = {"type": "custom", "id": "hand0001", "parent_id": a, "timestamp": "t",
             "custom_type": "x", "data": 1}  # fmt: skip
    with open(path, "ab") as f:
        f.write(json.dumps(entry).encode())  # no trailing newline: a hand edit
    with SessionManager.open(path) as again:
        assert [e["id"] for e in again.get_entries()] == [a, "hand0001"]
        assert any("newline" in w for w in again.load_warnings)
        b = again.append_message(user_message("b"))
    with SessionManager.open(path) as third:
        assert [e["id"] for e in third.get_entries()] == [a, "hand0001", b]
        assert third.load_warnings == []


def test_corrupt_middle_line_is_skipped_with_its_line_number(session: SessionManager) -> None:
    path = Path(session.get_session_file() or "")
    ids = [session.append_message(user_message(f"m{i}")) for i in range(4)]
    session.close()
    lines = path.read_bytes().split(b"\n")
    lines[2] = b"{not json at all"  # the entry ids[1] (line 3 of the file)
    path.write_bytes(b"\n".join(lines))

    with SessionManager.open(path) as again:
        assert [e["id"] for e in again.get_entries()] == [ids[0], ids[2], ids[3]]
        assert any("line 3" in w and "corrupt" in w for w in again.load_warnings)
        # ids[2] lost its parent: it hangs on the previous good entry, so the
        # conversation still reaches back to the first message
        assert any(ids[1] in w and "missing" in w for w in again.load_warnings)
        texts = [content_text(m["content"]) for m in again.build_context_messages()]
        assert texts == ["m0", "m2", "m3"]


def test_non_entry_and_duplicate_lines_are_skipped(session: SessionManager) -> None:
    path = Path(session.get_session_file() or "")
    a = session.append_message(user_message("a"))
    session.close()
    with open(path, "ab") as f:
        f.write(b"[1, 2]\n\n")
        f.write(json.dumps({"type": "custom", "id": a, "parent_id": None}).encode() + b"\n")
    with SessionManager.open(path) as again:
        assert [e["id"] for e in again.get_entries()] == [a]
        assert len(again.load_warnings) == 2
        assert any("duplicate" in w for w in again.load_warnings)


@pytest.mark.parametrize(
    "content",
    [b"", b'{"type":"sess', b'{"type":"message","id":"a"}\n', b"garbage\n"],
)
def test_a_file_without_a_header_is_refused(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(content)
    with pytest.raises(SessionFormatError, match=str(path)):
        SessionManager.open(path)
    with pytest.raises(SessionFormatError):  # the failed open released its lock
        SessionManager.open(path)


def test_closed_session_refuses_appends(session: SessionManager) -> None:
    session.close()
    session.close()  # idempotent
    with pytest.raises(SessionClosedError):
        session.append_message(user_message("late"))
    assert session.get_session_file() is not None


def test_loading_restores_the_gc_state(session: SessionManager) -> None:
    path = session.get_session_file() or ""
    session.append_message(user_message("a"))
    assert gc.isenabled()
    SessionManager.open(path, read_only=True)
    assert gc.isenabled()
    gc.disable()
    try:
        SessionManager.open(path, read_only=True)
        assert not gc.isenabled()  # an embedder's choice is kept
    finally:
        gc.enable()
