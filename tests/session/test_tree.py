"""The entry tree: branch, fork, context building, in-memory mode, listing and resuming."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from hookline.core.messages import Message, content_text, user_message
from hookline.session import (
    BRANCH_SUMMARY_TYPE,
    COMPACTION_SUMMARY_TYPE,
    SessionManager,
)

from .helpers import assistant, tool_result


def _texts(messages: list[Message]) -> list[str]:
    return [content_text(m["content"]) for m in messages]


def test_branch_then_append_forks_the_tree(session: SessionManager) -> None:
    u1 = session.append_message(user_message("q1"))
    a1 = session.append_message(assistant("a1"))
    u2 = session.append_message(user_message("q2"))
    a2 = session.append_message(assistant("a2"))

    session.branch(a1)
    assert session.get_leaf_id() == a1
    u2b = session.append_message(user_message("q2 again"))
    a2b = session.append_message(assistant("a2 again"))

    assert session.get_entry(u2b)["parent_id"] == a1  # type: ignore[index]
    assert session.get_tree() == {
        None: [u1],
        u1: [a1],
        a1: [u2, u2b],
        u2: [a2],
        a2: [],
        u2b: [a2b],
        a2b: [],
    }
    assert _texts(session.build_context_messages()) == ["q1", "a1", "q2 again", "a2 again"]
    assert [e["id"] for e in session.get_branch()] == [u1, a1, u2b, a2b]
    assert [e["id"] for e in session.get_branch(a2)] == [u1, a1, u2, a2]
    assert len(session.get_entries()) == 6  # nothing is ever removed


def test_branch_to_none_starts_a_new_root(session: SessionManager) -> None:
    session.append_message(user_message("old"))
    session.branch(None)
    assert session.get_leaf_id() is None and session.get_branch() == []
    assert session.build_context_messages() == []
    fresh = session.append_message(user_message("new"))
    assert session.get_entry(fresh)["parent_id"] is None  # type: ignore[index]
    assert _texts(session.build_context_messages()) == ["new"]


def test_branch_to_an_unknown_entry_is_an_error(session: SessionManager) -> None:
    with pytest.raises(ValueError, match="no entry 'zzz'"):
        session.branch("zzz")
    with pytest.raises(ValueError, match="no entry"):
        session.get_branch("zzz")


def test_reopened_session_resumes_at_the_last_entry(session: SessionManager) -> None:
    session.append_message(user_message("q1"))
    a1 = session.append_message(assistant("a1"))
    session.append_message(user_message("q2"))
    session.branch(a1)
    b = session.append_message(user_message("q2b"))
    path = session.get_session_file()
    session.close()
    with SessionManager.open(path or "") as again:
        assert again.get_leaf_id() == b
        assert _texts(again.build_context_messages()) == ["q1", "a1", "q2b"]


def test_context_sends_custom_messages_but_not_custom_entries(session: SessionManager) -> None:
    session.append_message(user_message("q"))
    session.append_custom_entry("state", {"secret": True})
    session.append_model_change("m2", "m1")
    session.append_custom_message("ci", [{"type": "text", "text": "build green"}], details=7)
    assert session.build_context_messages()[1:] == [
        {
            "role": "custom",
            "custom_type": "ci",
            "content": [{"type": "text", "text": "build green"}],
            "display": True,
            "details": 7,
        }
    ]


def test_branch_summary_becomes_a_custom_message(session: SessionManager) -> None:
    u1 = session.append_message(user_message("q1"))
    left = session.append_message(assistant("explored a dead end"))
    session.branch(u1)
    session.append_branch_summary("tried X, it failed", from_id=left, details={"n": 1})
    messages = session.build_context_messages()
    assert messages[0] == user_message("q1")
    summary = messages[1]
    assert summary["role"] == "custom" and summary["custom_type"] == BRANCH_SUMMARY_TYPE
    assert "tried X, it failed" in content_text(summary["content"])
    assert summary["details"]["from_id"] == left  # type: ignore[typeddict-item]


def test_compaction_replaces_old_messages_in_the_context(session: SessionManager) -> None:
    session.append_message(user_message("q1"))
    session.append_message(assistant("a1"))
    u2 = session.append_message(user_message("q2"))
    session.append_message(assistant("a2"))
    session.append_compaction("q1 was answered", first_kept_entry_id=u2, tokens_before=100)
    session.append_message(user_message("q3"))

    messages = session.build_context_messages()
    first = messages[0]
    assert first["role"] == "custom" and first["custom_type"] == COMPACTION_SUMMARY_TYPE
    assert "q1 was answered" in content_text(first["content"])
    assert first["details"]["tokens_before"] == 100  # type: ignore[typeddict-item]
    assert _texts(messages[1:]) == ["q2", "a2", "q3"]
    # the file still holds everything
    assert len(session.get_entries()) == 6


def test_only_the_latest_compaction_counts(session: SessionManager) -> None:
    session.append_message(user_message("q1"))
    u2 = session.append_message(user_message("q2"))
    session.append_compaction("first", first_kept_entry_id=u2, tokens_before=10)
    u3 = session.append_message(user_message("q3"))
    session.append_compaction("second", first_kept_entry_id=u3, tokens_before=10)
    messages = session.build_context_messages()
    assert len(messages) == 2
    assert "second" in content_text(messages[0]["content"])
    assert _texts(messages[1:]) == ["q3"]


def test_compaction_keeping_nothing(session: SessionManager) -> None:
    session.append_message(user_message("q1"))
    session.append_compaction("all of it", first_kept_entry_id=None, tokens_before=5)
    session.append_message(user_message("q2"))
    messages = session.build_context_messages()
    assert len(messages) == 2 and _texts(messages[1:]) == ["q2"]
    with pytest.raises(ValueError, match="first_kept_entry_id"):
        session.append_compaction("x", first_kept_entry_id="nope", tokens_before=1)


def test_compaction_on_another_branch_does_not_apply(session: SessionManager) -> None:
    u1 = session.append_message(user_message("q1"))
    u2 = session.append_message(user_message("q2"))
    session.append_compaction("s", first_kept_entry_id=u2, tokens_before=1)
    session.branch(u1)
    session.append_message(user_message("q2b"))
    assert _texts(session.build_context_messages()) == ["q1", "q2b"]


def test_fork_writes_a_new_file_with_the_path(session: SessionManager) -> None:
    u1 = session.append_message(user_message("q1"))
    a1 = session.append_message(assistant("a1", ("c1", "bash", {"command": "ls"})))
    t1 = session.append_message(tool_result("c1", "bash", "file"))
    session.append_message(user_message("q2"))
    session.branch(u1)
    session.append_message(user_message("other branch"))

    with session.fork(t1) as forked:
        path = forked.get_session_file()
        assert path is not None and path != session.get_session_file()
        assert Path(path).parent == Path(session.get_session_file() or "").parent
        assert forked.get_header()["parent_session"] == session.get_session_file()
        assert forked.get_session_id() != session.get_session_id()
        assert [e["id"] for e in forked.get_entries()] == [u1, a1, t1]
        assert forked.get_leaf_id() == t1
        more = forked.append_message(user_message("in the fork"))
        assert _texts(forked.build_context_messages())[-1] == "in the fork"
    lines = [json.loads(x) for x in Path(path).read_text().splitlines()]
    assert [x["id"] for x in lines[1:]] == [u1, a1, t1, more]
    # the original is untouched and still writable
    assert len(session.get_entries()) == 5
    session.append_message(user_message("still mine"))


def test_fork_of_nothing_is_an_empty_session(session: SessionManager) -> None:
    session.append_message(user_message("q"))
    with session.fork(None) as forked:
        assert forked.get_entries() == [] and forked.get_leaf_id() is None


def test_in_memory_has_the_same_api_and_no_file(project: Path) -> None:
    s = SessionManager.in_memory(project)
    assert s.get_session_file() is None and not s.is_persistent
    u = s.append_message(user_message("q"))
    s.append_message(assistant("a"))
    s.branch(u)
    s.append_message(assistant("b"))
    assert _texts(s.build_context_messages()) == ["q", "b"]
    forked = s.fork(u)
    assert forked.get_session_file() is None and [e["id"] for e in forked.get_entries()] == [u]
    s.close()
    assert not (Path(os.environ["HOOKLINE_HOME"]) / "sessions").exists()


def test_list_sessions_and_continue_recent(project: Path) -> None:
    assert SessionManager.list_sessions(project) == []
    paths = []
    for i in range(3):
        with SessionManager.create(project) as s:
            s.append_message(user_message(f"first   question {i}\nmore"))
            s.append_message(assistant("ok"))
            paths.append(s.get_session_file() or "")
    for age, path in zip((300, 100, 200), paths, strict=True):
        stamp = 1_700_000_000 - age
        os.utime(path, (stamp, stamp))
    Path(paths[0]).with_name("junk.jsonl").write_text("not a session\n")
    with SessionManager.create(project.parent) as other:
        other.append_message(user_message("other project"))

    infos = SessionManager.list_sessions(project)
    assert [i.path for i in infos] == [paths[1], paths[2], paths[0]]
    assert infos[0].message_count == 2
    assert infos[0].first_message == "first question 1 more"
    assert infos[0].cwd == str(project.resolve())

    with SessionManager.continue_recent(project) as resumed:
        assert resumed.get_session_file() == paths[1]
        assert len(resumed.get_entries()) == 2


def test_continue_recent_creates_when_there_is_none(project: Path) -> None:
    with SessionManager.continue_recent(project) as s:
        assert s.get_session_file() is not None and s.get_entries() == []
    assert len(SessionManager.list_sessions(project)) == 1


def test_get_branch_returns_a_fresh_list(session: SessionManager) -> None:
    a = session.append_message(user_message("a"))
    path = session.get_branch()
    path.clear()
    assert [e["id"] for e in session.get_branch()] == [a]
    assert _texts(session.build_context_messages()) == ["a"]


def test_cached_path_follows_branch_and_append(session: SessionManager) -> None:
    a = session.append_message(user_message("a"))
    b = session.append_message(user_message("b"))
    assert [e["id"] for e in session.get_branch()] == [a, b]  # cache built
    c = session.append_message(user_message("c"))
    assert [e["id"] for e in session.get_branch()] == [a, b, c]  # extended by the append
    session.branch(a)
    assert [e["id"] for e in session.get_branch()] == [a]
    d = session.append_message(user_message("d"))
    assert [e["id"] for e in session.get_branch()] == [a, d]
    assert [e["id"] for e in session.get_branch(c)] == [a, b, c]
    assert [e["id"] for e in session.get_branch()] == [a, d]


def test_empty_session_tree(session: SessionManager) -> None:
    assert session.get_tree() == {None: []}
    assert session.get_entries() == [] and session.get_leaf_id() is None
    assert session.build_context_messages() == []
