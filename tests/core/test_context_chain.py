"""The ``context`` chain checks a handler's messages by shape: no copy, no lost keys.

A message list a handler returns is passed on as it is (the same list), keeps
keys a provider needs (``cache_control``), and a malformed message is reported
with the path of the hook that brought it in and the index; the chain's result
is then the list from before that hook.
"""

from __future__ import annotations

from typing import Any

import pytest

from hookline.core.api import HookAPI
from hookline.core.events import ContextEvent
from hookline.core.results import InvalidResultError, coerce_result

from .helpers import MakeRunner


def _user(text: str, **extra: Any) -> dict[str, Any]:
    return {"role": "user", "content": [{"type": "text", "text": text}], **extra}


async def test_a_returned_list_is_passed_on_as_is_with_unknown_keys(
    make_runner: MakeRunner,
) -> None:
    returned: list[dict[str, Any]] = []

    def keep_cached(api: HookAPI) -> None:
        @api.on("context")
        def handler(event: ContextEvent, ctx: Any) -> dict[str, Any]:
            returned[:] = [_user("cached", cache_control={"type": "ephemeral"}), *event.messages]
            return {"messages": returned}

    seen: list[Any] = []

    def observe(api: HookAPI) -> None:
        @api.on("context")
        def handler(event: ContextEvent, ctx: Any) -> None:
            seen.append(event.messages)

    built = make_runner(keep_cached, observe)
    out = await built.runner.emit_context([_user("hi")])  # type: ignore[list-item]
    assert seen[0] is returned  # the next handler got the very list, not a copy
    assert out is returned
    assert out[0]["cache_control"] == {"type": "ephemeral"}  # type: ignore[typeddict-item]
    assert built.errors == []


@pytest.mark.parametrize(
    ("messages", "where"),
    [
        ([_user("ok"), {"role": "robot", "content": []}], "messages[1]: role must be one of"),
        ([{"role": "tool", "content": []}], "messages[0]: a tool message needs 'tool_call_id'"),
        ([_user("ok"), "text"], "messages[1]: expected a message dict, got str"),
        ([{"role": "user", "content": "plain"}], "messages[0]: a user message's content"),
        ([{"role": "user", "content": [{"text": "x"}]}], "messages[0]: content must be a list"),
        ("not a list", "messages: expected a list, got str"),
    ],
)
async def test_a_malformed_message_is_reported_with_hook_and_index(
    make_runner: MakeRunner, messages: Any, where: str
) -> None:
    def bad(api: HookAPI) -> None:
        @api.on("context")
        def handler(event: ContextEvent, ctx: Any) -> dict[str, Any]:
            return {"messages": messages}

    built = make_runner(bad)
    original = [_user("hi")]
    out = await built.runner.emit_context(original)  # type: ignore[arg-type]
    assert out == original  # the bad result changed nothing
    (error,) = built.errors
    assert error.hook_path == "hook0.py" and error.event == "context"
    assert where in error.error


def test_custom_messages_may_carry_string_content() -> None:
    custom = {"role": "custom", "custom_type": "note", "content": "remember tabs"}
    result = coerce_result("context", {"messages": [custom]})
    assert result is not None and result.messages == [custom]  # type: ignore[attr-defined]


def test_other_keys_still_go_through_strict_validation() -> None:
    with pytest.raises(InvalidResultError, match="mesages"):
        coerce_result("context", {"mesages": []})


async def test_the_first_hook_that_brought_a_bad_message_in_is_blamed(
    make_runner: MakeRunner,
) -> None:
    def fine(api: HookAPI) -> None:
        @api.on("context")
        def handler(event: ContextEvent, ctx: Any) -> dict[str, Any]:
            return {"messages": [*event.messages, _user("added")]}

    def bad(api: HookAPI) -> None:
        @api.on("context")
        def handler(event: ContextEvent, ctx: Any) -> dict[str, Any]:
            return {"messages": [*event.messages, {"role": "robot", "content": []}]}

    def passes_on(api: HookAPI) -> None:
        @api.on("context")
        def handler(event: ContextEvent, ctx: Any) -> dict[str, Any]:
            return {"messages": list(event.messages)}

    built = make_runner(fine, bad, passes_on)
    out = await built.runner.emit_context([_user("hi")])  # type: ignore[list-item]
    assert [m["content"][0]["text"] for m in out] == ["hi", "added"]  # type: ignore[index]
    (error,) = built.errors
    assert error.hook_path == "hook1.py" and "messages[2]: role must be one of" in error.error
