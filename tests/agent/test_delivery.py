"""Where ``send_user_message``/``send_message`` land with ``deliver_as``, on a real agent."""

from __future__ import annotations

import pytest

from hookline.core.messages import content_text

from .conftest import MakeAgent
from .helpers import texts


async def test_steer_lands_after_the_current_tool_call_and_skips_the_rest(
    make_agent: MakeAgent,
) -> None:
    hook = """\
def register(pi):
    @pi.on("tool_execution_start")
    def during(event, ctx):
        if event.tool_call_id == "c1":
            assert ctx.has_pending_messages() is False
            pi.send_user_message("STEERED", deliver_as="steer")
            assert ctx.has_pending_messages() is True
"""
    h = await make_agent(
        [
            {
                "tool_calls": [
                    {"name": "bash", "arguments": {"command": "echo one"}, "id": "c1"},
                    {"name": "bash", "arguments": {"command": "echo two > two.txt"}, "id": "c2"},
                ]
            },
            {"text": "ok", "expect_user_contains": "STEERED"},
        ],
        hooks={"steer": hook},
    )
    await h.agent.prompt("go")
    seen = h.seen_by_model(1)
    assert [m["role"] for m in seen] == ["user", "assistant", "tool", "tool", "user"]
    assert content_text(seen[2]["content"]).startswith("one")
    assert seen[3]["is_error"] is True and "Skipped" in content_text(seen[3]["content"])
    assert not (h.project / "two.txt").exists()  # the skipped call never ran
    assert texts(seen)[-1] == "STEERED"
    assert h.errors == []


async def test_follow_up_waits_for_the_run_to_have_no_more_tool_calls(
    make_agent: MakeAgent,
) -> None:
    hook = """\
def register(pi):
    @pi.on("tool_execution_start")
    def during(event, ctx):
        pi.send_user_message("AND THEN", deliver_as="follow_up")
        pi.send_message({"custom_type": "note", "content": "NOTE"}, deliver_as="follow_up")
"""
    h = await make_agent(
        [
            {"tool_calls": [{"name": "ls", "arguments": {}}]},
            {"tool_calls": [{"name": "ls", "arguments": {}}]},
            "first answer",
            {"text": "followed", "expect_user_contains": "NOTE"},
        ],
        hooks={"follow": hook},
    )
    added = await h.agent.prompt("go")
    # Turns 2 and 3 were not interrupted: the follow-ups came after "first answer".
    assert "AND THEN" not in str(h.provider.requests[1].messages)
    assert "AND THEN" not in str(h.provider.requests[2].messages)
    roles = [(m["role"], content_text(m["content"])) for m in added]
    i = roles.index(("assistant", "first answer"))
    assert roles[i + 1 : i + 5] == [
        ("user", "AND THEN"),
        ("custom", "NOTE"),
        ("user", "AND THEN"),
        ("custom", "NOTE"),
    ]
    assert roles[-1] == ("assistant", "followed")
    assert h.provider.remaining == 0


async def test_next_turn_waits_for_the_next_user_prompt(make_agent: MakeAgent) -> None:
    hook = """\
def register(pi):
    @pi.on("agent_start")
    def during(event, ctx):
        if not SENT:
            SENT.append(1)
            pi.send_message(
                {"custom_type": "ctx", "content": "REMEMBER"}, deliver_as="next_turn"
            )

SENT = []
"""
    h = await make_agent(["one", "two"], hooks={"next": hook})
    await h.agent.prompt("first")
    assert "REMEMBER" not in str(h.provider.requests[0].messages)
    assert h.agent.has_pending_messages() is False  # it does not make the run go on
    await h.agent.prompt("second")
    assert texts(h.seen_by_model(1))[-2:] == ["REMEMBER", "second"]


async def test_send_user_message_when_idle_starts_a_run(make_agent: MakeAgent) -> None:
    hook = """\
def register(pi):
    @pi.register_command("ask")
    async def ask(args, ctx):
        pi.send_user_message(args)
        await ctx.wait_for_idle()
"""
    h = await make_agent(["answered"], hooks={"ask": hook})
    await h.runner.run_command("ask", "what time is it")
    assert texts(h.seen_by_model(0)) == ["what time is it"]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        ("pi.send_user_message('x', deliver_as='next_turn')", "steer, follow_up"),
        ("pi.send_user_message('x', deliver_as='later')", "steer, follow_up"),
        (
            "pi.send_message({'custom_type': 'c', 'content': 'x'}, deliver_as='followUp')",
            "steer, follow_up, next_turn",
        ),
    ],
)
async def test_a_bad_deliver_as_is_an_error_naming_the_choices(
    make_agent: MakeAgent, call: str, message: str
) -> None:
    hook = f"""\
ERRORS = []

def register(pi):
    @pi.register_command("bad")
    def bad(args, ctx):
        try:
            {call}
        except ValueError as exc:
            ERRORS.append(str(exc))
"""
    h = await make_agent([], hooks={"bad": hook})
    await h.runner.run_command("bad")
    (error,) = h.hook("bad").ERRORS
    assert f"deliver_as must be one of {message}" in error
    assert h.agent.has_pending_messages() is False


async def test_send_user_message_without_deliver_as_is_refused_while_a_run_ends(
    make_agent: MakeAgent,
) -> None:
    """As in pi: ``agent_end`` is still part of the run (not idle), and a user message with
    no ``deliver_as`` is refused and reported; no second run starts."""
    hook = """\
SEEN = []

def register(pi):
    @pi.on("agent_end")
    def again(event, ctx):
        SEEN.append(ctx.is_idle())
        pi.send_user_message("once more")
        SEEN.append("went on")
"""
    h = await make_agent(["answered", "never"], hooks={"again": hook})
    await h.agent.prompt("hi")
    await h.agent.wait_for_idle()
    assert h.hook("again").SEEN == [False, "went on"]
    assert len(h.provider.requests) == 1
    (error,) = h.errors
    assert (error.hook_path, error.event) == ("<runtime>", "send_user_message")
    assert error.error.startswith("Agent is already processing. Specify deliver_as")
    assert h.agent.is_idle() is True
