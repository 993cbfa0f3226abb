"""The kept-up-to-date context path: equal to a fresh walk, and no walk per turn.

``ContextPath.rescans`` counts full walks of the path; appends, leaf moves
and compactions must add none, while the messages must always equal what
``context_messages`` computes from a fresh walk of the tree.
"""

from __future__ import annotations

import random
from pathlib import Path

from hookline.core.messages import Message, user_message
from hookline.session import SessionManager
from hookline.session.context import context_messages

from .helpers import assistant, tool_result


def _fresh(session: SessionManager) -> list[Message]:
    """The reference: walk the tree from the leaf, apply the context rules."""
    path = []
    current = session.get_leaf_id()
    while current is not None:
        entry = session.get_entry(current)
        assert entry is not None
        path.append(entry)
        current = entry["parent_id"]
    return context_messages(path[::-1])


def _rescans(session: SessionManager) -> int:
    context = session._context  # the counter lives on the private cache by design
    assert context is not None
    return context.rescans


def _grow(session: SessionManager, turns: int) -> None:
    for i in range(turns):
        session.append_message(user_message(f"request {i}"))
        session.append_message(assistant("reading", (f"c{i}", "read", {"path": "a.py"})))
        session.append_message(tool_result(f"c{i}", "read", "x = 1"))
        session.append_message(assistant(f"done {i}"))


def test_a_resumed_session_walks_its_path_once_however_many_turns(project: Path) -> None:
    with SessionManager.create(project) as writer:
        _grow(writer, 250)
        path = writer.get_session_file()
    assert path is not None
    with SessionManager.open(path) as session:
        assert session.build_context_messages() == _fresh(session)
        assert _rescans(session) == 1
        for turn in range(20):  # later model calls: append, then build the context
            session.append_message(user_message(f"more {turn}"))
            session.append_custom_entry("state", {"turn": turn})  # stored, never sent
            session.append_custom_message("note", f"hook note {turn}")
            session.append_message(assistant(f"answer {turn}"))
            built = session.build_context_messages()
            assert built == _fresh(session)
            assert len(built) == 1000 + 3 * (turn + 1)
        assert _rescans(session) == 1


def test_moving_the_leaf_cuts_back_or_walks_only_the_new_branch(project: Path) -> None:
    with SessionManager.create(project) as session:
        _grow(session, 50)
        trunk = [e["id"] for e in session.get_branch()]
        session.build_context_messages()
        session.branch(trunk[99])  # back along the path
        assert session.build_context_messages() == _fresh(session)
        side = [session.append_message(user_message(f"side {i}")) for i in range(5)]
        session.branch(trunk[-1])  # over to the other branch
        assert session.build_context_messages() == _fresh(session)
        session.branch(side[2])  # and back into the side branch
        assert session.build_context_messages() == _fresh(session)
        assert [e["id"] for e in session.get_branch()] == [*trunk[:100], *side[:3]]
        session.branch(None)
        assert session.build_context_messages() == []
        session.branch(trunk[-1])
        assert session.build_context_messages() == _fresh(session)
        assert _rescans(session) == 1


def test_compactions_and_moves_across_them_match_a_fresh_walk(project: Path) -> None:
    with SessionManager.create(project) as session:
        _grow(session, 10)
        ids = [e["id"] for e in session.get_branch()]
        session.build_context_messages()
        first = session.append_compaction("first", first_kept_entry_id=ids[20], tokens_before=9)
        assert session.build_context_messages() == _fresh(session)
        _grow(session, 3)
        session.append_compaction("second", first_kept_entry_id=ids[30], tokens_before=9)
        built = session.build_context_messages()
        assert built == _fresh(session) and built[0]["content"].endswith("second")  # type: ignore[typeddict-item]
        session.branch(first)  # behind the second compaction: the first one rules again
        assert session.build_context_messages() == _fresh(session)
        session.branch(ids[25])  # behind both
        assert session.build_context_messages() == _fresh(session)
        session.append_compaction("none kept", first_kept_entry_id=None, tokens_before=1)
        assert session.build_context_messages() == _fresh(session)
        assert _rescans(session) == 1


def test_random_walks_of_the_tree_always_match_a_fresh_walk(project: Path) -> None:
    """Appends, branches, compactions and summaries in a seeded random order."""
    rng = random.Random(9)
    with SessionManager.create(project) as session:
        ids: list[str] = []
        session.build_context_messages()
        for step in range(600):
            action = rng.random()
            if action < 0.55 or not ids:
                ids.append(session.append_message(user_message(f"m{step}")))
            elif action < 0.75:
                session.branch(rng.choice([*ids, None]))
            elif action < 0.85:
                on_path = [e["id"] for e in session.get_branch()]
                kept = rng.choice([*on_path, None, ids[0]])  # ids[0] may be off the path
                ids.append(
                    session.append_compaction(f"c{step}", first_kept_entry_id=kept, tokens_before=1)
                )
            elif action < 0.92:
                ids.append(session.append_branch_summary(f"b{step}", from_id=rng.choice(ids)))
            else:
                ids.append(session.append_custom_entry("s", step))
            assert session.build_context_messages() == _fresh(session), step
        assert _rescans(session) == 1


def test_the_returned_list_is_the_callers(session: SessionManager) -> None:
    session.append_message(user_message("one"))
    built = session.build_context_messages()
    built.clear()  # a hook that edits the list it was given
    assert len(session.build_context_messages()) == 1


def test_a_resumed_file_with_branches_is_walked_from_its_last_entry(project: Path) -> None:
    with SessionManager.create(project) as writer:
        _grow(writer, 5)
        trunk = [e["id"] for e in writer.get_branch()]
        writer.branch(trunk[7])
        writer.append_message(user_message("side"))
        path = writer.get_session_file()
    assert path is not None
    with SessionManager.open(path) as session:
        built = session.build_context_messages()
        assert built == _fresh(session) and len(built) == 9  # not the 20 entries of the file
    with SessionManager.open(path, read_only=True) as linear_prefix:
        linear_prefix.branch(trunk[-1])
        assert linear_prefix.build_context_messages() == _fresh(linear_prefix)
