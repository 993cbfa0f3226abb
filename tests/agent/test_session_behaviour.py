"""What hooks change about sessions and model context, through the real agent.

Cancel paths, skipping the conversation restore, tree summaries, hook
compaction, ``--no-session``, ``send_message``/``append_entry``, the system
prompt of ``before_agent_start`` and the ``context`` chain.
"""

from __future__ import annotations

import json
from pathlib import Path

from hookline import (
    SessionBranchEvent,
    SessionCompactEvent,
    SessionCompactingEvent,
    SessionForkEvent,
    SessionSwitchEvent,
    SessionTreeEvent,
)
from hookline.core.messages import content_text

from .conftest import MakeAgent
from .helpers import texts
from .test_events_session import BIG_PROMPT, message_ids, two_runs_second_big

CANCEL_ALL = """\
def register(pi):
    for name in (
        "session_before_switch",
        "session_before_branch",
        "session_before_fork",
        "session_before_tree",
        "session_before_compact",
    ):
        pi.on(name, lambda event, ctx: {"cancel": True})
"""


async def test_every_cancelled_session_operation_does_nothing(make_agent: MakeAgent) -> None:
    h = await make_agent(
        [{"tool_calls": [{"name": "ls", "arguments": {}}]}, "one", "two"],
        hooks={"cancel": CANCEL_ALL},
    )
    await h.agent.prompt("first question")
    await h.agent.prompt(BIG_PROMPT)
    file = h.agent.session.get_session_file()
    assert file is not None
    leaf = h.agent.session.get_leaf_id()
    lines = Path(file).read_text()
    first_entry = message_ids(h)[0]

    assert await h.agent.new_session() is False
    assert await h.agent.switch_session(file) is False
    assert await h.agent.branch(0) is False
    assert await h.agent.fork(first_entry) is False
    assert await h.agent.navigate_tree(first_entry) is False
    assert await h.agent.compact() is False

    assert h.agent.session.get_session_file() == file
    assert h.runner.context.session_file == file
    assert h.agent.session.get_leaf_id() == leaf
    assert Path(file).read_text() == lines  # nothing appended
    for after in (
        SessionSwitchEvent,
        SessionBranchEvent,
        SessionForkEvent,
        SessionTreeEvent,
        SessionCompactingEvent,
        SessionCompactEvent,
    ):
        assert h.events(after) == [], after.type
    sessions = list(Path(file).parent.iterdir())
    assert sessions == [Path(file)]
    assert h.errors == []


SKIP_RESTORE = """\
def register(pi):
    @pi.on("session_before_branch")
    def keep(event, ctx):
        return {"skip_conversation_restore": True}
"""


async def test_skip_conversation_restore_branches_but_keeps_the_leaf(
    make_agent: MakeAgent,
) -> None:
    h = await make_agent(
        [{"tool_calls": [{"name": "ls", "arguments": {}}]}, "done"],
        hooks={"skip": SKIP_RESTORE},
    )
    await h.agent.prompt("look")
    leaf = h.agent.session.get_leaf_id()

    assert await h.agent.branch(1) is True
    assert h.agent.session.get_leaf_id() == leaf
    assert h.event(SessionBranchEvent).entry_id == h.agent.turn_leaves[1]


TREE_SUMMARY = """\
def register(pi):
    @pi.on("session_before_tree")
    def summarize(event, ctx):
        return {
            "summary": {
                "summary": "Tried approach A; the tests failed.",
                "details": {"files": ["a.py"]},
            }
        }
"""


async def test_tree_navigation_with_a_hook_summary_appends_a_branch_summary(
    make_agent: MakeAgent,
) -> None:
    h = await make_agent(
        ["approach A", {"text": "approach B", "expect_user_contains": "Tried approach A"}],
        hooks={"summary": TREE_SUMMARY},
    )
    await h.agent.prompt("try approach A")
    user_entry, answer_entry = message_ids(h)

    assert await h.agent.navigate_tree(user_entry) is True
    tree = h.event(SessionTreeEvent)
    summary = h.entries()[-1]
    assert summary["type"] == "branch_summary"
    assert summary["summary"] == "Tried approach A; the tests failed."
    assert summary["details"] == {"files": ["a.py"]}
    assert summary["from_id"] == answer_entry
    assert summary["parent_id"] == user_entry
    assert (tree.new_leaf_id, tree.old_leaf_id, tree.summary_entry_id) == (
        summary["id"],
        answer_entry,
        summary["id"],
    )

    await h.agent.prompt("now try approach B")
    seen = h.seen_by_model()
    assert [m["role"] for m in seen] == ["user", "custom", "user"]
    assert seen[1]["custom_type"] == "branch_summary"  # type: ignore[typeddict-item]
    assert "Tried approach A; the tests failed." in content_text(seen[1]["content"])
    assert "approach A" not in texts(seen)  # the abandoned answer is gone


HOOK_COMPACTION = """\
def register(pi):
    @pi.on("session_before_compact")
    def summarize(event, ctx):
        summary = "Hook summary: one small task done."
        return {"compaction": {"summary": summary, "details": {"by": "hook"}}}
"""


async def test_a_hook_supplies_the_compaction(make_agent: MakeAgent) -> None:
    h = await two_runs_second_big(make_agent, hooks={"compact": HOOK_COMPACTION})
    kept = message_ids(h)[2]

    assert await h.agent.compact() is True
    assert h.events(SessionCompactingEvent) == []  # the hook's compaction is used as is
    event = h.event(SessionCompactEvent)
    assert (event.summary, event.from_hook, event.first_kept_entry_id) == (
        "Hook summary: one small task done.",
        True,
        kept,
    )
    entry = h.entries()[-1]
    assert entry["type"] == "compaction"
    assert (entry["summary"], entry["from_hook"], entry["details"]) == (
        "Hook summary: one small task done.",
        True,
        {"by": "hook"},
    )
    context = h.agent.session.build_context_messages()
    assert "Hook summary: one small task done." in content_text(context[0]["content"])


COMPACTING_CONTEXT = """\
def register(pi):
    @pi.on("session.compacting")
    def remember(event, ctx):
        return {"context": ["The user prefers tabs.", "Deploys happen on Fridays."]}
"""


async def test_session_compacting_context_is_added_to_the_summary(make_agent: MakeAgent) -> None:
    h = await two_runs_second_big(make_agent, hooks={"remember": COMPACTING_CONTEXT})

    assert await h.agent.compact() is True
    event = h.event(SessionCompactEvent)
    assert event.from_hook is False
    assert event.summary.startswith("Summary of 2 earlier messages")
    assert event.summary.endswith(
        "\n\nAdditional context:\nThe user prefers tabs.\nDeploys happen on Fridays."
    )
    assert h.entries()[-1]["summary"] == event.summary


SESSION_FILE_PROBE = """\
SEEN = []


def register(pi):
    @pi.on("session_start")
    def start(event, ctx):
        SEEN.append(("session_start", event.session_file, ctx.session_file))

    @pi.on("tool_call")
    def call(event, ctx):
        SEEN.append(("tool_call", ctx.session_file, ctx.session_manager.get_session_file()))
"""


async def test_no_session_gives_hooks_no_session_file(make_agent: MakeAgent) -> None:
    h = await make_agent(
        [{"tool_calls": [{"name": "ls", "arguments": {}}]}, "done"],
        hooks={"probe": SESSION_FILE_PROBE},
        no_session=True,
    )
    await h.agent.prompt("look")
    assert h.hook("probe").SEEN == [
        ("session_start", None, None),
        ("tool_call", None, None),
    ]
    assert h.agent.session.is_persistent is False
    sessions = Path.home() / ".hookline" / "sessions"
    assert not sessions.exists() or not any(sessions.rglob("*.jsonl"))


SEND_MESSAGE = """\
def register(pi):
    @pi.on("tool_result")
    def lint(event, ctx):
        pi.send_message(
            {
                "custom_type": "lint",
                "content": "lint: 2 warnings in a.py",
                "display": False,
                "details": {"warnings": 2},
            }
        )

    @pi.register_command("ci")
    def ci(args, ctx):
        pi.send_message({"custom_type": "ci", "content": "CI is red: " + args}, trigger_turn=True)
"""


async def test_send_message_is_persisted_and_reaches_the_model(make_agent: MakeAgent) -> None:
    h = await make_agent(
        [
            {"tool_calls": [{"name": "ls", "arguments": {}}]},
            {"text": "I see the warnings.", "expect_user_contains": "lint: 2 warnings"},
        ],
        hooks={"lint": SEND_MESSAGE},
    )
    await h.agent.prompt("check")

    custom = [e for e in h.entries() if e["type"] == "custom_message"]
    assert len(custom) == 1
    assert (custom[0]["custom_type"], custom[0]["content"]) == ("lint", "lint: 2 warnings in a.py")
    assert (custom[0]["display"], custom[0]["details"]) == (False, {"warnings": 2})
    seen = h.seen_by_model()
    assert [m["role"] for m in seen] == ["user", "assistant", "tool", "custom"]
    assert seen[-1] == {
        "role": "custom",
        "custom_type": "lint",
        "content": "lint: 2 warnings in a.py",
        "display": False,
        "details": {"warnings": 2},
    }


async def test_send_message_with_trigger_turn_while_idle_starts_a_run(
    make_agent: MakeAgent,
) -> None:
    h = await make_agent(
        [{"text": "Looking at CI.", "expect_user_contains": "CI is red: test_api"}],
        hooks={"lint": SEND_MESSAGE},
    )
    assert await h.runner.run_command("ci", "test_api") is True
    await h.agent.wait_for_idle()

    assert h.provider.remaining == 0
    assert h.types().count("agent_start") == 1
    assert [m["role"] for m in h.seen_by_model()] == ["custom"]


APPEND_ENTRY = """\
def register(pi):
    @pi.on("turn_end")
    def remember(event, ctx):
        pi.append_entry("turn-counter", {"turn": event.turn_index, "secret": "s3cr3t"})
"""


async def test_append_entry_is_persisted_but_never_sent_to_the_model(
    make_agent: MakeAgent,
) -> None:
    h = await make_agent(
        [{"tool_calls": [{"name": "ls", "arguments": {}}]}, "one", "two"],
        hooks={"state": APPEND_ENTRY},
    )
    await h.agent.prompt("first")
    await h.agent.prompt("second")

    entries = [e for e in h.entries() if e["type"] == "custom"]
    assert [(e["custom_type"], e["data"]["turn"]) for e in entries] == [
        ("turn-counter", 0),
        ("turn-counter", 1),
        ("turn-counter", 0),  # the second run counts from 0 again
    ]
    assert len(h.provider.requests) == 3
    for request in h.provider.requests:
        assert "s3cr3t" not in json.dumps(request.messages)
        assert all(m["role"] != "custom" for m in request.messages)


PIRATE = """\
def register(pi):
    @pi.on("before_agent_start")
    def pirate(event, ctx):
        ctx.set_system_prompt(ctx.get_system_prompt() + "\\n\\nAlways respond as a pirate.")
        return {"message": {"custom_type": "mood", "content": "Arr.", "display": False}}
"""


async def test_before_agent_start_system_prompt_is_used_and_not_cumulative(
    make_agent: MakeAgent,
) -> None:
    h = await make_agent(
        [{"tool_calls": [{"name": "ls", "arguments": {}}]}, "Arr, one.", "Arr, two."],
        hooks={"pirate": PIRATE},
    )
    await h.agent.prompt("first")
    await h.agent.prompt("second")

    expected = h.agent.base_system_prompt + "\n\nAlways respond as a pirate."
    assert [r.system_prompt for r in h.provider.requests] == [expected] * 3
    first_run = h.provider.requests[0].messages
    assert [m["role"] for m in first_run] == ["user", "custom"]
    assert first_run[1]["custom_type"] == "mood"  # type: ignore[typeddict-item]
    moods = [e for e in h.entries() if e["type"] == "custom_message"]
    assert [m["content"] for m in moods] == ["Arr.", "Arr."]


CONTEXT_FILTER = """\
GIVEN = []
RETURNED = []


def register(pi):
    @pi.on("context")
    def drop_debug(event, ctx):
        GIVEN.append(event.messages)
        kept = [
            m for m in event.messages
            if not (m["role"] == "custom" and m["custom_type"] == "debug-only")
        ]
        RETURNED.append(kept)
        return {"messages": kept}

    @pi.on("context")
    def add_reminder(event, ctx):
        brief = {"role": "user", "content": [{"type": "text", "text": "Be brief."}]}
        out = [*event.messages, brief]
        RETURNED.append(out)
        return {"messages": out}

    @pi.on("before_agent_start")
    def debug(event, ctx):
        return {"message": {"custom_type": "debug-only", "content": "debug data", "display": False}}
"""


async def test_the_context_chain_output_is_exactly_what_the_model_receives(
    make_agent: MakeAgent,
) -> None:
    h = await make_agent(
        [{"tool_calls": [{"name": "ls", "arguments": {}}]}, "brief answer"],
        hooks={"filter": CONTEXT_FILTER},
    )
    await h.agent.prompt("hello")

    hook = h.hook("filter")
    assert len(hook.GIVEN) == 2 == len(h.provider.requests)
    for i, request in enumerate(h.provider.requests):
        chained = hook.RETURNED[2 * i + 1]  # the last handler's output
        assert request.messages == chained
        assert hook.RETURNED[2 * i] == chained[:-1]  # the second got the first's output
        assert texts(request.messages)[-1] == "Be brief."
        assert "debug data" not in texts(request.messages)
        assert "debug data" in texts(hook.GIVEN[i])
    # The context hook changes each call only: the session keeps the message, unfiltered.
    assert any(e["type"] == "custom_message" for e in h.entries())
    assert all(e.get("message", {}).get("content") != "Be brief." for e in h.entries()[1:])


REPORT_AT_END = """\
def register(pi):
    @pi.on("agent_end")
    def report(event, ctx):
        pi.send_message({"custom_type": "report", "content": "run report: ok"})
"""

WAKE_AT_TURN_END = """\
def register(pi):
    @pi.on("turn_end")
    def wake(event, ctx):
        if event.turn_index == 0:
            pi.send_message({"custom_type": "wake", "content": "tests failed"}, trigger_turn=True)
"""


async def test_a_message_sent_at_the_end_of_a_run_is_persisted_without_a_new_run(
    make_agent: MakeAgent,
) -> None:
    h = await make_agent(["done", "never played"], hooks={"report": REPORT_AT_END})
    await h.agent.prompt("go")
    await h.agent.wait_for_idle()

    assert h.provider.remaining == 1
    assert h.types().count("agent_start") == 1
    last = h.entries()[-1]
    assert (last["type"], last["custom_type"], last["content"]) == (
        "custom_message",
        "report",
        "run report: ok",
    )


async def test_trigger_turn_while_streaming_gives_the_model_another_turn(
    make_agent: MakeAgent,
) -> None:
    h = await make_agent(
        ["done", {"text": "fixing the tests", "expect_user_contains": "tests failed"}],
        hooks={"wake": WAKE_AT_TURN_END},
    )
    added = await h.agent.prompt("go")
    assert texts(added) == ["go", "done", "tests failed", "fixing the tests"]
    assert h.types().count("agent_start") == 1
    assert h.provider.remaining == 0
