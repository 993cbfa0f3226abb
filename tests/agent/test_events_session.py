"""Payloads of the session events, each emitted by a real agent on a real session file."""

from __future__ import annotations

from pathlib import Path

from hookline import (
    AutoCompactionEndEvent,
    AutoCompactionStartEvent,
    SessionBeforeBranchEvent,
    SessionBeforeCompactEvent,
    SessionBeforeForkEvent,
    SessionBeforeSwitchEvent,
    SessionBeforeTreeEvent,
    SessionBranchEvent,
    SessionCompactEvent,
    SessionCompactingEvent,
    SessionForkEvent,
    SessionShutdownEvent,
    SessionStartEvent,
    SessionSwitchEvent,
    SessionTreeEvent,
)
from hookline.core.messages import content_text

from .conftest import MakeAgent
from .helpers import Harness, covers, texts

#: A prompt of ~22,500 estimated tokens: past the 20,000 tokens compaction keeps.
BIG_PROMPT = "word " * 18_000


def message_ids(h: Harness) -> list[str]:
    return [e["id"] for e in h.entries()[1:] if e["type"] == "message"]


async def two_runs_second_big(make_agent: MakeAgent, **options: object) -> Harness:
    """A session whose older run can be compacted away: a small run, then a big one."""
    h = await make_agent(["first answer", "second answer"], **options)
    await h.agent.prompt("first question")
    await h.agent.prompt(BIG_PROMPT)
    return h


@covers("session_start", "session_shutdown")
async def test_session_start_and_shutdown(make_agent: MakeAgent) -> None:
    h = await make_agent()
    file = h.agent.session.get_session_file()
    assert file is not None and Path(file).is_file()

    start = h.event(SessionStartEvent)
    assert (start.source, start.session_file) == ("startup", file)

    await h.agent.shutdown("sigterm")
    await h.agent.shutdown("quit")  # once only
    assert h.event(SessionShutdownEvent).reason == "sigterm"


@covers("session_before_switch", "session_switch", "session_start")
async def test_new_session_then_switch_back(make_agent: MakeAgent) -> None:
    h = await make_agent(["first answer"])
    await h.agent.prompt("first question")
    first = h.agent.session.get_session_file()
    assert first is not None

    assert await h.agent.new_session() is True
    second = h.agent.session.get_session_file()
    assert second is not None and second != first
    before = h.events(SessionBeforeSwitchEvent)[-1]
    assert (before.reason, before.target_session_file) == ("new", None)
    switch = h.events(SessionSwitchEvent)[-1]
    assert (switch.reason, switch.previous_session_file, switch.session_file) == (
        "new",
        first,
        second,
    )
    start = h.events(SessionStartEvent)[-1]
    assert (start.source, start.reason, start.session_file) == ("clear", "new", second)
    assert h.runner.context.session_file == second
    assert h.entries(second)[0]["parent_session"] == first

    assert await h.agent.switch_session(first) is True
    before = h.events(SessionBeforeSwitchEvent)[-1]
    assert (before.reason, before.target_session_file) == ("switch", first)
    switch = h.events(SessionSwitchEvent)[-1]
    assert (switch.reason, switch.previous_session_file, switch.session_file) == (
        "switch",
        second,
        first,
    )
    start = h.events(SessionStartEvent)[-1]
    assert (start.source, start.session_file) == ("resume", first)
    assert texts(h.agent.session.build_context_messages()) == ["first question", "first answer"]
    assert h.types().count("session_start") == 3


async def test_new_session_shuts_the_hooks_down_and_loads_them_again(
    make_agent: MakeAgent,
) -> None:
    """As pi runs its extension factories again: the old instance hears session_shutdown
    (``new``, with the session it goes to), a fresh one hears session_start (``new``)."""
    h = await make_agent(
        hooks={"counter": "LOADS = []\n\ndef register(pi):\n    LOADS.append(1)\n"}
    )
    old_recorder, old_counter = h.hook("recorder"), h.hook("counter")
    assert await h.agent.new_session() is True
    second = h.agent.session.get_session_file()
    shutdown = old_recorder.EVENTS[-1]
    assert isinstance(shutdown, SessionShutdownEvent)
    assert (shutdown.reason, shutdown.target_session_file) == ("new", second)
    assert h.hook("counter") is not old_counter and h.hook("counter").LOADS == [1]
    fresh = [e.type for e in h.hook("recorder").EVENTS]
    assert fresh == ["session_switch", "session_start"]
    assert h.hook("recorder").EVENTS[-1].reason == "new"


async def test_the_end_of_a_run_is_quit_and_exit_is_taken_for_it(make_agent: MakeAgent) -> None:
    h = await make_agent()
    await h.agent.shutdown("exit")
    assert h.event(SessionShutdownEvent).reason == "quit"


@covers("session_before_branch", "session_branch")
async def test_branch_to_a_turn(make_agent: MakeAgent) -> None:
    h = await make_agent(
        [
            {"text": "listing", "tool_calls": [{"name": "ls", "arguments": {}}]},
            "turn one answer",
        ]
    )
    await h.agent.prompt("look around")
    target = h.agent.turn_leaves[1]
    assert target is not None

    assert await h.agent.branch(1) is True
    before = h.event(SessionBeforeBranchEvent)
    assert (before.target_turn_index, before.entry_id) == (1, target)
    branch = h.event(SessionBranchEvent)
    assert (branch.target_turn_index, branch.entry_id) == (1, target)
    assert branch.previous_session_file == h.agent.session.get_session_file()
    assert h.agent.session.get_leaf_id() == target
    roles = [m["role"] for m in h.agent.session.build_context_messages()]
    assert roles == ["user", "assistant", "tool"]


@covers("session_before_fork", "session_fork")
async def test_fork_into_a_new_file(make_agent: MakeAgent) -> None:
    h = await make_agent(["an answer"])
    await h.agent.prompt("a question")
    old = h.agent.session.get_session_file()
    user_entry = message_ids(h)[0]

    assert await h.agent.fork(user_entry) is True
    assert h.event(SessionBeforeForkEvent).entry_id == user_entry
    fork = h.event(SessionForkEvent)
    new = h.agent.session.get_session_file()
    assert (fork.previous_session_file, fork.session_file) == (old, new)
    assert new != old
    assert h.entries(new)[0]["parent_session"] == old
    assert [e["id"] for e in h.entries(new)[1:]] == [user_entry]
    assert h.runner.context.session_file == new
    switch = h.event(SessionSwitchEvent)
    assert (switch.reason, switch.previous_session_file, switch.session_file) == ("fork", old, new)
    assert h.types()[-3:] == ["session_fork", "session_switch", "session_start"]


@covers("session_before_tree", "session_tree")
async def test_navigate_the_tree(make_agent: MakeAgent) -> None:
    h = await make_agent(["an answer"])
    await h.agent.prompt("a question")
    user_entry, answer_entry = message_ids(h)

    assert await h.agent.navigate_tree(user_entry) is True
    before = h.event(SessionBeforeTreeEvent)
    assert (before.target_id, before.old_leaf_id) == (user_entry, answer_entry)
    assert before.preparation is not None
    assert before.preparation.common_ancestor_id == user_entry
    assert before.preparation.entry_ids_to_summarize == [answer_entry]
    assert before.preparation.user_wants_summary is False
    tree = h.event(SessionTreeEvent)
    assert (tree.new_leaf_id, tree.old_leaf_id, tree.summary_entry_id) == (
        user_entry,
        answer_entry,
        None,
    )
    assert h.agent.session.get_leaf_id() == user_entry


@covers("session_before_compact", "session.compacting", "session_compact")
async def test_manual_compaction(make_agent: MakeAgent) -> None:
    h = await two_runs_second_big(make_agent)
    ids = message_ids(h)

    assert await h.agent.compact("keep the names") is True
    before = h.event(SessionBeforeCompactEvent)
    assert before.trigger == "manual"
    assert before.custom_instructions == "keep the names"
    assert texts(before.messages) == ["first question", "first answer"]
    assert before.summary.startswith("Summary of 2 earlier messages")
    assert "first question" in before.summary
    assert before.tokens_before > 20_000
    prep = before.preparation
    assert prep.first_kept_entry_id == ids[2]
    assert prep.previous_summary is None
    assert prep.entry_ids_to_summarize == ids[:2]
    assert prep.messages_to_summarize == before.messages
    assert prep.tokens_before == before.tokens_before
    assert before.signal is not None and not before.signal.is_set()

    compacting = h.event(SessionCompactingEvent)
    assert compacting.messages == before.messages

    compact = h.event(SessionCompactEvent)
    assert compact.summary == before.summary
    assert compact.first_kept_entry_id == ids[2]  # the big prompt starts what is kept
    assert compact.tokens_before == before.tokens_before
    assert compact.from_hook is False
    assert h.events(SessionStartEvent)[-1].source == "compact"

    entry = h.entries()[-1]
    assert entry["type"] == "compaction" and entry["summary"] == compact.summary
    context = h.agent.session.build_context_messages()
    assert context[0]["role"] == "custom"
    assert compact.summary in content_text(context[0]["content"])
    assert texts(context[1:]) == [BIG_PROMPT, "second answer"]


@covers("auto_compaction_start", "auto_compaction_end", "session_before_compact")
async def test_auto_compaction_past_the_threshold(make_agent: MakeAgent) -> None:
    h = await make_agent(["first answer", "second answer", "third answer"])
    h.agent.context_window = 25_000  # 80 %: 20,000 tokens
    await h.agent.prompt("first question")
    assert h.events(AutoCompactionStartEvent) == []

    await h.agent.prompt(BIG_PROMPT)
    start = h.event(AutoCompactionStartEvent)
    assert start.reason == "threshold"
    assert h.event(SessionBeforeCompactEvent).trigger == "auto"
    end = h.event(AutoCompactionEndEvent)
    assert (end.aborted, end.error, end.will_retry) == (False, None, False)
    assert end.result is not None
    assert end.result["summary"] == h.entries()[-1]["summary"]
    assert end.result["first_kept_entry_id"] == h.entries()[-1]["first_kept_entry_id"]
    assert end.result["tokens_before"] > 20_000
    types = h.types()
    assert (
        types.index("agent_end")
        < types.index("auto_compaction_start")
        < types.index("session_compact")
        < types.index("auto_compaction_end")
    )
    assert h.entries()[-1]["type"] == "compaction"

    await h.agent.prompt("third question")
    seen = h.seen_by_model()
    assert seen[0]["role"] == "custom"
    assert "first question" in content_text(seen[0]["content"])
    assert "first answer" not in texts(seen)


@covers("auto_compaction_start", "auto_compaction_end")
async def test_auto_compaction_with_nothing_old_enough_is_reported_aborted(
    make_agent: MakeAgent,
) -> None:
    h = await make_agent(["an answer"])
    h.agent.context_window = 10
    await h.agent.prompt("a question that fills a tiny window")

    assert h.event(AutoCompactionStartEvent).reason == "threshold"
    end = h.event(AutoCompactionEndEvent)
    assert (end.aborted, end.error) == (True, None)
    assert all(e["type"] != "compaction" for e in h.entries())


async def test_tree_summary_options_and_label_reach_the_summary(make_agent: MakeAgent) -> None:
    hook = """\
def register(pi):
    @pi.on("session_before_tree")
    def summarize(event, ctx):
        prep = event.preparation
        if prep.user_wants_summary:
            return {"summary": {"summary": f"left {len(prep.entry_ids_to_summarize)} entries; "
                                            f"{prep.custom_instructions}"}}
"""
    h = await make_agent(["an answer"], hooks={"tree": hook})
    await h.agent.prompt("a question")
    user_entry, _answer = message_ids(h)
    assert await h.agent.navigate_tree(
        user_entry, summarize=True, custom_instructions="be brief", label="retry point"
    )
    before = h.event(SessionBeforeTreeEvent)
    assert before.preparation is not None
    assert (before.preparation.custom_instructions, before.preparation.label) == (
        "be brief",
        "retry point",
    )
    summary_id = h.event(SessionTreeEvent).summary_entry_id
    assert summary_id is not None
    summary = h.agent.session.get_entry(summary_id)
    assert summary is not None and summary["type"] == "branch_summary"
    assert summary["summary"] == "left 1 entries; be brief"
    assert h.agent.session.get_labels() == {summary_id: "retry point"}


async def test_an_abort_during_session_before_compact_cancels_the_compaction(
    make_agent: MakeAgent,
) -> None:
    hook = """\
SEEN = []

def register(pi):
    @pi.on("session_before_compact")
    async def slow_summary(event, ctx):
        ctx.abort()  # the user pressed Escape while a hook wrote its summary
        SEEN.append(event.signal.is_set())
        return {"compaction": {"summary": "a summary written after the abort"}}
"""
    h = await two_runs_second_big(make_agent, hooks={"slow": hook})
    assert await h.agent.compact() is False
    assert h.hook("slow").SEEN == [True]
    assert [e for e in h.entries() if e["type"] == "compaction"] == []
    assert h.events(SessionCompactEvent) == []


SHORT_COMPACTION = """
ASKED = []


def register(pi):
    @pi.on("session_before_compact")
    def before(event, ctx):
        ASKED.append(event.preparation.entry_ids_to_summarize)
        if MODE == "supply":
            return {"compaction": {"summary": "from the hook"}}
        return {"cancel": True} if MODE == "cancel" else None
"""


async def test_a_short_session_still_asks_session_before_compact(make_agent: MakeAgent) -> None:
    """As in pi: nothing would be summarised, yet a hook is asked (it may cancel, or
    supply a compaction); without one, nothing is compacted."""
    for mode, done in (("none", False), ("cancel", False), ("supply", True)):
        source = f"MODE = {mode!r}\n" + SHORT_COMPACTION
        h = await make_agent(["an answer"], hooks={f"short_{mode}": source})
        assert await h.agent.compact() is False  # no messages yet: nothing to ask about
        await h.agent.prompt("a question")
        assert await h.agent.compact() is done, mode
        assert h.hook(f"short_{mode}").ASKED == [[]]
        compactions = [e for e in h.entries() if e["type"] == "compaction"]
        assert [c["summary"] for c in compactions] == (["from the hook"] if done else [])
