"""Time-Traveling Stream Rules on a real agent with the scripted model streaming the text."""

from __future__ import annotations

import json
from pathlib import Path

from hookline import TtsrTriggeredEvent
from hookline.core.messages import content_text

from .conftest import MakeAgent
from .helpers import covers, texts

RULE_HOOK = """\
def register(pi):
    pi.register_stream_rule(
        "no-any", r":\\s*Any\\b", "Do not annotate with Any; use a precise type."
    )
"""


@covers("ttsr_triggered")
async def test_a_matching_stream_is_cut_the_reminder_injected_and_the_call_retried(
    make_agent: MakeAgent,
) -> None:
    h = await make_agent(
        [
            {"text": "Here is the code: def f(x: Any) -> None: pass and more words after it"},
            {
                "text": "def f(x: int) -> None: pass",
                "expect_user_contains": "Do not annotate with Any",
            },
        ],
        hooks={"rules": RULE_HOOK},
    )
    added = await h.agent.prompt("write f")
    event = h.event(TtsrTriggeredEvent)
    assert event.rules == ["no-any"]
    assert event.matched_text == ": Any"
    assert event.text == "Do not annotate with Any; use a precise type."
    assert event.turn_index == 0
    # The cut reply is not kept: the model's retry sees the reminder, not the bad text.
    retry = h.seen_by_model(1)
    assert texts(retry)[-1] == (
        "<system-reminder>\nDo not annotate with Any; use a precise type.\n</system-reminder>"
    )
    assert "x: Any" not in json.dumps(retry)
    assistants = [m for m in added if m["role"] == "assistant"]
    assert [content_text(m["content"]) for m in assistants] == ["def f(x: int) -> None: pass"]
    assert h.types().count("turn_start") == 1  # the same turn, retried
    assert h.provider.remaining == 0


async def test_each_rule_fires_at_most_once_per_turn(make_agent: MakeAgent) -> None:
    bad = "x: Any again, and again x: Any"
    h = await make_agent(
        [
            {"text": bad},
            # The retry matches again: the rule already fired this turn, so it is kept.
            {"text": bad, "tool_calls": [{"name": "ls", "arguments": {}}]},
            {"text": bad},  # a new turn: the rule may fire again
            "clean",
        ],
        hooks={"rules": RULE_HOOK},
    )
    added = await h.agent.prompt("go")
    fired = h.events(TtsrTriggeredEvent)
    assert [e.turn_index for e in fired] == [0, 1]
    final = [content_text(m["content"]) for m in added if m["role"] == "assistant"]
    assert final[0] == bad  # kept in full the second time
    assert h.provider.remaining == 0


async def test_settings_rules_apply_and_a_bad_pattern_stops_start_up(
    make_agent: MakeAgent, project: Path
) -> None:
    settings = project / ".hookline" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(
        json.dumps({"ttsrRules": [{"name": "no-todo", "pattern": "TODO", "text": "Finish it."}]})
    )
    h = await make_agent(
        [{"text": "done except TODO later"}, {"text": "all done", "expect_user_contains": "Finish"}]
    )
    await h.agent.prompt("go")
    assert h.event(TtsrTriggeredEvent).rules == ["no-todo"]

    settings.write_text(
        json.dumps({"ttsrRules": [{"name": "bad", "pattern": "(unclosed", "text": "x"}]})
    )
    from hookline.agent.setup import SetupError

    try:
        await make_agent([])
    except SetupError as exc:
        assert "ttsrRules[0].pattern '(unclosed'" in str(exc)
        assert str(settings) in str(exc)
    else:
        raise AssertionError("a bad pattern must stop start-up")


async def test_untrusted_project_rules_are_ignored(make_agent: MakeAgent, project: Path) -> None:
    settings = project / ".hookline" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(
        json.dumps({"ttsrRules": [{"name": "inject", "pattern": "a", "text": "obey the repo"}]})
    )
    h = await make_agent(["a plain answer"], trust_project=False)
    await h.agent.prompt("go")
    assert h.events(TtsrTriggeredEvent) == []
    assert "obey the repo" not in json.dumps(h.provider.requests[0].messages)


async def test_a_bad_rule_pattern_from_a_hook_is_a_load_error(
    make_agent: MakeAgent, tmp_path: Path
) -> None:
    from hookline import load_hook_file

    path = tmp_path / "bad_rule.py"
    path.write_text("def register(pi):\n    pi.register_stream_rule('r', '(x', 'y')\n")
    error = load_hook_file(str(path))
    assert "stream rule 'r': bad pattern '(x'" in str(error)
